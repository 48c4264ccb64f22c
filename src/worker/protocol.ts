// The whole contract between the UI thread and the engine worker. Only plain data crosses
// (structured clone); big numeric series travel as transferable typed arrays. Files cross as
// Blob/File objects, which the worker reads lazily by slices.

import type { UsageGroup } from '../engine/stats/usage';
import type { PackedUsage } from '../engine/stats/usage-pack';
import type { BashSummaries } from '../engine/query/bash-summaries';
import type { CompactionDetail } from '../engine/query/compaction-detail';
import type { RealTriggerCount } from '../engine/replay/real-trigger';
import type { EntryDetail } from '../engine/query/entry-detail';
import type { FullTextProgress } from '../engine/query/full-text-search';
import type { SessionTextMatches } from '../engine/query/text-search';
import type { RowFilter } from '../engine/query/row-filter';
import type { RowSummary } from '../engine/query/row-page';
import type { SessionOverview } from '../engine/query/session-overview';
import type { TimelineSeries } from '../engine/query/timeline-series';
import type { TokenTable } from '../engine/query/token-table';
import type { ConversationTurn } from '../engine/query/conversation';
import type { MdBlock } from '../engine/export/markdown-lite';

/** A conversation turn with its texts' Markdown read in the worker (the conversation view). */
export type DrawnTurn = Omit<ConversationTurn, 'texts'> & {
  texts: (ConversationTurn['texts'][number] & { blocks: MdBlock[] })[];
};
import type { RangeTotals } from '../engine/cost/range-totals';
import type { CompactionRequest } from '../engine/compact/types';
import type { LearnWalk } from '../engine/learn/types';
import type {
  ReplayCostFigures,
  ReplayResult,
  EventRequestSpec,
  SubagentReplay,
} from '../engine/replay/types';
import type { SummaryModelId } from '../engine/replay/summary-size';
import type { SweepProgress, SweepRange, SweepResult } from '../engine/replay/sweep';
import type {
  CompareEntry,
  CompareProgress,
  CompareSeries,
  StrategyFigures,
} from '../engine/replay/compare-strategies';
import type { KnobSpec, KnobValue, ManualCompactionRequest } from '../engine/strategies/types';
import type { ExportedSummary } from '../engine/export/summary-export';
import type { ErosionChain } from '../engine/erosion/erosion';
import type { ModelStepInfo } from '../engine/erosion/model-step';
import type { SummaryRequest } from '../engine/summarize/types';
import type { RedactionSettings } from '../engine/redact/mask';
import type { SessionSecrets } from '../engine/redact/session-secrets';
import type { PromptSettings } from '../engine/summarize/prepare';
import type { SummariesInfo, SummariesPrepared } from '../engine/summarize/session-ops';
import type { CompactionPoint } from '../engine/summarize/span';
import type { LibraryRow } from '../engine/library/library-row';
import type { SettingRow } from '../engine/stats/records';
import type { SettingsSpec } from '../engine/stats/setting-rows';
import type { ParseIssue, TokenCount } from '../engine/types';

export type { RowSummary, SessionOverview, TimelineSeries, TokenTable };

/** Identifies one loaded session; queries for an older one fail with `StaleSessionError`. */
export type SessionId = number;

export interface LoadFile {
  /** The file's name as the parser should see it (dialect / subagent detection). */
  name: string;
  blob: Blob;
}

/**
 * Each request's fields beyond `kind`, by kind. A request is `{ kind, ...fields }` (`EngineRequest`);
 * `EngineResults` gives its result and `EngineProgress` its progress messages.
 */
