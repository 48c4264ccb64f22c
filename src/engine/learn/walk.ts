import { createBoundaryMarker } from '../compact/boundary';
import { buildCompactionRequest } from '../compact/build-request';
import { cleanSummaryTags } from '../compact/clean-summary';
import { formatContinuationMessage, getContinuationOverheadTokens } from '../compact/format-summary';
import type { ByteSource } from '../parse/source';
import { CLAUDE_CODE_FULL } from '../strategies/claude-code/prompt-presets';
import { requirePreset } from '../strategies/prompt-presets';
import type { PromptPreset } from '../prompts/types';
import { computeReplay } from '../replay/compute-replay';
import { formatTokenProvenance } from '../replay/provenance';
import type { ReplayEvent, ReplayEventFields, ReplayResult } from '../replay/types';
import type { ClearingProbe } from '../strategies/types';
import type { PreparedReplay } from '../simulation/prepared';
import { getBoundaryScores } from '../strategies/boundary-scoring/detail';
import { getStrategy } from '../strategies/registry';
import { getSessionInfo, type KnobSpec, type KnobValue } from '../strategies/types';
import { createBuiltinSummarizer } from '../summarize/builtin';
import { estimateTextTokens } from '../tokens/estimate';
import { assert } from '../assert';
import type { CompactionRequest } from '../compact/types';
import type { Session, TokenCount } from '../types';
import { LEARN_EXPLAINERS, type LearnExplainer } from './explainers';
import { findMinimumKnob, placeKnobs } from './place-knobs';
import type {
  LearnBar,
  LearnCompaction,
  LearnConstant,
  LearnFamily,
  LearnFigure,
  LearnList,
  LearnStep,
  LearnStepKind,
  LearnText,
  LearnWalk,
} from './types';

// Learn mode's walk through one compaction (learn/types.ts), built generically from what the
// replay did: the strategy's first compaction of the richest kind its replay produced (a summary,
// else a truncation, else a clearing) is the focus; the clearings before it are the attempts; the
// steps of the focus come from its event's fields, its request from the compact/ builder, its
// summary from the built-in (offline) summarizer. Knobs are placed on steps from their specs
// (place-knobs.ts); an explainer (explainers.ts) adds what a strategy's references say beyond that.

/** Rows of a list and characters of a text shown before "… more". */
const MAX_ROWS = 14;
const MAX_TEXT_CHARS = 2_400;
/** Calls the bar shows after the focus call (the context after the compaction). */
const CALLS_AFTER = 12;
/** Calls the after step shows before the focus: the drop is the picture there. */
const CALLS_BEFORE_AFTER = 36;
/** Summaries are simulated, sized by the ratio model unless the walk supplies the built-in's size. */
const SUMMARY_MODEL = 'ratio';

