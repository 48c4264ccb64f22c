import type { ContinuationOptions } from '../compact/format-summary';
import type { PromptPreset } from '../prompts/types';
import { type ContextWindowInference, getSessionWindow } from '../parse/context-window';
import type { Restoration, RestoredFile } from '../compact/restore';
import type { RequestVariant } from '../compact/types';
import type { PreparedReplay, RealCompactionInfo } from '../simulation/prepared';
import type { CompactMechanism, SummarySource, ThresholdLine } from '../simulation/types';
import type { SummarySizeSpec } from './summary-size';
import { type CallModel, getCallModels, getLoggedCompactions, type LoggedCompaction } from './call-models';
import type { DialectId, LoggedContextEdits, TokenCount } from '../types';

// The one interface every compaction strategy implements (Claude Code now; Cline, Codex,
// OpenCode, Gemini CLI, Roo, API context editing later). The replay loop (replay/compute-replay.ts)
// owns the simulated context (simulation/history.ts); a strategy only looks at it through `ReplayView` after each API call
// and answers with actions. Adding a strategy = one folder (`<id>/index.ts`) + one line in registry.ts.

export type KnobValue = number | boolean | string | string[] | undefined;

/** Describes one knob for the CLI and the knobs panel. */
export interface KnobSpec {
  key: string;
  label: string;
  kind: 'number' | 'boolean' | 'select' | 'text' | 'list';
  unit?: 'tokens' | 'percent' | 'count';
  min?: number;
  max?: number;
  step?: number;
  /** Whole numbers only (counts): input is rounded. */
  integer?: boolean;
  /**
   * For `select`. `short`: what a narrow control shows (the timeline's knob bar), the value when
   * absent; a profile's id names the release its code was read from, which read as the rules of
   * that release beside a log of another.
   */
  options?: { value: string; label: string; short?: string }[];
  /** May be left empty (undefined) — e.g. an override that is off by default. */
  optional?: boolean;
  /** Where the default comes from (reference document and section). */
  source: string;
  help?: string;
  /** Panel section. */
  group: string;
  /**
   * A named CLI flag (`compactlab replay --<cliFlag> <value>`); any knob is also `--knob key=value`.
   * A boolean's flag sets it true and `--no-<cliFlag>` false, the other way round with `cliInverted`
   * (a flag named for the opposite: `--no-compact` sets `disableCompact`).
   */
  cliFlag?: string;
  cliInverted?: boolean;
  /**
   * The timeline's knobs bar (Claude Code's threshold knobs) sets this knob. Only specs that say
   * so take the bar's values: another strategy's knob of the same key is never overwritten.
   */
  timelineBar?: boolean;
  /**
   * The main session's loop alone has it: a sub-agent's own replay never takes the user's edit of
   * it (replay/subagent-knobs.ts; Claude Code's session memory, re-attachments, /compact instructions).
   */
  mainSessionOnly?: boolean;
}

/** A manual compaction the user asks the replay to perform after an API call. */
export interface ManualCompactionRequest {
  /** Index into `session.apiCalls`. */
  afterApiCall: number;
  /** `full`, or `partial` keeping messages verbatim around `pivotEntryIndex`. */
  mechanism: 'full' | 'partial';
  /**
   * Partial only. `direction: 'up-to'` (default): summarize up to the pivot, keep it and what
   * follows verbatim. `'from'`: keep what precedes the pivot, summarize the pivot onward
   * (Prompt 2, "RECENT portion").
   */
  pivotEntryIndex?: number;
  direction?: 'up-to' | 'from';
  customInstructions?: string;
}

