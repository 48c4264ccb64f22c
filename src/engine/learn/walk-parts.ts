import type { ByteSource } from '../parse/source';
import type { ReplayEventFields, ReplayResult } from '../replay/types';
import type { PreparedReplay } from '../simulation/prepared';
import type { KnobSpec, KnobValue } from '../strategies/types';
import type { Session } from '../types';
import type { LearnExplainer } from './explainers';
import type { LearnBar, LearnList, LearnStep, LearnStepKind, LearnText } from './types';

// The pieces every step of learn mode's walk is made of (walk.ts): the input, the context the
// step builders share, a step, a list and a text cut to what the page shows, the trigger bar.

/** Rows of a list and characters of a text shown before "… more". */
const MAX_ROWS = 14;
const MAX_TEXT_CHARS = 2_400;
/** Calls the bar shows after the focus call (the context after the compaction). */
export const CALLS_AFTER = 12;
/** Calls the after step shows before the focus: the drop is the picture there. */
export const CALLS_BEFORE_AFTER = 36;
/** Summaries are simulated, sized by the ratio model unless the walk supplies the built-in's size. */
export const SUMMARY_MODEL = 'ratio';

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

export const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

export function cut(body: string, max = MAX_TEXT_CHARS): Pick<LearnText, 'body' | 'moreChars'> {
  return body.length > max
    ? { body: body.slice(0, max), moreChars: body.length - max }
    : { body, moreChars: 0 };
}

export function list(title: string, rows: string[]): LearnList {
  return { title, rows: rows.slice(0, MAX_ROWS), more: Math.max(0, rows.length - MAX_ROWS) };
}

export function step(
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
export function callPosOf(result: ReplayResult, apiCall: number): number {
  return result.callIndex.indexOf(apiCall);
}

/**
 * The threshold line an event was checked against: the line at the tokens it compared (Claude
 * Code's microcompact fires at its own line, "microcompact = warning = error", under the
 * auto-compact one), the one named by the event's kind among lines at the same tokens; without an
 * event, the strategy's first trigger. Undefined when no line is at those tokens.
 */
export function getThresholdLine(
  result: ReplayResult,
  event: ReplayEventFields | undefined,
): ReplayResult['thresholds'][number] | undefined {
  const trigger = result.thresholds.find((t) => t.kind === 'trigger');
  if (!event?.thresholdTokens) return trigger;
  const at = result.thresholds.filter((t) => t.tokens === event.thresholdTokens);
  return at.find((t) => t.id === event.kind) ?? at.find((t) => t.kind === 'trigger') ?? at[0];
}

/** Calls [startPos, endPos) of the replay, the focus call among them. */
export function createBar(
  result: ReplayResult,
  focusPos: number,
  endPos: number,
  event?: ReplayEventFields,
  startPos = 0,
): LearnBar {
  const trigger = result.thresholds.find((t) => t.kind === 'trigger');
  // Named for the line at the tokens drawn: the auto-compact label on a clearing's own threshold
  // read as "auto-compact 135,000" where auto-compact is 155,000.
  const line = getThresholdLine(result, event);
  // A count that is no context (OpenCode's prunable tool output against a 20,000 minimum) is not
  // drawn among the contexts: the bar showed a dip to 47,938 under a "Threshold" of 20,000 between
  // calls of 150,000. The bar keeps the contexts and the strategy's trigger line.
  const onContext = event === undefined || line !== undefined;
  const shown = onContext ? line : trigger;
  const limit =
    result.thresholds.find((t) => t.id === 'window') ?? result.thresholds.find((t) => t.kind === 'limit');
  const end = Math.min(result.callIndex.length, Math.max(endPos, focusPos + 1));
  const start = Math.max(0, Math.min(startPos, focusPos));
  return {
    apiCalls: Array.from(result.callIndex.subarray(start, end)),
    // At the event's call, the count the strategy itself compared (a strategy may count
    // differently from the loop's per-call figure, e.g. the API's input tokens).
    checkTokens: Array.from(result.checkTokens.subarray(start, end), (t, i) =>
      Math.round(event && onContext && i + start === focusPos ? event.checkTokens : t),
    ),
    recordedTokens: Array.from(result.recordedTokens.subarray(start, end), Math.round),
    thresholdTokens: (onContext ? event?.thresholdTokens : undefined) || trigger?.tokens || 0,
    thresholdLabel: shown?.label ?? 'Threshold',
    limitTokens: limit?.tokens ?? Math.max(...result.checkTokens),
    limitLabel: limit?.label ?? 'Peak',
    focus: Math.max(0, focusPos - start),
    afterEvent: event !== undefined,
  };
}

/** Tool name and entry of a cleared tool result, for a list row. */
export function describeToolResult(session: Session, toolUseId: string): string {
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

export interface Context {
  input: LearnWalkInput;
  result: ReplayResult;
  knobs: Record<string, KnobValue>;
  specs: readonly KnobSpec[];
  explainer?: LearnExplainer;
  strategyLabel: string;
}