interface EngineRequestFields {
  /**
   * `live`: the session can be followed (live mode): the parse keeps what a `session-append` needs
   * to read only the bytes appended after this load (engine/parse/live-parse.ts `parseForLive`).
   */
  load: { sessionId: SessionId; files: LoadFile[]; live?: boolean };
  /**
   * Live mode (engine/parse/live-parse.ts): the loaded session's files as they are now, the main
   * file first (JSON-lines files cut at their last newline); only the bytes past the last read are
   * read and JSON-parsed, a new file whole. The session becomes `newSessionId`: every query of the
   * old one (rows, timeline, replays) is stale.
   */
  'session-append': {
    /** The session shown (absent: none yet, the file is parsed whole as by a load). */
    sessionId?: SessionId;
    newSessionId: SessionId;
    file: LoadFile;
    others: LoadFile[];
  };
  'row-index': { sessionId: SessionId; filter: RowFilter };
  'row-page': { sessionId: SessionId; filter: RowFilter; start: number; count: number };
  'entry-detail': { sessionId: SessionId; entryIndex: number };
  'raw-entry': { sessionId: SessionId; entryIndex: number };
  'compaction-detail': { sessionId: SessionId; compactionIndex: number };
  /** `branchId`: the uuid-tree branch to follow (engine/parse/branches.ts); 0 or absent = the main line. */
  timeline: { sessionId: SessionId; branchId?: number };
  'token-table': { sessionId: SessionId };
  /** The conversation view's turns `start..start+count` (previews). */
  'conversation-page': { sessionId: SessionId; start: number; count: number };
  /** Totals over calls a timeline range holds (indices into `session.apiCalls`). */
  'range-totals': { sessionId: SessionId; callIndices: number[]; subagentIndices: number[] };
  /** Shell results bash-output summarization would catch (engine/query/bash-summaries.ts). */
  'bash-summaries': { sessionId: SessionId };
  issues: { sessionId: SessionId };
  /** The Summaries view (worker/summaries-handlers.ts): identity and compaction points. */
  'summaries-info': { sessionId: SessionId };
  /** The exact summarizer request at a point. */
  'summaries-prepare': { sessionId: SessionId; point: CompactionPoint; settings: PromptSettings };
  /** The replay (worker/replay-handlers.ts): the strategy's knobs and the log's own. */
  'replay-setup': { sessionId: SessionId; strategyId: string };
  /** A run for a set of knobs. */
  'replay-run': ReplayRunFields;
  /** The summarizer request of a replay event. */
  'replay-request': { sessionId: SessionId; spec: EventRequestSpec; elideBase64?: boolean };
  /** A knob sweep (engine/replay/sweep.ts): progress as `SweepProgress`, cancellable. */
  'replay-sweep': ReplayRunFields & { range: SweepRange };
  /**
   * Several strategies over the same prepared session (engine/replay/compare-strategies.ts), each
   * under the log's knobs with its overrides: progress as `CompareProgress`, cancellable.
   */
  'replay-compare': {
    sessionId: SessionId;
    entries: CompareEntry[];
    summaryModel: SummaryModelId;
    branchId?: number;
  };
  /**
   * The library's what-if (worker/whatif-handlers.ts): every listed session replayed under one
   * strategy at each setting, as `compactlab stats --strategy` does (engine/stats/setting-rows.ts).
   * Holds no session: the files come with it. Progress per session, cancellable between sessions,
   * between settings and in a parse.
   */
  'library-whatif': {
    sessions: WhatIfSession[];
    spec: SettingsSpec;
    /** A sweep given as a range: the worker spreads its values over the knob's step and bounds (`spec.sweep`'s values then). */
    range?: SweepRange;
    /**
     * Retention on a language model's summaries: each compaction's request goes to the page as a
     * `call` progress and waits for its `library-whatif-answer` (the page holds the key and makes the call).
     */
    model?: { model: string; runId: string };
  };
  /**
   * The library's usage by day and by project (worker/usage-handlers.ts, engine/stats/usage.ts):
   * the listed sessions' buckets (their rows' `usage`) grouped, days in `timeZone`.
   */
  'library-usage': { usage: PackedUsage; timeZone: string };
  /**
   * The library's search across sessions (worker/search-handlers.ts, engine/query/text-search.ts):
   * each session's files streamed in turn, those that hold the query sent back as progress.
   * Holds no session; cancellable between sessions and between a file's chunks.
   */
  'library-search': { sessions: WhatIfSession[]; query: string };
  /** The page's answer to a what-if's summary call: the model's raw text, or why the call failed. */
  'library-whatif-answer': { runId: string; callId: number; text?: string; error?: string };
  /** Learn mode (worker/learn-handlers.ts): one compaction step by step, the teacher's knob changes over the log's own. */
  'learn-walk': {
    sessionId: SessionId;
    strategyId: string;
    knobOverrides: Record<string, unknown>;
    branchId?: number;
    /** The replay event of the compaction to walk (LearnWalk.compactions); absent: the default. */
    eventIndex?: number;
  };
  /**
   * Erosion across compactions (engine/erosion/): the log's chain, or with `replay` that replay's
   * (built-in summaries). Masked by `redaction`.
   */
  erosion: { sessionId: SessionId; replay?: ExportReplayFields; redaction?: RedactionSettings };
  /**
   * Each subagent file replayed alone under its own knobs with the user's edits over them
   * (`overrides`: the strategy's knob overrides; engine/replay/subagent-replays.ts keeps the ones a
   * sub-agent's loop has).
   */
  'replay-subagents': { sessionId: SessionId; strategyId: string; overrides?: Record<string, unknown> };
  /** Secrets in the transcript (worker/share-handlers.ts), with where they occur. */
  'secrets-find': { sessionId: SessionId };
  /**
   * Texts masked by `redaction` plus every value the session's scan found (what a summarizer sent
   * back: the summary, an error message), so that the page can show and store them.
   */
  'redact-texts': { sessionId: SessionId; texts: string[]; redaction: RedactionSettings };
  /**
   * One export of the Export menu, as a file; masked by `redaction` and the session's found values,
   * and refused (an error naming the rule and line) when a found value survived.
   */
  'export-file': {
    sessionId: SessionId;
    format: ExportFormat;
    redaction?: RedactionSettings;
    /** The replay the compacted transcript, the report and the SVG follow. */
    replay?: ExportReplayFields;
    /** Summary runs to include (summaries, report), or the two to compare. */
    runs?: ExportedSummary[];
    /**
     * Compacted transcript: a summarizer's raw answer by point key ("api-call:27", "compaction:2"),
     * written where the replay compacts at that point; elsewhere the built-in summary.
     */
    summariesByPoint?: Record<string, string>;
  };
}