/** What a strategy sees after each API call. Valid only during `step`. */
export interface ReplayView {
  readonly prepared: PreparedReplay;
  /** Position of the call just answered on the replay's call axis. */
  readonly callPos: number;
  /** Its index in `session.apiCalls`. */
  readonly apiCall: number;
  /** Simulated context sent with this call. */
  readonly contextTokens: TokenCount;
  /** What the response's usage reports: context + output. */
  readonly usageTokens: TokenCount;
  /** Claude Code 2.1.x's estimate of what came after the response's first line (its later lines, tool results, the next prompt). */
  readonly pendingEstimate: TokenCount;
  /** The count the trigger compares: usage, plus the pending estimate when the run counts it. */
  readonly checkTokens: TokenCount;
  /** Context position a boundary placed now would take (the next call's first entry). */
  readonly boundaryPos: number;
  /** First context position still in the simulated history. */
  readonly liveFromPos: number;
  /** Clearable items in the simulated history: indices [from, to) into `prepared.clearables`. */
  readonly clearableFrom: number;
  readonly clearableTo: number;
  isCleared(item: number): boolean;
  /**
   * Every cleared item in the order it was cleared, append-only (an item cleared stays cleared): a
   * strategy that keeps sums over the live items reads the ones past its last look, where a scan
   * of every item at every call is quadratic in the session.
   */
  readonly clearedOrder: readonly number[];
  /** Tokens the simulated history no longer holds because of cleared results (live ones). */
  readonly clearedTokens: TokenCount;
  /** Files re-attached by the last simulated compaction: restoration carries them forward. */
  readonly carriedFiles: readonly RestoredFile[];
  /** A manual compaction the user asked for after this call. */
  readonly manual?: ManualCompactionRequest;
  /** Tokens the history would hold right after summarizing: base + summary message + restored + kept. */
  estimatePostTokens(
    summaryMessageTokens: TokenCount,
    restoredTokens: TokenCount,
    keepFromPos?: number,
  ): TokenCount;
  /**
   * Tokens a summary request would carry of the history: the live history up to the boundary (a
   * simulated summary before it included), or one side of a partial cut (`keepFromPos`: 'up-to'
   * summarizes what precedes it, 'from' what follows).
   */
  getSpanTokens(keepFromPos?: number, direction?: 'up-to' | 'from'): TokenCount;
  /** What the size model gives for summarizing the live history up to the boundary. */
  getSummaryTokens(mechanism: CompactMechanism, keepFromPos?: number): TokenCount;
  /** Live tokens of positions [from, to) as the history holds them (replaced results at their notice, truncated ranges out). */
  getLiveTokens(from: number, to: number): TokenCount;
  /**
   * Whether the simulated history holds context position `pos` at all: not an artifact (summary,
   * re-attachment) of a logged compaction it did not adopt. Such artifacts lie between the log's
   * messages and weigh nothing in the history; a strategy counting messages skips them.
   */
  holds(pos: number): boolean;
  /** Ranges [from, to) of live positions a truncation dropped, sorted. */
  readonly truncatedRanges: readonly (readonly [number, number])[];
  /**
   * End of the first user–assistant pair as the call axis can hold it: the first prompt,
   * [0, callPos[0]) (the first response shares its positions with the results that follow it;
   * simulation/message-pairs.ts). A truncating strategy keeps it (Cline's `messages.slice(0, 2)`).
   */
  readonly firstPairEndPos: number;
}

/**
 * What one strategy adds to its events, tagged by the strategy's id and defined in its own folder
 * (`pi/detail.ts`, `boundary-scoring/detail.ts`): the replay copies it from the action to the event
 * and never reads it; the strategy's `describeDetail` puts it in the dump, and its readers narrow it
 * by `kind` through the folder's accessor.
 */
/**
 * One part of a strategy's trigger count, when it counts more than the last call's usage (Codex
 * adds its estimate of the earlier encrypted reasoning): what it is, its tokens and where the
 * rule comes from. The parts sum to the action's `checkTokens`.
 */
export interface CountPart {
  readonly label: string;
  readonly tokens: TokenCount;
  readonly source?: string;
}

export interface EventDetail {
  readonly kind: string;
}

