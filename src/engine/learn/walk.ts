import { computeReplay } from '../replay/compute-replay';
import { formatTokenProvenance } from '../replay/provenance';
import type { ReplayEvent, ReplayEventFields } from '../replay/types';
import { getStrategy } from '../strategies/registry';
import { getSessionInfo, type KnobSpec, type KnobValue } from '../strategies/types';
import { assert } from '../assert';
import { LEARN_EXPLAINERS, type LearnExplainer } from './explainers';
import { placeKnobs } from './place-knobs';
import type {
  LearnCompaction,
  LearnConstant,
  LearnFamily,
  LearnFigure,
  LearnStep,
  LearnStepKind,
  LearnWalk,
} from './types';
import {
  CALLS_AFTER,
  CALLS_BEFORE_AFTER,
  callPosOf,
  type Context,
  createBar,
  fmt,
  getThresholdLine,
  type LearnWalkInput,
  list,
  step,
  SUMMARY_MODEL,
} from './walk-parts';
import { attemptStep, checkStep, clearStep, truncateStep } from './clearing-steps';
import { computeWalkSummary, summarizeSteps, type WalkSummary } from './summary-steps';

export type { LearnWalkInput } from './walk-parts';

// Learn mode's walk through one compaction (learn/types.ts), built generically from what the
// replay did: the strategy's first compaction of the richest kind its replay produced (a summary,
// else a truncation, else a clearing) is the focus; the clearings before it are the attempts; the
// steps of the focus come from its event's fields, its request from the compact/ builder, its
// summary from the built-in (offline) summarizer. Knobs are placed on steps from their specs
// (place-knobs.ts); an explainer (explainers.ts) adds what a strategy's references say beyond that.

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
function getEventFamily(event: ReplayEvent | undefined): Exclude<LearnFamily, 'none'> | undefined {
  if (!event || event.trigger === 'log' || !FOCUS_KINDS.has(event.kind)) return undefined;
  return FOCUS_ORDER.find((f) => f.kinds.includes(event.kind))!.family;
}

/** The replay's compactions a walk can follow, in event order. */
function listWalkCompactions(events: readonly ReplayEvent[]): LearnCompaction[] {
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
  // The messages after the split stay as they are (a kept tail): without them the parts summed to
  // 19,956 of an after of 71,782 (boundary scoring on a real Codex rollout).
  const rest = event.postTokens - parts.reduce((sum, f) => sum + f.value, 0);
  parts.push({
    label: 'Recent messages left in place',
    value: rest,
    unit: 'tokens',
    how: 'priced per message as the log’s usage gave them, less cleared results and the usage’s falls',
  });
  return parts.filter((f) => Math.round(f.value) !== 0);
}

/** What a later event at the focus call does, in words. */
const LATER_EVENT_WORDS: Partial<Record<ReplayEvent['kind'], string>> = {
  compact: 'a summary',
  truncate: 'the truncation',
  microcompact: 'the clearing',
  replace: 'the duplicate-read notices',
  reset: 'the log’s own manual compaction (the replay continues from the log’s post-compaction history)',
};

/** What follows the focus before the next call: the events after it at the same call, the usage's fall. */
interface AfterContext {
  /** The events after the focus at the same call, the context each left. */
  later: { words: string; postTokens: number }[];
  /** What the log's usage fell by at the next call with no record saying why. */
  fallTokens: number;
}

/**
 * The drop and the next call. The after figure is the context the compaction leaves; the next
 * call starts from it, unless another event follows at the same call (a truncation after Cline's
 * duplicate-read notices, the log's own manual compaction: the walk said "the next call reports
 * 77,702 tokens, 71,440 under it (a call's own figure stands for the estimate)" after notices
 * that left 149,142) or the log's usage fell there (Codex no longer sending earlier reasoning).
 */
function describeAfter(pre: number, post: number, next: number | undefined, after: AfterContext): string {
  let text = `From ${fmt(pre)} tokens the context drops to ${fmt(post)}`;
  let from = post;
  for (const e of after.later) {
    text += `; ${e.words} at the same call then takes it to ${fmt(e.postTokens)}`;
    from = e.postTokens;
  }
  if (next === undefined)
    return `${text}; the next request carries that plus the new messages, and the count starts climbing again.`;
  if (next >= from - 0.5)
    return `${text}; the next request carries that plus the new messages (${fmt(next)} tokens at the next call), and the count starts climbing again.`;
  if (after.fallTokens > 0)
    return `${text}; the next call reports ${fmt(next)} tokens, ${fmt(from - next)} under it: there the log’s usage fell by ${fmt(after.fallTokens)} with no record saying why (content sent before and no longer sent), and the count starts climbing again.`;
  return `${text} by the estimate; the next call reports ${fmt(next)} tokens, ${fmt(from - next)} under it (a call's own figure stands for the estimate), and the count starts climbing again.`;
}