export interface LearnWalkInput {
  session: Session;
  sources: ByteSource[];
  prepared: PreparedReplay;
  strategyId: string;
  /** The teacher's changes over the log's own knobs (validated by the strategy). */
  knobOverrides?: Record<string, unknown>;
  /**
   * Index into the replay's events of the compaction to follow (one of `LearnWalk.compactions`);
   * absent, or not a compaction of this replay: the first of the richest kind (`pickFocusEvent`).
   */
  eventIndex?: number;
  signal?: AbortSignal;
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

const FOCUS_ORDER: readonly { family: Exclude<LearnFamily, 'none'>; kinds: ReplayEvent['kind'][] }[] = [
  { family: 'summarize', kinds: ['compact'] },
  { family: 'truncate', kinds: ['truncate'] },
  { family: 'clear', kinds: ['microcompact', 'replace'] },
];

/** The event the walk follows: the first of the richest kind the replay produced. */
export function pickFocusEvent(events: readonly ReplayEvent[]): { index: number; family: LearnFamily } {
  for (const { family, kinds } of FOCUS_ORDER) {
    const index = events.findIndex((e) => kinds.includes(e.kind) && e.trigger !== 'log');
    if (index >= 0) return { index, family };
  }
  return { index: -1, family: 'none' };
}

const FOCUS_KINDS = new Set(FOCUS_ORDER.flatMap((f) => f.kinds));

/** The family of a compaction event's walk, or undefined when the event is no compaction the walk follows. */
export function getEventFamily(event: ReplayEvent | undefined): Exclude<LearnFamily, 'none'> | undefined {
  if (!event || event.trigger === 'log' || !FOCUS_KINDS.has(event.kind)) return undefined;
  return FOCUS_ORDER.find((f) => f.kinds.includes(event.kind))!.family;
}

/** The replay's compactions a walk can follow, in event order. */
export function listWalkCompactions(events: readonly ReplayEvent[]): LearnCompaction[] {
  const out: LearnCompaction[] = [];
  events.forEach((e, eventIndex) => {
    const family = getEventFamily(e);
    if (family)
      out.push({
        eventIndex,
        family,
        kind: e.kind,
        afterApiCall: e.afterApiCall,
        trigger: e.trigger,
        preTokens: e.preTokens,
        postTokens: e.postTokens,
      });
  });
  return out;
}

/** The last clearing of each kind at or before the focus call, before the focus in event order. */
export function pickAttempts(events: readonly ReplayEvent[], focus: number): number[] {
  const last = new Map<ReplayEvent['kind'], number>();
  for (let i = 0; i < focus; i++) {
    const kind = events[i]!.kind;
    if ((kind === 'microcompact' || kind === 'replace') && events[i]!.trigger !== 'log') last.set(kind, i);
  }
  return [...last.values()].sort((a, b) => a - b);
}

function cut(body: string, max = MAX_TEXT_CHARS): Pick<LearnText, 'body' | 'moreChars'> {
  return body.length > max
    ? { body: body.slice(0, max), moreChars: body.length - max }
    : { body, moreChars: 0 };
}

function list(title: string, rows: string[]): LearnList {
  return { title, rows: rows.slice(0, MAX_ROWS), more: Math.max(0, rows.length - MAX_ROWS) };
}

function step(
  kind: LearnStepKind,
  title: string,
  lead: string,
  parts: Partial<Omit<LearnStep, 'kind' | 'title' | 'lead'>> = {},
): LearnStep {
  return {
    id: parts.id ?? kind,
    kind,
    title,
    lead,
    figures: parts.figures ?? [],
    constants: parts.constants ?? [],
    lists: parts.lists ?? [],
    texts: parts.texts ?? [],
    bar: parts.bar,
    source: parts.source,
  };
}

/** Position on the replay's call axis of an API call. */
function callPosOf(result: ReplayResult, apiCall: number): number {
  return result.callIndex.indexOf(apiCall);
}

/** Calls [startPos, endPos) of the replay, the focus call among them. */
function createBar(
  result: ReplayResult,
  focusPos: number,
  endPos: number,
  event?: ReplayEventFields,
  startPos = 0,
): LearnBar {
  const trigger = result.thresholds.find((t) => t.kind === 'trigger');
  const limit =
    result.thresholds.find((t) => t.id === 'window') ?? result.thresholds.find((t) => t.kind === 'limit');
  const end = Math.min(result.callIndex.length, Math.max(endPos, focusPos + 1));
  const start = Math.max(0, Math.min(startPos, focusPos));
  return {
    apiCalls: Array.from(result.callIndex.subarray(start, end)),
    // At the event's call, the count the strategy itself compared (a strategy may count
    // differently from the loop's per-call figure, e.g. the API's input tokens).
    checkTokens: Array.from(result.checkTokens.subarray(start, end), (t, i) =>
      Math.round(event && i + start === focusPos ? event.checkTokens : t),
    ),
    thresholdTokens: event?.thresholdTokens || trigger?.tokens || 0,
    thresholdLabel: trigger?.label ?? 'Threshold',
    limitTokens: limit?.tokens ?? Math.max(...result.checkTokens),
    limitLabel: limit?.label ?? 'Peak',
    focus: Math.max(0, focusPos - start),
    afterEvent: event !== undefined,
  };
}

/** Tool name and entry of a cleared tool result, for a list row. */
function describeToolResult(session: Session, toolUseId: string): string {
  const useEntry = session.toolUseEntry.get(toolUseId);
  const resultEntry = session.toolResultEntry.get(toolUseId);
  const use =
    useEntry === undefined
      ? undefined
      : session.entries[useEntry]?.blocks.find((b) => b.kind === 'tool-use' && b.id === toolUseId);
  const name = use?.kind === 'tool-use' ? use.name : 'tool';
  const target = use?.kind === 'tool-use' ? (use.filePath ?? use.command?.split('\n')[0]) : undefined;
  const where = resultEntry === undefined ? '' : ` · record ${resultEntry + 1}`;
  return `${name}${target ? ` ${target.length > 60 ? `${target.slice(0, 60)}…` : target}` : ''}${where}`;
}

interface Context {
  input: LearnWalkInput;
  result: ReplayResult;
  knobs: Record<string, KnobValue>;
  specs: readonly KnobSpec[];
  explainer?: LearnExplainer;
  strategyLabel: string;
}

function checkStep(ctx: Context, event: ReplayEventFields | undefined): LearnStep {
  const { result, input, explainer, knobs } = ctx;
  const { prepared, session } = input;
  const trigger = result.thresholds.find((t) => t.kind === 'trigger');
  if (!event) {
    let peak = 0;
    for (let i = 1; i < result.checkTokens.length; i++)
      if (result.checkTokens[i]! > result.checkTokens[peak]!) peak = i;
    return step(
      'check',
      'The token check: never reached',
      `After every API call the count is compared with the threshold. On this transcript it peaks at ${fmt(result.checkTokens[peak] ?? 0)} tokens, under ${trigger ? fmt(trigger.tokens) : 'any threshold'}: ${ctx.strategyLabel} never compacts. Lower a threshold among the constants to make it fire.`,
      {
        bar: createBar(result, peak, result.callIndex.length),
        figures: [
          { label: 'Peak count', value: result.checkTokens[peak] ?? 0, unit: 'tokens', strong: true },
          ...result.thresholds.map((t) => ({ label: t.label, value: t.tokens, unit: 'tokens' as const })),
          ...(explainer?.thresholdFigures(knobs) ?? []),
        ],
      },
    );
  }
  const pos = callPosOf(result, event.afterApiCall);
  const call = session.apiCalls[event.afterApiCall]!;
  const u = call.usage;
  const simulated = result.simulatedTokens[pos] ?? 0;
  const output = prepared.output[pos] ?? 0;
  const pending = prepared.pendingEstimate[pos] ?? 0;
  const pendingCounted = Math.abs(event.checkTokens - simulated - output - pending) < 1 && pending > 0;
  const figures: LearnFigure[] = [
    {
      label: `Recorded context of API call ${event.afterApiCall + 1}`,
      value: call.contextTokens,
      unit: 'tokens',
      how: `usage fields summed: input ${fmt(u.inputTokens)} + cache creation ${fmt(u.cacheCreationInputTokens)} + cache read ${fmt(u.cacheReadInputTokens)}`,
    },
    {
      label: 'Simulated context sent',
      value: simulated,
      unit: 'tokens',
      how:
        result.diverged[pos] === 1
          ? 'recorded usage corrected by what earlier simulated events removed'
          : 'the recorded usage: the history is still the log’s',
    },
    { label: 'Output of the response', value: output, unit: 'tokens', how: 'usage.output_tokens' },
    {
      label: 'Pending estimate',
      value: pending,
      unit: 'tokens',
      how: pendingCounted
        ? 'estimate (characters / 4) of the response’s later lines, tool results and the next prompt: counted'
        : 'estimate of the messages after the response: not counted by this strategy’s trigger',
    },
    {
      label: 'Count compared',
      value: event.checkTokens,
      unit: 'tokens',
      how: formatTokenProvenance(event.preSource),
      strong: true,
    },
    ...(explainer?.thresholdFigures(knobs) ?? [
      {
        label: trigger?.label ?? 'Threshold',
        value: event.thresholdTokens,
        unit: 'tokens' as const,
        strong: true,
      },
    ]),
  ];
  const over = event.checkTokens - event.thresholdTokens;
  return step(
    'check',
    'The token check',
    `After each API call the agent adds up what its next request will carry and compares it with the threshold. At API call ${event.afterApiCall + 1} of the main thread the count, ${fmt(event.checkTokens)}, ${over >= 0 ? `passes the threshold, ${fmt(event.thresholdTokens)}, by ${fmt(over)}` : `is ${fmt(-over)} under the threshold ${fmt(event.thresholdTokens)}`}.`,
    { bar: createBar(result, pos, pos + 1, event), figures },
  );
}

function clearStep(ctx: Context, eventIndex: number, id: string): LearnStep {
  const { result, input } = ctx;
  const event: ReplayEventFields = result.events[eventIndex]!;
  const pos = callPosOf(result, event.afterApiCall);
  const ids = event.clearedToolIds ?? [];
  const replace = event.kind === 'replace';
  const figures: LearnFigure[] = [
    { label: 'Count when it fired', value: event.checkTokens, unit: 'tokens' },
    { label: 'Its threshold', value: event.thresholdTokens, unit: 'tokens' },
    { label: replace ? 'Results replaced' : 'Tool results cleared', value: ids.length, unit: 'count' },
  ];
  if (event.estimatedSavedTokens !== undefined)
    figures.push({
      label: 'Savings, the agent’s estimate',
      value: event.estimatedSavedTokens,
      unit: 'tokens',
      how: 'what the agent compares with its minimum before clearing',
      strong: true,
    });
  const minimum = replace ? undefined : findMinimumKnob(ctx.specs);
  const minValue = minimum ? ctx.knobs[minimum.key] : undefined;
  if (minimum && typeof minValue === 'number') {
    const savings = event.estimatedSavedTokens ?? event.savedTokens ?? 0;
    figures.push({
      label: /min/i.test(minimum.label) ? minimum.label : `Minimum (${minimum.label})`,
      value: minValue,
      unit: 'tokens',
      how: `savings ${fmt(savings)} ${savings >= minValue ? '≥' : '<'} ${fmt(minValue)}: ${savings >= minValue ? 'worth clearing' : 'not worth it'}`,
    });
  }
  figures.push({
    label: 'Tokens removed from the context',
    value: event.savedTokens ?? event.preTokens - event.postTokens,
    unit: 'tokens',
    how: `${fmt(event.preTokens)} before → ${fmt(event.postTokens)} after`,
  });
  if (event.noticeTokens)
    figures.push({ label: 'Notice left in their place', value: event.noticeTokens, unit: 'tokens' });
  return step(
    replace ? 'replace' : 'clear',
    replace ? 'Duplicate file reads replaced' : (ctx.explainer?.clearTitle ?? 'Old tool results cleared'),
    replace
      ? `Before dropping anything the agent replaces repeated reads of the same file by a short notice. At API call ${event.afterApiCall + 1} it replaced ${ids.length} result${ids.length === 1 ? '' : 's'}.`
      : `Before (or instead of) summarizing, old tool results are cleared: their content gives way to a placeholder, the most recent ones are protected, and nothing happens unless the savings pass a minimum. At API call ${event.afterApiCall + 1} it cleared ${ids.length} result${ids.length === 1 ? '' : 's'}.${event.note ? ` (${event.note})` : ''}`,
    {
      id,
      bar: createBar(result, pos, pos + 1, event),
      figures,
      lists: [
        list(
          replace ? 'Replaced results' : 'Cleared tool results',
          ids.map((t) => describeToolResult(input.session, t)),
        ),
      ],
    },
  );
}

/**
 * The clearing's attempt at the focus call (microcompact, `clear_tool_uses`), acting or not: what
 * the run's own selection would take there (`StrategyRun.probeClearing`) and why it did not act.
 */
function attemptStep(ctx: Context, event: ReplayEventFields, probe: ClearingProbe): LearnStep {
  const { result, input } = ctx;
  const { clearables } = input.prepared;
  const pos = callPosOf(result, event.afterApiCall);
  const rows = (items: readonly number[]) =>
    items.map(
      (i) =>
        `${describeToolResult(input.session, clearables.ids[i]!)} · ${fmt(clearables.estimate[i]!)} tokens`,
    );
  const chosen = new Set(probe.items);
  const kept = probe.considered.filter((i) => !chosen.has(i));
  const verdict = probe.acts ? 'It acts here.' : `It does not act: ${probe.reason}.`;
  return step(
    'clear',
    `${probe.mechanism === 'clear_tool_uses' ? 'The clear_tool_uses edit' : `${probe.mechanism[0]!.toUpperCase()}${probe.mechanism.slice(1)}`} at the compaction’s call`,
    `At API call ${event.afterApiCall + 1}, ${probe.mechanism} looks at ${fmt(probe.considered.length)} eligible tool result${probe.considered.length === 1 ? '' : 's'} still in the history: the most recent are protected, the older ones would give way to a placeholder${probe.minSavings > 0 ? ' if the savings pass the minimum' : ''}. By its own rules it would clear ${fmt(probe.items.length)}, about ${fmt(probe.savings)} tokens${probe.minSavings > 0 ? ` against a minimum of ${fmt(probe.minSavings)}` : ''}. ${verdict}`,
    {
      id: 'attempt',
      bar: createBar(result, pos, pos + 1),
      figures: [
        { label: 'Eligible results in the history', value: probe.considered.length, unit: 'count' },
        { label: 'Would clear', value: probe.items.length, unit: 'count' },
        { label: 'Protected (most recent)', value: kept.length, unit: 'count' },
        {
          label: 'Savings, the agent’s estimate',
          value: probe.savings,
          unit: 'tokens',
          how: 'Σ of the estimates (characters / 4) of the results it would clear',
          strong: true,
        },
        {
          label: 'Minimum savings',
          value: probe.minSavings,
          unit: 'tokens',
          how: probe.passes ? 'passed' : 'not passed',
        },
      ],
      lists: [list('Would clear (oldest first)', rows(probe.items)), list('Protected', rows(kept).reverse())],
      source: probe.source,
    },
  );
}

function truncateStep(event: ReplayEventFields): LearnStep {
  const from = event.droppedFromEntryIndex;
  const to = event.droppedToEntryIndex;
  const records = from !== undefined && to !== undefined ? to - from + 1 : 0;
  return step(
    'truncate',
    'The truncation',
    `No summary: a range of older messages is dropped whole (never half a tool call and its result), the first exchange is kept, and a notice says something was removed.${event.note ? ` (${event.note})` : ''}`,
    {
      figures: [
        {
          label: 'Records dropped',
          value: records,
          unit: 'count',
          how: from === undefined ? undefined : `records ${from + 1}–${to! + 1}`,
        },
        { label: 'Tokens dropped', value: event.droppedTokens ?? 0, unit: 'tokens', strong: true },
        { label: 'Notice added', value: event.noticeTokens ?? 0, unit: 'tokens' },
        { label: 'Context before', value: event.preTokens, unit: 'tokens' },
        {
          label: 'Context after',
          value: event.postTokens,
          unit: 'tokens',
          how: formatTokenProvenance(event.postSource),
        },
      ],
    },
  );
}

interface WalkSummary {
  request: CompactionRequest;
  /** The built-in summarizer's raw answer. */
  raw: string;
  /** Its size once the tags are cleaned: what the replay is given as the summary's size. */
  tokens: TokenCount;
  /** The prompt preset of the request (the strategy's, else Claude Code's). */
  preset: PromptPreset;
}

/** The focus event's request (compact/ builder) and the built-in summarizer's answer to it. */
async function computeWalkSummary(input: LearnWalkInput, event: ReplayEventFields): Promise<WalkSummary> {
  const { session, sources, signal } = input;
  const spec = event.request;
  const strategyPreset = spec?.promptPresetId === undefined ? undefined : requirePreset(spec.promptPresetId);
  const request = await buildCompactionRequest(session, sources, {
    uptoEntryIndex: spec?.uptoEntryIndex ?? event.spanToEntryIndex ?? event.afterEntryIndex,
    fromEntryIndex: spec?.fromEntryIndex ?? event.spanFromEntryIndex,
    variant: spec?.variant ?? 'full',
    keepFromEntryIndex: spec?.keepFromEntryIndex,
    customInstructions: spec?.customInstructions,
    previousSummaryText:
      spec?.previousSummaryTokens === undefined
        ? undefined
        : `[Simulated summary of a previous compaction: about ${fmt(spec.previousSummaryTokens)} tokens]`,
    excludeEntryIndices: spec?.excludeEntryIndices,
    promptPreset: strategyPreset,
    elideBase64: true,
    signal,
  });
  // The strategy's own prompt preset (its sections and output format), else Claude Code's.
  const preset = strategyPreset ?? CLAUDE_CODE_FULL;
  const summarizer = createBuiltinSummarizer({ sections: preset.sections, output: preset.output });
  const answer = await summarizer.summarize(
    {
      system: request.system,
      messages: request.messages,
      prompt: request.prompt,
      model: 'builtin',
      maxOutputTokens: 20_000,
    },
    { signal },
  );
  // Claude Code's tag cleanup applies to Claude Code's answer only; another agent keeps its text.
  const kept = preset === CLAUDE_CODE_FULL ? cleanSummaryTags(answer.text) : answer.text;
  return { request, raw: answer.text, tokens: estimateTextTokens(kept.length), preset };
}

/** A preset's output format, in words. */
function describeOutput(preset: PromptPreset): string {
  const o = preset.output;
  if (o.kind === 'tag') return `a <${o.tag}> block`;
  if (o.kind === 'xml') return `an XML <${o.root}> document`;
  if (o.kind === 'tool') return `a ${o.tool} tool call`;
  return 'Markdown sections';
}

function summarizeSteps(ctx: Context, event: ReplayEventFields, summary: WalkSummary): LearnStep[] {
  const boundaryScores = getBoundaryScores(event);
  const { input, explainer, knobs } = ctx;
  const { session, prepared } = input;
  const { request, raw, preset } = summary;
  // Claude Code's records (the tag cleanup, the compact_boundary record) belong to its family.
  const claudeCode = preset.family === 'claude-code';
  const steps: LearnStep[] = [];
  const calls = session.apiCalls.filter(
    (c) => c.firstEntryIndex >= request.fromEntryIndex && c.lastEntryIndex <= request.uptoEntryIndex,
  ).length;
  steps.push(
    step(
      'span',
      'The span since the last boundary',
      `Everything since the last compact boundary (or the start) is summarized: records ${request.fromEntryIndex + 1} to ${request.uptoEntryIndex + 1}.${event.keptFromEntryIndex !== undefined ? ` From record ${event.keptFromEntryIndex + 1} on, messages are kept verbatim.` : ''}${boundaryScores?.length ? ` The split was chosen among ${boundaryScores.length} scored candidates.` : ''}`,
      {
        figures: [
          {
            label: 'Records in the span',
            value: request.uptoEntryIndex - request.fromEntryIndex + 1,
            unit: 'count',
          },
          { label: 'API calls in the span', value: calls, unit: 'count' },
          {
            label: 'Span tokens (replay)',
            value: event.spanTokens ?? 0,
            unit: 'tokens',
            how: 'attributed per message by the replay',
            strong: true,
          },
          ...(event.keptTokens
            ? [{ label: 'Kept verbatim', value: event.keptTokens, unit: 'tokens' as const }]
            : []),
        ],
        lists: boundaryScores?.length
          ? [
              list(
                'Candidate splits (best first)',
                [...boundaryScores]
                  .sort((a, b) => b.score - a.score)
                  .map(
                    (c) =>
                      `record ${c.entryIndex + 1}: ${c.score} points${c.chosen ? ' (chosen)' : ''}${c.unsafe ? ' (unsafe)' : ''} — ${c.factors.map((f) => `${f.id} ${f.points}`).join(', ')}`,
                  ),
              ),
            ]
          : [],
      },
    ),
  );
  const reasons = new Map<string, number>();
  for (const d of request.dropped) reasons.set(d.reason, (reasons.get(d.reason) ?? 0) + 1);
  const merged = request.entryIndices.length - request.messages.length;
  steps.push(
    step(
      'filter',
      'The message filter',
      `The records are turned into API messages: progress and system records, synthetic errors and thinking-only replies are dropped; attachments fold into the user message before them; consecutive user messages and the lines of one streamed reply merge into one message.${claudeCode ? '' : ` (CompactLab's request builder, after Claude Code's filter: ${ctx.strategyLabel} sends its history as it holds it.)`}`,
      {
        figures: [
          {
            label: 'Records read',
            value: request.entryIndices.length + request.dropped.length,
            unit: 'count',
          },
          { label: 'Records dropped', value: request.dropped.length, unit: 'count' },
          {
            label: 'Merges',
            value: Math.max(0, merged),
            unit: 'count',
            how: `${fmt(request.entryIndices.length)} records → ${fmt(request.messages.length)} messages`,
          },
          { label: 'Messages sent', value: request.messages.length, unit: 'count', strong: true },
        ],
        lists: [
          list(
            'Dropped, by reason',
            [...reasons].sort((a, b) => b[1] - a[1]).map(([r, n]) => `${r}: ${fmt(n)}`),
          ),
        ],
        source: 'claude-code-compact-system.md "Message Filtering: WZ()"',
      },
    ),
  );
  const promptTokens = estimateTextTokens(request.prompt.length);
  steps.push(
    step(
      'prompt',
      'The prompt appended',
      `${claudeCode ? 'The summarization prompt' : `${ctx.strategyLabel}’s summarization prompt (preset “${preset.label}”)`} goes last, as a user message after the span, with ${claudeCode ? 'a short' : 'its'} system prompt. The whole request is about ${fmt(request.estimatedTokens)} tokens by ${claudeCode ? 'the agent’s own estimate' : 'Claude Code’s estimate (characters / 4)'}.`,
      {
        figures: [
          {
            label: 'Prompt',
            value: promptTokens,
            unit: 'tokens',
            how: `${fmt(request.prompt.length)} characters / 4`,
          },
          { label: 'Whole request (estimate)', value: request.estimatedTokens, unit: 'tokens', strong: true },
        ],
        texts: [
          { title: 'System prompt', ...cut(request.system) },
          { title: 'Prompt (last user message)', ...cut(request.prompt, 8_000) },
        ],
        source: claudeCode ? 'claude-code-compaction-v2.1.68.txt "Full mechanism", step 4' : preset.source,
      },
    ),
  );
  steps.push(
    step(
      'summary',
      'The summary',
      `The model answers ${claudeCode ? 'with an analysis and a summary' : `as ${ctx.strategyLabel}’s prompt asks: ${describeOutput(preset)}`}. Offline, the built-in summarizer writes one from the span’s structure (no API key, no network). ${event.summarySource === 'supplied' ? `The replay carries this summary’s own size (${fmt(event.summaryTokens ?? 0)} tokens${claudeCode ? ' once cleaned' : ''}) into the context after.` : `The replay sizes the summary at ${fmt(event.summaryTokens ?? 0)} tokens by ${event.summarySource === 'session-memory' ? 'the session memory’s size' : 'the strategy’s size model'}, not by this text.`}`,
      {
        figures: [
          {
            label: 'Built-in summary',
            value: estimateTextTokens(raw.length),
            unit: 'tokens',
            how: `${fmt(raw.length)} characters / 4`,
          },
          {
            label: 'Summary size in the replay',
            value: event.summaryTokens ?? 0,
            unit: 'tokens',
            how:
              event.summarySource === 'supplied'
                ? `the built-in summary${claudeCode ? ', tags cleaned,' : ''} characters / 4`
                : event.summarySource === 'session-memory'
                  ? 'the session memory’s size (knob): no summary is written'
                  : 'a size model, not this text',
            strong: true,
          },
        ],
        texts: [{ title: 'Raw answer', ...cut(raw) }],
      },
    ),
  );
  const cleaned = cleanSummaryTags(raw);
  if (claudeCode)
    steps.push(
      step(
        'cleanup',
        'The tag cleanup',
        'The answer’s first <analysis> block becomes “Analysis:”, its first <summary> block “Summary:”, runs of blank lines collapse and the text is trimmed.',
        {
          figures: [
            { label: 'Before', value: raw.length, unit: 'count', how: 'characters' },
            { label: 'After', value: cleaned.length, unit: 'count', how: 'characters', strong: true },
          ],
          texts: [{ title: 'Cleaned', ...cut(cleaned, 800) }],
          source: 'claude-code-compact-system.md "Summary Content Handling: MD5()"',
        },
      ),
    );
  const trigger = event.trigger === 'manual' ? 'manual' : 'auto';
  if (claudeCode)
    steps.push(
      step(
        'boundary',
        'The boundary marker',
        'A system record marks where the history now starts: later compactions summarize only from here. It logs the trigger and the count before compaction.',
        {
          figures: [
            {
              label: 'preTokens',
              value: event.preTokens,
              unit: 'tokens',
              how: formatTokenProvenance(event.preSource),
              strong: true,
            },
          ],
          texts: [
            {
              title: 'compact_boundary record',
              ...cut(JSON.stringify(createBoundaryMarker(trigger, Math.round(event.preTokens)), null, 2)),
            },
          ],
          source: 'claude-code-compact-system.md "Boundary Marker: S91()"',
        },
      ),
    );
  const r = event.restored;
  const reattached = event.reattachedTokens ?? r?.totalTokens ?? 0;
  // A strategy that re-attaches nothing has no such step.
  if (reattached > 0 || (r && (r.files.length > 0 || r.todo || r.plan)))
    steps.push(
      step(
        'restore',
        'Files and todos restored',
        `After the summary the agent re-reads the files most recently touched (within a per-file and a total budget) and re-attaches the todo list and the plan, so the model does not have to read them again.${r ? '' : ' The log compacted at this very call: the replay takes the log’s own re-attachments, so the restoration limits do not change this figure here.'}`,
        {
          figures: [
            { label: 'Files re-attached', value: r?.files.length ?? 0, unit: 'count' },
            { label: 'Left out (over budget)', value: r?.overBudget.length ?? 0, unit: 'count' },
            {
              label: 'Re-attached tokens',
              value: event.reattachedTokens ?? r?.totalTokens ?? 0,
              unit: 'tokens',
              how:
                event.reattachedSource === 'recorded'
                  ? 'the log’s own re-attachments'
                  : 'computed from the transcript’s tool calls',
              strong: true,
            },
          ],
          lists: [
            list(
              'Files',
              (r?.files ?? []).map(
                (f) =>
                  `${f.path} · ${f.tool} · ${fmt(f.tokens)} tokens${f.referenceOnly ? ' (path only: over the per-file limit)' : f.truncated ? ' (truncated)' : ''}`,
              ),
            ),
            list('Also', [
              ...(r?.todo
                ? [`todo list · ${fmt(r.todo.tokens)} tokens (record ${r.todo.entryIndex + 1})`]
                : []),
              ...(r?.plan
                ? [`plan${r.plan.path ? ` ${r.plan.path}` : ''} · ${fmt(r.plan.tokens)} tokens`]
                : []),
              ...(r?.overBudget ?? []).map((f) => `over budget: ${f.path} (${fmt(f.tokens)} tokens)`),
            ]),
          ],
          source: 'claude-code-compact-system.md "Context Preservation"',
        },
      ),
    );
  const options = explainer?.continuation?.(
    knobs,
    trigger === 'auto',
    event.keptFromEntryIndex !== undefined,
  );
  const message = options
    ? formatContinuationMessage(raw, { ...options, transcriptPath: prepared.transcriptPath })
    : undefined;
  if (message || event.continuationTokens)
    steps.push(
      step(
        'continuation',
        'The continuation message',
        claudeCode
          ? 'The cleaned summary is wrapped in the message that opens the new history: it says the session continues from a summary and, after an automatic compaction, to go on without asking.'
          : `The summary opens the new history inside ${ctx.strategyLabel}’s own wrapper (a prefix, an acknowledgement or the kept messages around it): the replay counts its tokens with the summary.`,
        {
          figures: [
            {
              label: 'Wrapper around the summary',
              value:
                event.continuationTokens ??
                (options
                  ? getContinuationOverheadTokens({ ...options, transcriptPath: prepared.transcriptPath })
                  : 0),
              unit: 'tokens',
            },
            ...(message
              ? [
                  {
                    label: 'Whole message',
                    value: estimateTextTokens(message.length),
                    unit: 'tokens' as const,
                    strong: true,
                  },
                ]
              : []),
          ],
          texts: message ? [{ title: 'The message', ...cut(message, 1_600) }] : [],
          source: claudeCode
            ? 'claude-code-compaction-v2.1.68.txt "Continuation message injected after compaction"'
            : undefined,
        },
      ),
    );
  return steps;
}

/** What a summary leaves in the context, part by part (the event's own breakdown). */
function getSummaryParts(event: ReplayEventFields): LearnFigure[] {
  const p = event.postSource;
  const parts: LearnFigure[] = [
    {
      label: 'System prompt and tools',
      value: p.baseTokens,
      unit: 'tokens',
      how: 'the base every request carries',
    },
    {
      label: 'Summary message',
      value: p.summaryTokens,
      unit: 'tokens',
      how: `summary ${fmt(event.summaryTokens ?? 0)} + continuation ${fmt(event.continuationTokens ?? 0)}`,
    },
    { label: 'Re-attached files, todos, plan', value: p.restoredTokens, unit: 'tokens' },
    { label: 'Kept verbatim', value: p.keptTokens, unit: 'tokens' },
  ];
  return parts.filter((f) => Math.round(f.value) !== 0);
}

function afterStep(ctx: Context, event: ReplayEventFields): LearnStep {
  const { result } = ctx;
  const pos = callPosOf(result, event.afterApiCall);
  const next = result.simulatedTokens[pos + 1];
  return step(
    'after',
    'The context after',
    `From ${fmt(event.preTokens)} tokens the context drops to ${fmt(event.postTokens)}; the next request carries that plus the new messages${next === undefined ? '' : ` (${fmt(next)} tokens at the next call)`}, and the count starts climbing again.`,
    {
      bar: createBar(result, pos, pos + 1 + CALLS_AFTER, event, pos - CALLS_BEFORE_AFTER),
      figures: [
        { label: 'Before', value: event.preTokens, unit: 'tokens' },
        {
          label: 'After',
          value: event.postTokens,
          unit: 'tokens',
          how: formatTokenProvenance(event.postSource),
          strong: true,
        },
        ...(event.kind === 'compact' ? getSummaryParts(event) : []),
        { label: 'Freed', value: event.preTokens - event.postTokens, unit: 'tokens' },
        ...(next === undefined
          ? []
          : [
              {
                label: 'Next call',
                value: next,
                unit: 'tokens' as const,
                how: 'simulated context of the next API call',
              },
            ]),
        {
          label: 'Headroom to the threshold',
          value: event.thresholdTokens - event.postTokens,
          unit: 'tokens',
        },
      ],
    },
  );
}

const FAMILY_WORDS: Record<LearnFamily, string> = {
  summarize: 'summarizes: the history since the last boundary is replaced by a summary',
  truncate: 'truncates: older messages are dropped whole, without a summary',
  clear: 'clears: old tool results give way to a placeholder, the messages stay',
  none: 'did not compact on this transcript with these settings',
};

/** The walk of a strategy over a prepared session. Pure but for reading records from `sources`. */
export async function computeLearnWalk(input: LearnWalkInput): Promise<LearnWalk> {
  const t0 = performance.now();
  const strategy = getStrategy(input.strategyId);
  const own = strategy.getSessionKnobs(getSessionInfo(input.prepared));
  const knobs = strategy.normalizeKnobs(input.knobOverrides ?? {}, own.knobs) as Record<string, KnobValue>;
  // Every summary is simulated (no adoption of the log's own compactions), so every knob acts.
  const first = computeReplay(input.prepared, strategy.id, knobs, { summaryModel: SUMMARY_MODEL });
  input.signal?.throwIfAborted();
  const compactions = listWalkCompactions(first.events);
  const picked = compactions.find((c) => c.eventIndex === input.eventIndex);
  const { index, family } = picked
    ? { index: picked.eventIndex, family: picked.family as LearnFamily }
    : pickFocusEvent(first.events);
  let summary: WalkSummary | undefined;
  const focus: ReplayEventFields | undefined = index >= 0 ? first.events[index] : undefined;
  if (focus && family === 'summarize') summary = await computeWalkSummary(input, focus);
  // Re-run with the summary the class reads (its size is what the context after carries) and
  // the clearing asked what it would take at the focus call.
  const result = focus
    ? computeReplay(input.prepared, strategy.id, knobs, {
        summaryModel: SUMMARY_MODEL,
        probeApiCall: focus.afterApiCall,
        ...(summary && focus.mechanism !== 'session-memory'
          ? { suppliedSummaryTokens: { [focus.afterApiCall]: summary.tokens } }
          : {}),
      })
    : first;
  input.signal?.throwIfAborted();
  const event = index >= 0 ? result.events[index] : undefined;
  assert(
    event === undefined || (event.kind === focus?.kind && event.afterApiCall === focus.afterApiCall),
    'a supplied summary size changed the events before the focus',
  );
  const explainer = LEARN_EXPLAINERS[strategy.id];
  const ctx: Context = {
    input,
    result,
    knobs,
    specs: strategy.knobSpecs,
    explainer,
    strategyLabel: strategy.label,
  };

  const steps: LearnStep[] = [
    step(
      'overview',
      `${strategy.label}: one compaction, step by step`,
      `${strategy.description} On this transcript it ${FAMILY_WORDS[family]}${event ? `; this walk follows compaction ${compactions.findIndex((c) => c.eventIndex === index) + 1} of ${compactions.length}, after API call ${event.afterApiCall + 1}` : ''}. Use ← → to move, Esc to leave.`,
      {
        figures: [
          { label: 'API calls on the main thread', value: result.callIndex.length, unit: 'count' },
          {
            label: 'Compaction events in the replay',
            value: result.events.filter((e) => e.trigger !== 'log').length,
            unit: 'count',
          },
        ],
      },
    ),
    checkStep(ctx, event),
  ];
  if (event) {
    const attempts = pickAttempts(result.events, index);
    for (const a of attempts)
      steps.push(clearStep(ctx, a, result.events[a]!.kind === 'replace' ? 'replace' : 'clear'));
    // The clearing tried at the compaction's own call, unless it acted there (then it is an attempt above).
    const clearedHere = attempts.some(
      (a) => result.events[a]!.kind !== 'replace' && result.events[a]!.afterApiCall === event.afterApiCall,
    );
    if (family !== 'clear' && result.probe && !clearedHere) steps.push(attemptStep(ctx, event, result.probe));
    if (family === 'summarize' && summary) steps.push(...summarizeSteps(ctx, event, summary));
    else if (family === 'truncate') steps.push(truncateStep(event));
    else steps.push(clearStep(ctx, index, event.kind === 'replace' ? 'replace' : 'clear'));
    steps.push(afterStep(ctx, event));
  }
  steps[0]!.lists.push(
    list(
      'The steps',
      steps.slice(1).map((s, i) => `${i + 2}. ${s.title}`),
    ),
  );
  placeConstants(steps, strategy.knobSpecs, knobs, explainer);
  return {
    strategyId: strategy.id,
    strategyLabel: strategy.label,
    family,
    focusEventIndex: event ? index : undefined,
    compactions,
    afterApiCall: event?.afterApiCall,
    steps,
    knobs,
    sessionNotes: own.notes,
    computeMs: performance.now() - t0,
  };
}

/** Each knob and fixed constant on the step it acts at (the first step of that kind). */
function placeConstants(
  steps: LearnStep[],
  specs: Parameters<typeof placeKnobs>[0],
  knobs: Record<string, KnobValue>,
  explainer: LearnExplainer | undefined,
): void {
  const kinds = new Set(steps.map((s) => s.kind));
  const placed = placeKnobs(specs, knobs, kinds);
  const fixed = explainer?.fixedConstants(knobs) ?? {};
  for (const kind of kinds) {
    const target = steps.find((s) => s.kind === kind)!;
    const extra: LearnConstant[] = (fixed[kind] ?? []).slice();
    target.constants.push(...(placed.get(kind) ?? []), ...extra);
  }
  // A fixed constant whose step is absent goes to the check.
  const check = steps.find((s) => s.kind === 'check');
  for (const [kind, list] of Object.entries(fixed))
    if (!kinds.has(kind as LearnStepKind)) check?.constants.push(...list);
}