export type StrategyAction =
  | {
      /**
       * A compaction was due and cannot be made: the history stays as it is (Claude Code's
       * auto-compact "silently returns { wasCompacted: false }", Claude Code 2.1.68 (docs/sources.md#cc-edge-cases edge case 5)),
       * or is refused (`thrashing`: its rapid-refill breaker, claude-code/refill-breaker.ts).
       */
      kind: 'fail';
      failure: 'prompt-too-long' | 'thrashing';
      mechanism: CompactMechanism;
      trigger: 'auto' | 'manual';
      checkTokens: TokenCount;
      thresholdTokens: TokenCount;
      /** The request that failed and the limit it broke. */
      requestTokens: TokenCount;
      limitTokens: TokenCount;
      note: string;
      detail?: EventDetail;
    }
  | {
      /** Tool results replaced by a notice (Cline's file-read dedup). */
      kind: 'replace';
      /** Indices into `prepared.clearables`. */
      items: number[];
      /** Tokens of the notice each replaced result keeps. */
      noticeTokens: TokenCount;
      checkTokens: TokenCount;
      thresholdTokens: TokenCount;
      note?: string;
      detail?: EventDetail;
    }
  | {
      /**
       * Live positions [fromPos, toPos) dropped (Cline's half / quarter truncation). Both ends must
       * be safe cuts (simulation/cuts.ts): the replay refuses a range that splits a tool pair.
       */
      kind: 'truncate';
      fromPos: number;
      toPos: number;
      /** Tokens of the notice the history gains (0 when an earlier truncation already left it). */
      noticeTokens: TokenCount;
      checkTokens: TokenCount;
      thresholdTokens: TokenCount;
      /**
       * Tagged, not deleted (Roo's `truncationParent`): the messages stay in the task's history and
       * a rewind past the marker restores them; the event records them (`ReplayEvent.hidden`).
       */
      hide?: boolean;
      note?: string;
      detail?: EventDetail;
    }
  | {
      kind: 'clear';
      /** Indices into `prepared.clearables`. */
      items: number[];
      /** Tokens of the placeholder each cleared result keeps. */
      placeholderTokens: TokenCount;
      /** Claude Code's own estimate of the savings. */
      estimatedSavedTokens: TokenCount;
      checkTokens: TokenCount;
      thresholdTokens: TokenCount;
      note?: string;
      detail?: EventDetail;
    }
  | {
      kind: 'summarize';
      mechanism: CompactMechanism;
      trigger: 'auto' | 'manual';
      checkTokens: TokenCount;
      thresholdTokens: TokenCount;
      restoration: Restoration;
      /** Partial: keep [keepFromPos, boundary) verbatim ('up-to'), or [liveFrom, keepFromPos) ('from'). */
      keepFromPos?: number;
      keepDirection?: 'up-to' | 'from';
      /** Session memory: the summary's size is known; otherwise the replay's size model decides. */
      summaryTokens?: TokenCount;
      continuation: Omit<ContinuationOptions, 'transcriptPath'>;
      requestVariant: RequestVariant;
      customInstructions?: string;
      /**
       * Tokens of the summary message's own text, in place of Claude Code's continuation message
       * (another agent's prefix, e.g. Codex's summary_prefix.md).
       */
      summaryOverheadTokens?: TokenCount;
      /** What that text is and how it is sized, as learn mode shows it beside the figure. */
      summaryOverheadSource?: string;
      /**
       * Messages re-sent verbatim after the compaction wherever they were in the history (Codex's
       * most recent user messages): their tokens, frozen with the summary.
       */
      keptMessages?: { entryIndices: number[]; tokens: TokenCount };
      /** Where a given `summaryTokens` comes from (default: session memory). */
      summarySource?: SummarySource;
      /**
       * The summary request's `max_tokens`: a longer simulated or supplied summary is cut to it
       * (the Anthropic SDK's compactionControl caps its summary at 4,096).
       */
      summaryMaxTokens?: TokenCount;
      /**
       * The prompt preset the summarizer request is built with (one of the strategy's `promptPresets`), when not
       * Claude Code's; its follow-up turns (Gemini CLI's verification probe) are further requests.
       */
      promptPresetId?: string;
      /**
       * LLM requests this compaction needs (the summary call, and any second one such as a
       * verification pass). Default: 1, or 0 for session memory (the summary already exists).
       * A rule-based summary says 0.
       */
      llmCalls?: number;
      /**
       * Tagged, not deleted (Roo's `condenseParent`): what was summarized stays in the task's
       * history and a rewind past the summary restores it; the event records it (`ReplayEvent.hidden`).
       */
      hide?: boolean;
      /** What the strategy adds to the event, carried to it untouched (`ReplayEvent.detail`). */
      detail?: EventDetail;
      /** The parts of `checkTokens` (CountPart), carried to the event. */
      countParts?: readonly CountPart[];
      note?: string;
    };

export interface StepOutcome {
  actions: StrategyAction[];
}

