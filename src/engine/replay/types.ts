import type { Restoration } from '../compact/restore';
import type { RequestVariant } from '../compact/types';
import type { CompactMechanism, SummarySource, ThresholdLine } from '../simulation/types';
import type { Compaction, TokenCount } from '../types';
import type { ClearingProbe, CountPart, EventDetail } from '../strategies/types';

export type { CompactMechanism, SummarySource, ThresholdLine } from '../simulation/types';

// A replay's result: plain data that crosses the worker boundary (series as typed arrays).

/**
 * Why a compaction failed or did not do its job (docs/sources.md#cc-edge-cases;
 * docs/sources.md#ccs-failure-telemetry, #ccs-thresholds):
 * `prompt-too-long`: the summary request itself is over the context window (edge case 4);
 * `blocking-limit`: the context is at or above the blocking limit, the request is refused;
 * `over-threshold`: the compaction left the context at or above the threshold, so the next call's
 * check fires again (`tengu_sm_compact_threshold_exceeded`);
 * `thrashing`: the third automatic compaction in a row due within 3 calls of the one before is
 * refused, and the request ends (Claude Code's rapid-refill breaker, strategies/claude-code/refill-breaker.ts).
 */
type CompactFailure = 'prompt-too-long' | 'blocking-limit' | 'over-threshold' | 'thrashing';

/**
 * How a token figure was obtained. The parts sum to it (`sumTokenProvenance`); zero parts are 0.
 * `recorded`: the call's recorded usage, the simulated history being the log's; `attributed`:
 * summed from per-message figures (prepare.ts `TOKEN_SOURCE`) plus the fixed parts.
 */
export interface TokenProvenance {
  kind: 'recorded' | 'attributed';
  /** The call's recorded context (input + cache creation + cache read). */
  usageTokens: TokenCount;
  /** Messages: a one-entry group's recorded usage delta. */
  exactTokens: TokenCount;
  /** Messages: a group's recorded delta split over its entries by estimate. */
  splitTokens: TokenCount;
  /** Messages no usage covers: Claude Code's estimate. */
  estimatedTokens: TokenCount;
  /** Messages whose group's recorded delta was negative, counted as 0 tokens (a count, not tokens). */
  clampedMessages: number;
  /** Recorded usage minus the log's history as attributed (what clamped deltas leave over). */
  correctionTokens: TokenCount;
  /** System prompt + tools (`ReplayResult.baseTokens`). */
  baseTokens: TokenCount;
  /** Summary message (with its continuation text) and where its size comes from. */
  summaryTokens: TokenCount;
  summarySource?: SummarySource;
  /** Re-attached files, todos, plans. */
  restoredTokens: TokenCount;
  /** Kept verbatim across a partial compaction (frozen with the summary). */
  keptTokens: TokenCount;
  /** Cleared tool results, net of their placeholders: subtracted. */
  clearedTokens: TokenCount;
  /** The call's recorded output, and the estimate of what followed it (trigger counts only). */
  outputTokens: TokenCount;
  pendingTokens: TokenCount;
  /**
   * A trigger count the strategy made its own way, less the replay's parts (trigger counts only):
   * an estimate it adds (Codex's earlier encrypted reasoning). An output or pending estimate it
   * does not count is left out of the parts instead (Gemini CLI: `withStrategyCount`).
   */
  strategyTokens: TokenCount;
}

/**
 * Messages an event tagged instead of deleting them (Roo's `condenseParent` / `truncationParent`):
 * they leave the context but stay in the task's history, and a rewind to before the event (its
 * summary or truncation marker deleted) restores them.
 */
interface HiddenRange {
  /** The tag the agent writes on them. */
  tag: 'condense' | 'truncation';
  /** The first and last context entries hidden (inclusive). */
  fromEntryIndex: number;
  toEntryIndex: number;
  /** Context entries this event hid (not those an earlier truncation still hides). */
  entries: number;
  /** Their tokens as the history held them, an earlier summary's included: what a rewind restores. */
  tokens: TokenCount;
}