/** The events after `index` at its call, and the usage's fall at the next call. */
function getAfterContext(ctx: Context, index: number): AfterContext {
  const { result, input } = ctx;
  const event = result.events[index]!;
  const later = result.events
    .slice(index + 1)
    .filter((e) => e.afterApiCall === event.afterApiCall && LATER_EVENT_WORDS[e.kind] !== undefined)
    .map((e) => ({ words: LATER_EVENT_WORDS[e.kind]!, postTokens: e.postTokens }));
  const { usageFalls, callPos } = input.prepared;
  const pos = callPosOf(result, event.afterApiCall);
  // The fall of the next call's group sits at its first position (`PreparedReplay.usageFalls`).
  const at = usageFalls.pos.indexOf(callPos[pos]!);
  return { later, fallTokens: at < 0 ? 0 : usageFalls.tokens[at]! };
}

function afterStep(ctx: Context, index: number): LearnStep {
  const { result } = ctx;
  const event: ReplayEventFields = result.events[index]!;
  const pos = callPosOf(result, event.afterApiCall);
  const next = result.simulatedTokens[pos + 1];
  const headroom = event.thresholdTokens - event.postTokens;
  // The threshold is on the context only where the count compared is the context (the figure
  // before, up to the strategy's own count): OpenCode's prune compares its prunable tool output
  // with a 20,000 minimum, and "headroom" read −133,120.
  const onContext = getThresholdLine(result, event) !== undefined;
  const after = getAfterContext(ctx, index);
  const lead = describeAfter(event.preTokens, event.postTokens, next, after);
  return step(
    'after',
    'The context after',
    `${lead}${onContext && headroom < 0 ? ` It is still ${fmt(-headroom)} over the threshold: the next call’s check fires again.` : ''}`,
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
        ...(result.recordedTokens[pos + 1] === undefined
          ? []
          : [
              {
                // Beside the replay's after, the log's own (issue 24 item 8).
                label: 'In the log, next call',
                value: result.recordedTokens[pos + 1]!,
                unit: 'tokens' as const,
                how: `the real context at API call ${fmt(result.callIndex[pos + 1]! + 1)}${next === undefined ? '' : `; the replay's: ${fmt(next)}`}`,
              },
            ]),
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
        ...(onContext
          ? [
              headroom >= 0
                ? { label: 'Headroom to the threshold', value: headroom, unit: 'tokens' as const }
                : {
                    label: 'Still over the threshold',
                    value: -headroom,
                    unit: 'tokens' as const,
                    how: `${fmt(event.postTokens)} after, threshold ${fmt(event.thresholdTokens)}`,
                  },
            ]
          : []),
      ],
    },
  );
}

const FAMILY_WORDS: Record<LearnFamily, string> = {
  summarize: 'summarizes: the history since the last boundary is replaced by a summary',
  truncate: 'truncates: older messages are dropped whole, without a summary',
  clear: 'clears: old tool results give way to a placeholder, the messages stay',
  none: 'does not compact with these settings',
};

/** The walk of a strategy over a prepared session. Pure but for reading records from `sources`. */
/**
 * The threshold rule this log's knobs pick (a select knob that draws the timeline's bar: Claude
 * Code's version profile), said in the overview: a strategy's description gives its newest rule,
 * and a 2.0.67 log's walk read "window − min(max output, 20k) − 13k" above a threshold of 155,000,
 * its release's 32k reserve.
 */
function describeThresholdProfile(specs: readonly KnobSpec[], knobs: Record<string, KnobValue>): string {
  const spec = specs.find((s) => s.kind === 'select' && s.timelineBar === true);
  const option = spec?.options?.find((o) => o.value === knobs[spec.key]);
  return spec && option ? ` ${spec.label} of this log: ${option.label}.` : '';
}

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
  // The focus as the walk tells it: the figures of the run its steps read (the summary's own size),
  // so the picker and the steps give one figure for one thing (issue 24 item 6).
  const listed = compactions.findIndex((c) => c.eventIndex === index);
  if (event && listed >= 0)
    compactions[listed] = {
      ...compactions[listed]!,
      preTokens: event.preTokens,
      postTokens: event.postTokens,
    };
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
      family === 'none'
        ? `${strategy.label}: why nothing compacts here`
        : `${strategy.label}: one compaction, step by step`,
      `${strategy.description}${describeThresholdProfile(strategy.knobSpecs, knobs)} On this transcript it ${FAMILY_WORDS[family]}${event ? `; this walk follows compaction ${compactions.findIndex((c) => c.eventIndex === index) + 1} of ${compactions.length}, after API call ${event.afterApiCall + 1}` : ''}. Use ← → to move, Esc to leave.`,
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
    steps.push(afterStep(ctx, index));
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