/** Per-replay state of a strategy (knobs resolved, caches). */
export interface StrategyRun {
  /** Called after each main-thread API call, in order. */
  step(view: ReplayView): StepOutcome | undefined;
  /** Whether a real manual compaction in the log can happen under these knobs (DISABLE_COMPACT says no). */
  readonly allowsManualCompaction: boolean;
  /** Whether the 2.1.x estimate of messages after the last response is part of the trigger count. */
  readonly countsPending: boolean;
  /** The window: a simulated context at or above `blockingTokens` is refused. */
  readonly blockingTokens: TokenCount;
  /** Who refuses it, in the replay's event (default: the API, over the model's window). */
  readonly blockingNote?: string;
  /**
   * The trigger of a logged compaction whose log does not record one (pi's): `auto` when these
   * knobs' trigger explains it, `manual` when it does not. Absent, or undefined: the log's own.
   * The replay adopts and the comparison expects the `auto` ones as it does Claude Code's.
   */
  inferLoggedTrigger?(real: RealCompactionInfo): 'auto' | 'manual' | undefined;
  /**
   * What the run's clearing (microcompact, `clear_tool_uses`) would take at this call, whether
   * or not it acts, by the rules `step` uses. Read-only: it changes nothing `step` sees.
   * Learn mode's attempt step (`ReplayOptions.probeApiCall`).
   */
  probeClearing?(view: ReplayView): ClearingProbe;
}

/** A clearing's selection at one call, acting or not (`StrategyRun.probeClearing`). */
export interface ClearingProbe {
  /** The mechanism, as the agent names it: `microcompact`, `clear_tool_uses`. */
  mechanism: string;
  /** The eligible results it looks at, oldest first in call order (indices into `prepared.clearables`). */
  considered: number[];
  /** Those it would clear (a subset of `considered`, same order). */
  items: number[];
  /** The savings it compares with the minimum: the agent's estimate of the results it would clear. */
  savings: TokenCount;
  /** The minimum the savings must pass (0: none). */
  minSavings: TokenCount;
  /** Whether the savings pass the minimum. */
  passes: boolean;
  /** Whether the clearing acts at this call. */
  acts: boolean;
  /** Why it does not act, when it does not. */
  reason?: string;
  /** The reference section of its rules. */
  source: string;
}

/** What a strategy reads from a session to pick the log's own knobs. */
export interface SessionInfo {
  versions: string[];
  models: string[];
  /** The main file is a subagent transcript opened on its own. */
  isSubagent: boolean;
  /** Real auto-compactions of the main thread. */
  autoCompactions: number;
  /** Real microcompact boundaries of the main thread. */
  microcompactions: number;
  /** Of those, the ones after the same call as a real auto-compaction (both acted on one call). */
  microcompactsWithAutoCompact?: number;
  /** Of those, the ones after a call no compaction followed (the clearing acted on its own). */
  microcompactsAlone?: number;
  /**
   * The highest usage (context + output) of a call that the next call followed without any
   * compaction in between: above an auto-compact threshold, auto-compact was off.
   */
  continuedPeakTokens: TokenCount;
  /** The log's dialect. */
  format?: DialectId;
  /**
   * The agent that wrote the log (`Session.meta.agent`: "Claude Code", "Codex CLI", …): `versions`
   * are that agent's, so a strategy reads them only when they are its own agent's.
   */
  agent?: string;
  /** The application that ran the agent, when the log says (`SessionMeta.host`: OpenClaw for pi). */
  host?: string;
  /** The window the log states (Codex's `model_context_window`), when it states one. */
  contextWindow?: TokenCount;
  /** The providers the calls went through, as the log names them (Cline's `providerId`). */
  providers?: string[];
  /** The main thread's calls by the model (and provider) they ran on, in order of first use. */
  callModels?: CallModel[];
  /** The log's compactions of the main thread with the recorded prompts before each. */
  loggedCompactions?: LoggedCompaction[];
  /** The context window and max output inferred from the log (engine/context-window). */
  windowInference?: ContextWindowInference;
  /** The `context_management.edits` a raw API request states (parse/dialects/anthropic-messages.ts). */
  contextEdits?: LoggedContextEdits;
  /** When the session started (ISO 8601, from `session.meta.startMs`): picks a version profile when no version is logged. */
  startedAt?: string;
}