/** What the summarizer would receive: enough for `buildCompactionRequest` to rebuild it. */
export interface EventRequestSpec {
  variant: RequestVariant;
  fromEntryIndex: number;
  uptoEntryIndex: number;
  keepFromEntryIndex?: number;
  customInstructions?: string;
  /** The span starts after a simulated boundary: its summary is not in the transcript. */
  previousSummaryTokens?: TokenCount;
  /** Real summary / re-attachment entries in the span that the replay did not adopt. */
  excludeEntryIndices: number[];
  /** The prompt preset (strategies/prompt-presets.ts) when not Claude Code's: its system prompt, prompt and follow-ups. */
  promptPresetId?: string;
}

/** What every replay event has, whatever its kind. */
interface ReplayEventBase {
  trigger: 'auto' | 'manual' | 'log';
  /** Index into `session.apiCalls` (and the inspect report's `apiCalls`) of the call it follows. */
  afterApiCall: number;
  /** Position of that call on the replay's call axis (`callIndex`). */
  afterCallPos: number;
  /** The entry the event follows (last context entry before its boundary) and its uuid. */
  afterEntryIndex: number;
  afterUuid?: string;
  /** The count the trigger compared with the threshold (Claude Code's own count). */
  checkTokens: TokenCount;
  thresholdTokens: TokenCount;
  /** Context before the event (what a boundary would log as `preTokens`). */
  preTokens: TokenCount;
  /** Context right after it, before any new message: base + summary + restored (+ kept). */
  postTokens: TokenCount;
  /** How `preTokens` and `postTokens` were obtained. */
  preSource: TokenProvenance;
  postSource: TokenProvenance;
  /** Why the context is still above the threshold, or what a log event means. */
  note?: string;
  /**
   * What the strategy that made the event adds to it, tagged by its id (`pi/detail.ts`: the files
   * its summary lists; `boundary-scoring/detail.ts`: the splits it scored).
   */
  detail?: EventDetail;
}

/** Tool results (and images) cleared without an LLM call. */
export interface MicrocompactEvent extends ReplayEventBase {
  kind: 'microcompact';
  clearedToolIds: string[];
  /** Tokens the clearing removed from the simulated context. */
  savedTokens: TokenCount;
  /** Claude Code's own estimate of the savings (what a microcompact boundary logs as `tokensSaved`). */
  estimatedSavedTokens: TokenCount;
}

/** Tool results replaced by a notice (Cline's file-read dedup). */
interface ReplaceEvent extends ReplayEventBase {
  kind: 'replace';
  clearedToolIds: string[];
  savedTokens: TokenCount;
  /** Tokens of the notice each replaced result keeps. */
  noticeTokens: TokenCount;
}

/** A range of messages dropped, tool pairs whole (Cline's truncation). */
export interface TruncateEvent extends ReplayEventBase {
  kind: 'truncate';
  /** The entries dropped [from, to] and their tokens. */
  droppedFromEntryIndex?: number;
  droppedToEntryIndex?: number;
  droppedTokens: TokenCount;
  /** Tokens of the notice the history gained. */
  noticeTokens: TokenCount;
  /** Tagged, not deleted (Roo): what a rewind to before this event restores. */
  hidden?: HiddenRange;
}

/** History replaced by a summary (full, partial or from session memory). */
export interface CompactEvent extends ReplayEventBase {
  kind: 'compact';
  mechanism: CompactMechanism;
  summaryTokens?: TokenCount;
  summarySource?: SummarySource;
  /** Tokens of the continuation message around the summary (`JQ6` / `T91` text). */
  continuationTokens?: TokenCount;
  /** The strategy's words for that wrapper and its size (`summaryOverheadSource`). */
  continuationSource?: string;
  /** The parts of the count the strategy compared (`checkTokens`), when it counts beyond the usage. */
  countParts?: readonly CountPart[];
  /** What was summarized: entries [from, to]. */
  spanFromEntryIndex: number;
  spanToEntryIndex: number;
  spanTokens: TokenCount;
  /** Partial compaction (or messages re-sent verbatim): the first entry kept verbatim. */
  keptFromEntryIndex?: number;
  keptTokens?: TokenCount;
  /** What a compaction would re-attach (computed from the transcript's own tool calls). */
  restored?: Restoration;
  /** Re-attached tokens the replay applied, and where the figure comes from. */
  reattachedTokens?: TokenCount;
  reattachedSource?: 'computed' | 'recorded';
  request: EventRequestSpec;
  /** Index into `session.compactions` of the real compaction this event adopted, or stood in for. */
  realCompactionIndex?: number;
  /** `over-threshold`: the compaction left the context at or above the threshold. */
  failure?: 'over-threshold';
  /** LLM requests the strategy would make for this event (the summary call, and any second call). */
  llmCalls: number;
  /** Tagged, not deleted (Roo): what a rewind to before this event restores. */
  hidden?: HiddenRange;
}

