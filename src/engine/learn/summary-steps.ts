import { createBoundaryMarker } from '../compact/boundary';
import { buildCompactionRequest } from '../compact/build-request';
import { cleanSummaryTags } from '../compact/clean-summary';
import { formatContinuationMessage, getContinuationOverheadTokens } from '../compact/format-summary';
import { DEFAULT_PRESET_ID, requirePreset } from '../strategies/prompt-presets';
import type { PromptPreset } from '../prompts/types';
import { formatTokenProvenance } from '../replay/provenance';
import type { ReplayEventFields } from '../replay/types';
import { getBoundaryScores } from '../strategies/boundary-scoring/detail';
import { createBuiltinSummarizer } from '../summarize/builtin';
import { estimateTextTokens } from '../tokens/estimate';
import type { CompactionRequest } from '../compact/types';
import type { TokenCount } from '../types';
import type { LearnStep } from './types';
import { type Context, cut, fmt, type LearnWalkInput, list, step } from './walk-parts';

// Learn mode's steps of a summary: the span, the filter, the prompt, the answer, the agent's own
// records around it (an explainer's), what is re-attached and the continuation (walk.ts).

export interface WalkSummary {
  request: CompactionRequest;
  /** The built-in summarizer's raw answer. */
  raw: string;
  /** Its size once the tags are cleaned: what the replay is given as the summary's size. */
  tokens: TokenCount;
  /** The prompt preset of the request (the strategy's, else Claude Code's). */
  preset: PromptPreset;
}

/** The focus event's request (compact/ builder) and the built-in summarizer's answer to it. */
export async function computeWalkSummary(
  input: LearnWalkInput,
  event: ReplayEventFields,
): Promise<WalkSummary> {
  const { session, sources, signal } = input;
  const spec = event.request;
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
    promptPreset: spec?.promptPresetId === undefined ? undefined : requirePreset(spec.promptPresetId),
    elideBase64: true,
    signal,
  });
  // The strategy's own prompt preset (its sections and output format), else Claude Code's.
  const preset = requirePreset(spec?.promptPresetId ?? DEFAULT_PRESET_ID);
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
  const kept = preset.id === DEFAULT_PRESET_ID ? cleanSummaryTags(answer.text) : answer.text;
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

/**
 * The prompt family of the compact/ request builder's own pipeline (the default preset's, Claude
 * Code's): a request in it gets that pipeline's records and wording (the tag cleanup, the
 * boundary record, the continuation message); another family's gets its strategy's.
 */
const BUILDER_FAMILY = requirePreset(DEFAULT_PRESET_ID).family;

/** What each summary step reads. */
interface SummaryStepInput {
  ctx: Context;
  event: ReplayEventFields;
  summary: WalkSummary;
  /** The request is in the builder's own prompt family (BUILDER_FAMILY): its records and wording apply. */
  builderFamily: boolean;
}

/** The steps of the focus summary, in the order the agent takes them. */
export function summarizeSteps(ctx: Context, event: ReplayEventFields, summary: WalkSummary): LearnStep[] {
  // Claude Code's records (the tag cleanup, the compact_boundary record) belong to its family.
  const s: SummaryStepInput = {
    ctx,
    event,
    summary,
    builderFamily: summary.preset.family === BUILDER_FAMILY,
  };
  return [
    spanStep(s),
    filterStep(s),
    promptStep(s),
    answerStep(s),
    cleanupStep(s),
    boundaryStep(s),
    restoreStep(s),
    continuationStep(s),
  ].filter((x): x is LearnStep => x !== undefined);
}