/** One session of a what-if: its key in the list and its files (main first). */
export interface WhatIfSession {
  file: string;
  files: LoadFile[];
}

/** A what-if's progress after each session: its rows and the running totals per setting. */
export interface WhatIfProgress {
  done: number;
  total: number;
  file: string;
  /** One row per setting (none: the session has no API call). */
  rows: SettingRow[];
  /** Why the session could not be read. */
  error?: string;
  /** The totals so far, one row per setting (`row: 'total'`). */
  totals: SettingRow[];
}

/** A search's progress: after each session (its hit, when it has one) and during a big one. */
export interface LibrarySearchProgress {
  /** Sessions searched, of `total`. */
  done: number;
  total: number;
  bytesRead: number;
  totalBytes: number;
  /** The session just searched, when it holds the query or could not be read. */
  hit?: { file: string; matches: SessionTextMatches; error?: undefined } | { file: string; error: string };
}

interface LibrarySearchResult {
  searched: number;
  matched: number;
  computeMs: number;
}

/** A what-if asks the page for one compaction's summary (the model's), and waits for the answer. */
export interface WhatIfCall {
  call: {
    runId: string;
    callId: number;
    request: SummaryRequest;
    info: ModelStepInfo & { file: string; setting: string; estimatedInputUsd?: number };
  };
}