/** Reads what `getSessionKnobs` needs from a prepared session. */
export function getSessionInfo(prepared: PreparedReplay): SessionInfo {
  const { session, real, recorded, output } = prepared;
  const main = session.files.find((f) => f.role === 'main');
  const afterCall = new Set(real.filter((r) => r.kind === 'compact').map((r) => r.afterCall));
  let continuedPeakTokens = 0;
  for (let k = 0; k + 1 < recorded.length; k++) {
    if (!afterCall.has(k)) continuedPeakTokens = Math.max(continuedPeakTokens, recorded[k]! + output[k]!);
  }
  return {
    versions: session.meta.versions,
    models: session.meta.models,
    providers: session.meta.providers ?? [],
    callModels: getCallModels(prepared),
    loggedCompactions: getLoggedCompactions(prepared),
    isSubagent: main?.openedAlone === true || main?.agentId !== undefined,
    autoCompactions: real.filter((r) => r.kind === 'compact' && r.trigger === 'auto').length,
    microcompactions: real.filter((r) => r.kind === 'microcompact').length,
    microcompactsWithAutoCompact: real.filter(
      (r) =>
        r.kind === 'microcompact' &&
        real.some((c) => c.kind === 'compact' && c.trigger === 'auto' && c.afterCall === r.afterCall),
    ).length,
    microcompactsAlone: real.filter(
      (r) =>
        r.kind === 'microcompact' && !real.some((c) => c.kind === 'compact' && c.afterCall === r.afterCall),
    ).length,
    continuedPeakTokens,
    format: session.format,
    agent: session.meta.agent,
    ...(session.meta.host !== undefined ? { host: session.meta.host } : {}),
    contextWindow: session.meta.contextWindow,
    windowInference: getSessionWindow(session),
    contextEdits: session.meta.contextEdits,
    startedAt: session.meta.startMs !== undefined ? new Date(session.meta.startMs).toISOString() : undefined,
  };
}

/**
 * What the page shows of a strategy without running it: its name, knob specs, defaults, their
 * validation and the threshold lines they draw (`<id>/descriptor.ts`, listed in descriptors.ts).
 * Data and cheap pure functions only: the UI imports these, and the code that replays (the
 * strategy's `createRun`, its reading of the log) stays in the worker's chunk.
 */
export interface StrategyDescriptor<K extends object = Record<string, KnobValue>> {
  id: string;
  label: string;
  description: string;
  knobSpecs: readonly KnobSpec[];
  defaultKnobs: K;
  /** Validates untrusted input (CLI, UI, worker messages) into complete knobs; unknown keys are ignored. */
  normalizeKnobs(input: unknown, base?: K): K;
  /** Lines for the chart. */
  thresholds(knobs: K): ThresholdLine[];
  /**
   * Its summarization prompt presets, in its folder: the picker lists them (strategies/prompt-presets.ts),
   * and its `summarize` actions name one by `promptPresetId` (none: Claude Code's prompt).
   */
  promptPresets?: readonly PromptPreset[];
  /**
   * Its trigger count can exceed the last call's usage, and its summarize actions then carry the
   * parts (`countParts`): the card of a real compaction replays the session for them only then.
   */
  countsBeyondUsage?: boolean;
  /**
   * How large its agent's summaries are (strategies/summary-size.ts): fitted on the agent's real
   * summaries, its stated cap, or Claude Code's fit with the reason. Absent: Claude Code's fit.
   */
  summarySize?(knobs: K): SummarySizeSpec;
  /** The knobs the dump's first line lists after the strategy's id, in order (when set). */
  dumpKnobKeys?: readonly (keyof K & string)[];
  /**
   * Set for a strategy written against the public API (custom.ts): its code is not the page's nor
   * the CLI's, so what names it (exports, links) says where it came from and how to load it.
   */
  custom?: { fileName?: string };
}

/** A strategy: its descriptor, and the code that reads a log's knobs and replays (`<id>/index.ts`). */
export interface CompactionStrategy<
  K extends object = Record<string, KnobValue>,
  D extends EventDetail = EventDetail,
> extends StrategyDescriptor<K> {
  /** The knobs the log's own agent version used, with the reasons. */
  getSessionKnobs(info: SessionInfo): { knobs: K; notes: string[] };
  createRun(knobs: K, prepared: PreparedReplay): StrategyRun;
  /**
   * The window each replayed call `k` is checked against, where the strategy reads it per call (a
   * log that switches models): the chart draws each window's lines over the calls made with it.
   */
  getCallWindows?(knobs: K, prepared: PreparedReplay): Float64Array | undefined;
  /** The dump's words for an event's `detail` (this strategy's own), appended to its line. */
  describeDetail?(detail: D): string;
}
