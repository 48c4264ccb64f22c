// The whole contract between the UI thread and the engine worker. Only plain data crosses
// (structured clone); big numeric series travel as transferable typed arrays. Files cross as
// Blob/File objects, which the worker reads lazily by slices.

import type { CompactionDetail } from '../engine/query/compaction-detail';
import type { EntryDetail } from '../engine/query/entry-detail';
import type { FullTextProgress } from '../engine/query/full-text-search';
import type { RowFilter } from '../engine/query/row-filter';
import type { RowSummary } from '../engine/query/row-page';
import type { SessionSummary } from '../engine/query/session-summary';
import type { TimelineSeries } from '../engine/query/timeline-series';
import type { TokenTable } from '../engine/query/token-table';
import type { CompactionRequest } from '../engine/compact/types';
import type { ReplayResult, EventRequestSpec } from '../engine/replay/types';
import type { SummaryModelId } from '../engine/replay/summary-size';
import type { SweepProgress, SweepRange, SweepResult } from '../engine/replay/sweep';
import type { KnobSpec, KnobValue, ManualCompactionRequest } from '../engine/strategies/types';
import type { SummariesOp, SummariesResult } from '../engine/summarize/session-ops';
import type { ParseIssue, TokenCount } from '../engine/types';

export type {
  CompactionDetail,
  EntryDetail,
  RowFilter,
  RowSummary,
  SessionSummary,
  TimelineSeries,
  TokenTable,
};

/** Identifies one loaded session; queries for an older one fail with `StaleSessionError`. */
export type SessionId = number;

export interface LoadFile {
  /** The file's name as the parser should see it (dialect / subagent detection). */
  name: string;
  blob: Blob;
}

/** One request body per engine operation; `kind` selects the result type in `EngineResults`. */
export type EngineRequest =
  | { kind: 'load'; sessionId: SessionId; files: LoadFile[] }
  | { kind: 'row-index'; sessionId: SessionId; filter: RowFilter }
  | { kind: 'row-page'; sessionId: SessionId; filter: RowFilter; start: number; count: number }
  | { kind: 'entry-detail'; sessionId: SessionId; entryIndex: number }
  | { kind: 'raw-entry'; sessionId: SessionId; entryIndex: number }
  | { kind: 'compaction-detail'; sessionId: SessionId; compactionIndex: number }
  /** `branchId`: the uuid-tree branch to follow (engine/parse/branches.ts); 0 or absent = the main line. */
  | { kind: 'timeline'; sessionId: SessionId; branchId?: number }
  | { kind: 'token-table'; sessionId: SessionId }
  | { kind: 'issues'; sessionId: SessionId }
  /** The Summaries view's operations (engine/summarize/session-ops.ts). */
  | { kind: 'summaries'; sessionId: SessionId; request: SummariesOp }
  /** The replay's operations (worker/replay-handlers.ts). */
  | { kind: 'replay'; sessionId: SessionId; request: ReplayOp };

/** Replay: the strategy's knobs and the log's own; a run for a set of knobs; an event's request. */
export type ReplayOp =
  | { op: 'setup'; strategyId: string }
  | {
      op: 'run';
      strategyId: string;
      knobs: Record<string, KnobValue>;
      summaryModel: SummaryModelId;
      manual?: ManualCompactionRequest[];
      /** Real summaries' sizes by API call index (`ReplayOptions.suppliedSummaryTokens`). */
      suppliedSummaryTokens?: Record<number, TokenCount>;
      /** The uuid-tree branch the replay follows; 0 or absent = the main line. */
      branchId?: number;
    }
  | { op: 'request'; spec: EventRequestSpec; elideBase64?: boolean }
  /** A knob sweep (engine/replay/sweep.ts): progress as `SweepProgress`, cancellable. */
  | {
      op: 'sweep';
      strategyId: string;
      knobs: Record<string, KnobValue>;
      range: SweepRange;
      summaryModel: SummaryModelId;
      manual?: ManualCompactionRequest[];
      suppliedSummaryTokens?: Record<number, TokenCount>;
    };

export type ReplayReply =
  | {
      op: 'setup';
      strategies: { id: string; label: string; description: string }[];
      strategyId: string;
      knobSpecs: KnobSpec[];
      defaultKnobs: Record<string, KnobValue>;
      /** The knobs of the log's own agent version. */
      sessionKnobs: Record<string, KnobValue>;
      notes: string[];
      prepareMs: number;
    }
  /** Series are transferred. `clearedEntries`: entry holding a cleared result → event index. */
  | { op: 'run'; result: ReplayResult; clearedEntries: Record<number, number> }
  | { op: 'request'; request: CompactionRequest }
  | { op: 'sweep'; result: SweepResult };

export type EngineRequestKind = EngineRequest['kind'];

export interface RowIndexResult {
  /** Entry indices in display order (transferred). */
  indices: Int32Array;
}

export interface RawEntryResult {
  /** Pretty-printed JSON (or the raw line when it is not JSON). */
  text: string;
  isJson: boolean;
  lengthBytes: number;
}

export interface IssuesResult {
  issues: ParseIssue[];
  unknownTypes: Record<string, number>;
  fileNames: string[];
}

export interface EngineResults {
  load: SessionSummary;
  'row-index': RowIndexResult;
  'row-page': RowSummary[];
  'entry-detail': EntryDetail;
  'raw-entry': RawEntryResult;
  'compaction-detail': CompactionDetail;
  timeline: TimelineSeries;
  'token-table': TokenTable;
  issues: IssuesResult;
  summaries: SummariesResult;
  replay: ReplayReply;
}

export interface ParseProgressMessage {
  bytesRead: number;
  totalBytes: number;
  fileIndex: number;
}

export type { FullTextProgress, SweepProgress };

/** What a request's progress messages carry, by request kind (others send none). */
export interface EngineProgress {
  load: ParseProgressMessage;
  /** Only a full-text search (`filter.fullText`) scans the files and reports progress. */
  'row-index': FullTextProgress;
  /** Only the `sweep` operation reports progress. */
  replay: SweepProgress;
}

export type ProgressOf<K extends EngineRequestKind> = K extends keyof EngineProgress
  ? EngineProgress[K]
  : never;

/** UI thread → worker. */
export type ToWorker =
  | { type: 'request'; id: number; request: EngineRequest }
  | { type: 'cancel'; id: number };

export interface WorkerError {
  /** `AbortError` when cancelled, `StaleSessionError` when the session was replaced. */
  name: string;
  message: string;
}

/** Worker → UI thread. */
export type FromWorker =
  | { type: 'progress'; id: number; progress: EngineProgress[keyof EngineProgress] }
  | { type: 'result'; id: number; result: EngineResults[EngineRequestKind] }
  | { type: 'error'; id: number; error: WorkerError };

export const STALE_SESSION_ERROR = 'StaleSessionError';
export const ABORT_ERROR = 'AbortError';