interface WhatIfResult {
  totals: SettingRow[];
  computeMs: number;
}

export type ExportFormat =
  | 'summaries-md'
  | 'summaries-json'
  | 'run-comparison-md'
  | 'compacted-jsonl'
  | 'report-html'
  | 'timeline-svg'
  | 'transcript-md'
  | 'transcript-html';

export type ExportReplayFields = Omit<ReplayRunFields, 'sessionId'>;

interface ReplayRunFields {
  sessionId: SessionId;
  strategyId: string;
  /**
   * The user's knob edits (`null` clears an optional knob). The worker resolves them over the
   * log's own knobs (replay-handlers.ts `resolveRunKnobs`): the page never sends knobs back.
   */
  overrides: Record<string, KnobValue | null>;
  summaryModel: SummaryModelId;
  manual?: ManualCompactionRequest[];
  /** Real summaries' sizes by API call index (`ReplayOptions.suppliedSummaryTokens`). */
  suppliedSummaryTokens?: Record<number, TokenCount>;
  /** The uuid-tree branch the replay follows; 0 or absent = the main line. */
  branchId?: number;
}

export type EngineRequestKind = keyof EngineRequestFields;

/** One request; `EngineRequest<'replay-run'>` is that kind's, `EngineRequest` any. */
export type EngineRequest<K extends EngineRequestKind = EngineRequestKind> = {
  [P in K]: { kind: P } & EngineRequestFields[P];
}[K];

interface ReplaySetup {
  strategies: { id: string; label: string; description: string }[];
  strategyId: string;
  knobSpecs: KnobSpec[];
  defaultKnobs: Record<string, KnobValue>;
  /** The knobs of the log's own agent version. */
  sessionKnobs: Record<string, KnobValue>;
  notes: string[];
  prepareMs: number;
}

/** The compare view's answer: one table row and one chart series per strategy (series transferred). */
export interface ReplayCompare {
  ownStrategyId: string;
  rows: StrategyFigures[];
  series: CompareSeries[];
  computeMs: number;
}

/** Series are transferred. `clearedEntries`: entry holding a cleared result → event index. */
interface ReplayRun {
  result: ReplayResult;
  clearedEntries: Record<number, number>;
  /** What the replay would have cost, beside the log's real cost (engine/cost/replay-cost.ts). */
  cost: ReplayCostFigures;
}

interface RowIndexResult {
  /** Entry indices in display order (transferred). */
  indices: Int32Array;
}

interface RawEntryResult {
  /** Pretty-printed JSON (or the raw line when it is not JSON). */
  text: string;
  isJson: boolean;
  lengthBytes: number;
}

interface IssuesResult {
  issues: ParseIssue[];
  unknownTypes: Record<string, number>;
  fileNames: string[];
}

/** A live-mode step: the grown session and what the step read. */
export interface SessionAppendResult {
  summary: SessionOverview;
  /** The session's library row (engine/library/library-row.ts), from the grown session: no scan. */
  row: LibraryRow;
  /**
   * Where the log's own agent compacts this session: the auto-compact line of its strategy under
   * the log's knobs, the bar the timeline draws (undefined: the strategy has none, or it is off).
   */
  autoCompactTokens?: number;
  /** Bytes read and parsed (the appended bytes and new files; a file read again whole when `reparsed`). */
  readBytes: number;
  newLines: number;
  /** Why a file was read again from its start (undefined: only appended bytes and new files were). */
  reparsed?: string;
  /** A file shrank or was replaced: the session's compactions were not seen landing (no score). */
  restarted?: boolean;
  /** Every entry kept its index (false: the main file grew under subagent entries, or a reparse). */
  indicesKept: boolean;
  /** Time the step took in the worker (ms). */
  ms: number;
}