/** A real manual compaction in the log: the replay continues from the log's own post-compaction context. */
interface ResetEvent extends ReplayEventBase {
  kind: 'reset';
  trigger: 'log';
  summaryTokens?: TokenCount;
  summarySource: SummarySource;
  /** Index into `session.compactions` of the real compaction adopted. */
  realCompactionIndex: number;
}

/** The simulated context reached the blocking limit (window − 3,000): Claude Code would refuse the request. */
interface BlockedEvent extends ReplayEventBase {
  kind: 'blocked';
  failure: 'blocking-limit';
}

/** A compaction was due but could not be made (`failure` says why); the history is unchanged. */
export interface CompactFailedEvent extends ReplayEventBase {
  kind: 'compact-failed';
  mechanism: CompactMechanism;
  failure: CompactFailure;
  /** The summary request's tokens (span + prompt + system prompt) and the limit it broke. */
  requestTokens: TokenCount;
  limitTokens: TokenCount;
  /** Consecutive calls that tried and failed the same way (one event for the run). */
  attempts: number;
}

/** One replay event, tagged by `kind`. */
export type ReplayEvent =
  | MicrocompactEvent
  | ReplaceEvent
  | TruncateEvent
  | CompactEvent
  | ResetEvent
  | BlockedEvent
  | CompactFailedEvent;

export type ReplayEventKind = ReplayEvent['kind'];

/** The event of one kind. */
export type ReplayEventOf<K extends ReplayEventKind> = Extract<ReplayEvent, { kind: K }>;

/** A kind's own fields (its tag and the base's left out: intersecting the tags would give `never`). */
type OwnFields<E> = Omit<E, keyof ReplayEventBase | 'kind' | 'failure'>;
type AllEventFields = OwnFields<MicrocompactEvent> &
  OwnFields<ReplaceEvent> &
  OwnFields<TruncateEvent> &
  OwnFields<CompactEvent> &
  OwnFields<ResetEvent> &
  OwnFields<CompactFailedEvent>;

/**
 * Any event read as one flat record, every field of another kind absent: for display code that
 * shows whatever figures an event has (the event card, learn mode's steps). Code that acts on an
 * event narrows `ReplayEvent` by `kind` instead.
 */
export type ReplayEventFields = ReplayEventBase & {
  kind: ReplayEventKind;
  failure?: CompactFailure;
} & Partial<AllEventFields>;

type RealOutcomeStatus =
  /** Reproduced at the same API call. */
  | 'matched'
  /** The replay fired this many calls before (`delta` < 0) or after (`delta` > 0). */
  | 'early'
  | 'late'
  /** No replay event near it. */
  | 'missing'
  /** A manual compaction: not expected to be reproduced, replayed as a reset. */
  | 'manual';

export interface RealOutcome {
  compactionIndex: number;
  kind: Compaction['kind'];
  trigger: string;
  afterApiCall?: number;
  afterCallPos: number;
  preTokens?: TokenCount;
  status: RealOutcomeStatus;
  /** Replay event position − real position, in calls. */
  delta?: number;
  eventIndex?: number;
  /** Why it cannot be reproduced, when that is known. */
  note?: string;
}

/**
 * A log compaction the replay leaves out: it lies on a branch of the uuid tree the replay does not
 * follow (replay/off-branch.ts). Not in `outcomes`, `expected` nor `counts`: listed, not dropped.
 */
export interface LeftOutCompaction {
  compactionIndex: number;
  kind: Compaction['kind'];
  trigger: string;
  /** The boundary's line in its file. */
  line: number;
  preTokens?: TokenCount;
  /** The API call it followed on its own branch (`Compaction.apiCallBefore`, inspect's). */
  afterApiCall?: number;
  /** Its branch (`SessionBranches.branches`), −1 when none is known. */
  branchId: number;
  /** The line of the entry where its branch left the others (the fork's shared entry). */
  forkLine?: number;
  /** Whether the log went on along its branch at that fork (it is then another branch's replay that leaves it out). */
  continued: boolean;
  /** Where the branch the log went on with starts, when it is another. */
  continuedAtLine?: number;
}

