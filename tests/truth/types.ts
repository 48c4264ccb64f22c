// What a truth reader derives from a log's raw records, without the engine (issue 18 item 2).
// Each format's reader (next to this file) says in its comments how each figure comes from the
// records; the formats are described in ../../../shared/research/FORMAT.md (to move to
// docs/formats.md).

// biome-ignore lint/suspicious/noExplicitAny: raw JSON records are read loosely, on purpose.
export type Raw = Record<string, any>;

/** One request the agent sent to the model. */
export interface TruthCall {
  /** The record's own id for the call (message id, line number, …): for reading a disagreement. */
  id: string;
  /** The tokens the model read for this call; undefined where the log records no usage for it. */
  contextTokens: number | undefined;
}

/** One compaction the log shows happened. */
export interface TruthCompaction {
  /** 'compact': the history replaced by a summary; 'truncate': messages dropped; 'microcompact': results cleared. */
  kind: 'compact' | 'truncate' | 'microcompact';
  /** Index into `calls` of the last call before it (-1: before the first call). */
  afterCall: number;
  /** 'auto' | 'manual' where the log says; undefined where it does not. */
  trigger?: string;
  preTokens?: number;
}

/** A request that brought back no answer (failed or cancelled; the log records no usage): no call. */
export interface TruthFailed {
  id: string;
  /** Index into `calls` of the last call before it (-1: before the first call). */
  afterCall: number;
  /** The log's word for it (Cline's cancelReason, pi's stopReason). */
  reason: string;
}

export interface Truth {
  calls: TruthCall[];
  compactions: TruthCompaction[];
  /** Failed requests, apart from the calls; absent where the format records none. */
  failed?: TruthFailed[];
  /**
   * What the log states as its own totals, summed over its runs (the SDK stream's `result` lines);
   * absent where the format states none. Input counts cache reads and writes.
   */
  stated?: { runs: number; costUsd: number; inputTokens: number; outputTokens: number };
  /**
   * The cost the agent wrote on its records, summed as the agent sums it (Cline's request messages,
   * OpenCode's assistant messages); absent where no record states one.
   */
  statedCostUsd?: number;
}

/** The largest recorded context of any call (0 when none is recorded). */
export function getTruthPeak(truth: Truth): number {
  let peak = 0;
  for (const c of truth.calls)
    if (c.contextTokens !== undefined && c.contextTokens > peak) peak = c.contextTokens;
  return peak;
}

/** Non-empty lines parsed as JSON; a line that is not JSON is skipped (counted by the caller's format). */
export function parseJsonLines(text: string): Raw[] {
  const out: Raw[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const record = JSON.parse(line);
      if (record !== null && typeof record === 'object') out.push(record);
    } catch {
      // a cut line (two writers appending at once, FORMAT.md §8.1): not a call
    }
  }
  return out;
}

/** A number field, or 0 where it is absent or not a number. */
export const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