export interface EngineResults {
  load: SessionOverview;
  'session-append': SessionAppendResult;
  'row-index': RowIndexResult;
  'row-page': RowSummary[];
  'entry-detail': EntryDetail;
  'raw-entry': RawEntryResult;
  'compaction-detail': CompactionDetail & { triggerCount?: RealTriggerCount };
  timeline: TimelineSeries;
  'token-table': TokenTable;
  'conversation-page': { total: number; turns: DrawnTurn[] };
  'range-totals': RangeTotals;
  'bash-summaries': BashSummaries;
  issues: IssuesResult;
  'summaries-info': SummariesInfo;
  'summaries-prepare': SummariesPrepared;
  'replay-setup': ReplaySetup;
  'replay-run': ReplayRun;
  'replay-request': CompactionRequest;
  'replay-sweep': SweepResult;
  'replay-compare': ReplayCompare;
  'library-whatif': WhatIfResult;
  'library-usage': { byDay: UsageGroup[]; byProject: UsageGroup[]; computeMs: number };
  'library-search': LibrarySearchResult;
  'library-whatif-answer': boolean;
  'learn-walk': LearnWalk;
  erosion: ErosionChain;
  'replay-subagents': SubagentReplay[];
  'secrets-find': SessionSecrets;
  /** The file (a Blob: an export can be longer than the longest string, share-handlers.ts). */
  'export-file': Blob;
  'redact-texts': string[];
}

export interface ParseProgressMessage {
  bytesRead: number;
  totalBytes: number;
  fileIndex: number;
  /** Main-thread API calls read so far, and their contexts from `from` on (engine ParseProgress). */
  calls?: number;
  contexts?: { from: number; tokens: number[] };
}

export type { FullTextProgress };

/** What a request's progress messages carry, by request kind (others send none). */
interface EngineProgress {
  load: ParseProgressMessage;
  /** Only a full-text search (`filter.fullText`) scans the files and reports progress. */
  'row-index': FullTextProgress;
  'replay-sweep': SweepProgress;
  'replay-compare': CompareProgress;
  'library-whatif': WhatIfProgress | WhatIfCall;
  'library-search': LibrarySearchProgress;
}

export type ProgressOf<K extends EngineRequestKind> = K extends keyof EngineProgress
  ? EngineProgress[K]
  : never;

/** Any progress message's content. */
export type AnyProgress = EngineProgress[keyof EngineProgress];

/** Any request's result. */
export type AnyResult = EngineResults[EngineRequestKind];

/** UI thread → worker. */
export type ToWorker =
  | { type: 'request'; id: number; request: EngineRequest }
  /** `keep`: stop and answer with what is done so far (a load keeps what was read), not an abort. */
  | { type: 'cancel'; id: number; keep?: boolean }
  /** Liveness (engine-client.ts): the host answers `pong` as soon as its thread is free. */
  | { type: 'ping' };

export interface WorkerError {
  /** `AbortError` when cancelled, `StaleSessionError` when the session was replaced. */
  name: string;
  message: string;
}

/**
 * A custom strategy's sandbox worker (sandbox-runtime.ts), first of all: the strategy it runs
 * (its id and label), or why it could not load it (the file's line where that is known).
 */
export type SandboxReady =
  | {
      type: 'sandbox-ready';
      id: string;
      label: string;
      /** Its knobs (the panel sets them for the next run). */
      knobSpecs: KnobSpec[];
      defaultKnobs: Record<string, KnobValue>;
      error?: undefined;
    }
  | { type: 'sandbox-ready'; error: string };

/** Worker → UI thread. */
export type FromWorker =
  | { type: 'progress'; id: number; progress: AnyProgress }
  | { type: 'result'; id: number; result: AnyResult }
  | { type: 'error'; id: number; error: WorkerError }
  | { type: 'pong' };

export const STALE_SESSION_ERROR = 'StaleSessionError';
/** The worker failed (a crash, or it could not start); pending requests get this name. */
export const WORKER_ERROR = 'WorkerError';
export const ABORT_ERROR = 'AbortError';