export interface ReplayComparison {
  outcomes: RealOutcome[];
  /** The log's compactions on branches the replay does not follow: not compared, said. */
  leftOut: LeftOutCompaction[];
  /** Replay compaction events with no real counterpart. */
  extraEventIndices: number[];
  /** Real auto-compactions expected to be reproduced. */
  expected: number;
  /** Of those, reproduced within `toleranceCalls`. */
  reproduced: number;
  toleranceCalls: number;
  counts: Record<RealOutcomeStatus | 'extra', number>;
}

/**
 * What a replay would have cost, beside the log's real cost (engine/cost/replay-cost.ts computes
 * it; plain numbers, so the sweep, the compare table and the page carry it without the cost code).
 */
export interface ReplayCostFigures {
  /** USD of the replayed calls and their summarization calls. */
  usd: number;
  /** USD of the log's recorded usage over the same calls (and its recorded compaction calls). */
  realUsd: number;
  /** The replayed calls' input, by how it is billed, and their output (summaries included). */
  cacheReadTokens: TokenCount;
  cacheWriteTokens: TokenCount;
  uncachedTokens: TokenCount;
  outputTokens: TokenCount;
  summaryCalls: number;
  summaryUsd: number;
  /** The log's own compactions' summary calls in `realUsd`, and how many of them are estimated (not in the log). */
  realSummaryCalls: number;
  realSummariesEstimated: number;
  /** Calls whose model has no list price (not in `usd`). */
  unpricedCalls: number;
  /** When the price table was read. */
  pricesSeen: string;
}

export interface ReplayResult {
  strategyId: string;
  knobs: Record<string, unknown>;
  thresholds: ThresholdLine[];
  /**
   * The window each call was checked against, when it is not the same for all (a log that switches
   * models: `CompactionStrategy.getCallWindows`); the thresholds above are the session window's.
   */
  callWindows?: Float64Array;
  /** Main-conversation calls: index into `session.apiCalls` (the timeline's x axis). */
  callIndex: Int32Array;
  recordedTokens: Float64Array;
  /** The simulated context sent with each call. */
  simulatedTokens: Float64Array;
  /** The count the strategy's trigger compared after each call. */
  checkTokens: Float64Array;
  /** 0: the history equals the log's (recorded usage); 1: it differs (attributed per message). */
  diverged: Uint8Array;
  events: ReplayEvent[];
  /** Tool results cleared by the replay: tool_use id → index of the clearing event. */
  clearedToolIds: Record<string, number>;
  /** Entries summarized away by the replay (entry index ranges, inclusive), for the transcript list. */
  summarizedRanges: [number, number][];
  comparison: ReplayComparison;
  /** System prompt + tools as estimated from the first call. */
  baseTokens: TokenCount;
  /** The run's clearing at `ReplayOptions.probeApiCall`, acting or not (learn mode's attempt). */
  probe?: ClearingProbe;
  notes: string[];
  computeMs: number;
  /** Each subagent's own replay, when asked for (replay/subagent-replays.ts): never in the series above. */
  subagents?: SubagentReplay[];
}

/** One subagent of the session replayed alone, under the sub-agent rules. */
export interface SubagentReplay {
  /** Index into `session.files` of the subagent's file in the parent session. */
  fileIndex: number;
  fileName: string;
  agentId?: string;
  agentType?: string;
  apiCalls: number;
  peakRecordedTokens: TokenCount;
  /** Its replay: its calls are its own main thread (`callIndex` into the subagent's own parse). */
  result: ReplayResult;
  /**
   * For each of `result.events`, the session's entry index of the entry it follows (the event's
   * `afterEntryIndex` is the subagent's own parse's); −1 when the session has no entry of that file
   * at or before it.
   */
  eventEntryIndices: number[];
}

/** The buffers to transfer when posting a result across threads. */
export function getReplayTransferables(result: ReplayResult): ArrayBuffer[] {
  return [
    result.callIndex,
    result.recordedTokens,
    result.simulatedTokens,
    result.checkTokens,
    result.diverged,
    ...(result.callWindows ? [result.callWindows] : []),
  ].map((a) => a.buffer as ArrayBuffer);
}