/** The span summarized: its records, calls and tokens, and a scored split. */
function spanStep(s: SummaryStepInput): LearnStep {
  const { event, summary } = s;
  const { request } = summary;
  const boundaryScores = getBoundaryScores(event);
  const calls = s.ctx.input.session.apiCalls.filter(
    (c) => c.firstEntryIndex >= request.fromEntryIndex && c.lastEntryIndex <= request.uptoEntryIndex,
  ).length;
  return step(
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
  );
}
/** Records to API messages: what is dropped and merged. */
function filterStep(s: SummaryStepInput): LearnStep {
  const { ctx, builderFamily } = s;
  const { request } = s.summary;
  const reasons = new Map<string, number>();
  for (const d of request.dropped) reasons.set(d.reason, (reasons.get(d.reason) ?? 0) + 1);
  const merged = request.entryIndices.length - request.messages.length;
  // Records that are no message at all (a Codex rollout's events and usage lines, metadata) are
  // never read as one: the span step's records are these plus the records read (385 = 231 + 154
  // on a real rollout, where the two steps disagreed).
  const spanRecords = request.uptoEntryIndex - request.fromEntryIndex + 1;
  const notMessages = spanRecords - request.entryIndices.length - request.dropped.length;
  return step(
    'filter',
    'The message filter',
    `The records are turned into API messages: progress and system records, synthetic errors and thinking-only replies are dropped; attachments fold into the user message before them; consecutive user messages and the lines of one streamed reply merge into one message.${builderFamily ? '' : ` (CompactLab's request builder, after Claude Code's filter: ${ctx.strategyLabel} sends its history as it holds it.)`}`,
    {
      figures: [
        ...(notMessages > 0
          ? [
              {
                label: 'Records that are no message',
                value: notMessages,
                unit: 'count' as const,
                how: `of the span’s ${fmt(spanRecords)}: events, usage lines, metadata, never sent`,
              },
            ]
          : []),
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
      source: 'docs/sources.md#ccs-message-filtering',
    },
  );
}
/** The summarization prompt appended, and the whole request's size. */
function promptStep(s: SummaryStepInput): LearnStep {
  const { ctx, builderFamily } = s;
  const { request, preset } = s.summary;
  const promptTokens = estimateTextTokens(request.prompt.length);
  return step(
    'prompt',
    'The prompt appended',
    `${builderFamily ? 'The summarization prompt' : `${ctx.strategyLabel}’s summarization prompt (preset “${preset.label}”)`} goes last, as a user message after the span, with ${builderFamily ? 'a short' : 'its'} system prompt. The whole request is about ${fmt(request.estimatedTokens)} tokens by ${builderFamily ? 'the agent’s own estimate' : 'our estimate (characters / 4, as Claude Code counts; this agent’s own count may differ)'}.`,
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
      source: builderFamily ? 'docs/sources.md#cc-full-mechanism step 4' : preset.source,
    },
  );
}
/** The built-in summarizer's answer, and the size the replay gives the summary. */
function answerStep(s: SummaryStepInput): LearnStep {
  const { ctx, event, builderFamily } = s;
  const { raw, preset } = s.summary;
  return step(
    'summary',
    'The summary',
    `The model answers ${builderFamily ? 'with an analysis and a summary' : `as ${ctx.strategyLabel}’s prompt asks: ${describeOutput(preset)}`}. Offline, the built-in summarizer writes one from the span’s structure (no API key, no network). ${event.summarySource === 'supplied' ? `The replay carries this summary’s own size (${fmt(event.summaryTokens ?? 0)} tokens${builderFamily ? ' once cleaned' : ''}) into the context after.` : `The replay sizes the summary at ${fmt(event.summaryTokens ?? 0)} tokens by ${event.summarySource === 'session-memory' ? 'the session memory’s size' : 'the strategy’s size model'}, not by this text.`}`,
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
              ? `the built-in summary${builderFamily ? ', tags cleaned,' : ''} characters / 4`
              : event.summarySource === 'session-memory'
                ? 'the session memory’s size (knob): no summary is written'
                : 'a size model, not this text',
          strong: true,
        },
      ],
      texts: [{ title: 'Raw answer', ...cut(raw) }],
    },
  );
}
/** Claude Code's tag cleanup of the answer (its family's records only). */
function cleanupStep(s: SummaryStepInput): LearnStep | undefined {
  const { raw } = s.summary;
  const cleaned = cleanSummaryTags(raw);
  if (!s.builderFamily) return undefined;
  return step(
    'cleanup',
    'The tag cleanup',
    'The answer’s first <analysis> block becomes “Analysis:”, its first <summary> block “Summary:”, runs of blank lines collapse and the text is trimmed.',
    {
      figures: [
        { label: 'Before', value: raw.length, unit: 'count', how: 'characters' },
        { label: 'After', value: cleaned.length, unit: 'count', how: 'characters', strong: true },
      ],
      texts: [{ title: 'Cleaned', ...cut(cleaned, 800) }],
      source: 'docs/sources.md#ccs-summary-message',
    },
  );
}
/** The compact_boundary record Claude Code writes (its family's records only). */
function boundaryStep(s: SummaryStepInput): LearnStep | undefined {
  const { event } = s;
  const trigger = event.trigger === 'manual' ? 'manual' : 'auto';
  if (!s.builderFamily) return undefined;
  return step(
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
      source: 'docs/sources.md#ccs-boundary',
    },
  );
}
/** What is re-attached after the summary; none for a strategy that re-attaches nothing. */
function restoreStep(s: SummaryStepInput): LearnStep | undefined {
  const { event } = s;
  const r = event.restored;
  const reattached = event.reattachedTokens ?? r?.totalTokens ?? 0;
  if (!(reattached > 0 || (r && (r.files.length > 0 || r.todo || r.plan)))) return undefined;
  return step(
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
          ...(r?.todo ? [`todo list · ${fmt(r.todo.tokens)} tokens (record ${r.todo.entryIndex + 1})`] : []),
          ...(r?.plan ? [`plan${r.plan.path ? ` ${r.plan.path}` : ''} · ${fmt(r.plan.tokens)} tokens`] : []),
          ...(r?.overBudget ?? []).map((f) => `over budget: ${f.path} (${fmt(f.tokens)} tokens)`),
        ]),
      ],
      source: 'docs/sources.md#ccs-context-preservation',
    },
  );
}
/** The message that opens the new history around the summary. */
function continuationStep(s: SummaryStepInput): LearnStep | undefined {
  const { ctx, event, summary, builderFamily } = s;
  const { raw } = summary;
  const { prepared } = ctx.input;
  const trigger = event.trigger === 'manual' ? 'manual' : 'auto';
  const options = ctx.explainer?.continuation?.(
    ctx.knobs,
    trigger === 'auto',
    event.keptFromEntryIndex !== undefined,
  );
  const message = options
    ? formatContinuationMessage(raw, { ...options, transcriptPath: prepared.transcriptPath })
    : undefined;
  if (!(message || event.continuationTokens)) return undefined;
  return step(
    'continuation',
    'The continuation message',
    builderFamily
      ? 'The cleaned summary is wrapped in the message that opens the new history: it says the session continues from a summary and, after an automatic compaction, to go on without asking.'
      : `The summary opens the new history inside ${ctx.strategyLabel}’s own wrapper (a prefix, an acknowledgement or the kept messages around it): the replay counts its tokens with the summary.`,
    {
      figures: [
        {
          label: 'Wrapper around the summary',
          how: event.continuationSource,
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
      source: builderFamily ? 'docs/sources.md#cc-continuation' : undefined,
    },
  );
}
