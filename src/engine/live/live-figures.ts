import type { DialectId, TokenCount } from '../types';
import { isObject } from './figure-updates';
import { LIVE_LINE_READERS } from './line-readers';

// Running figures of a session being written, built line by line from the appended records of a
// log whose dialect has a live line reader (line-readers.ts: one file per dialect). They are plain
// data so a cache can keep them between processes; they hold no message text, only counts, the
// agent version and the model id.

interface LivePrediction {
  /** API call (1-based count) the prediction was made at. */
  atCall: number;
  /** Auto-compact threshold predicted for this log's version, in tokens. */
  thresholdTokens: TokenCount;
  /** Calls predicted before it fires, at the pace of the time. */
  callsLeft?: number;
}

export interface LiveCompactionScore {
  line: number;
  trigger: string;
  /** Context the real compaction reports it fired at (`compactMetadata.preTokens`). */
  preTokens?: TokenCount;
  /** Threshold predicted just before it: `preTokens − thresholdTokens` is the miss. */
  thresholdTokens?: TokenCount;
  /** Calls it really took since the earliest prediction on record of this stretch. */
  callsTaken?: number;
  /** What that earliest prediction said. */
  callsPredicted?: number;
}

export interface LiveFigures {
  /** The dialect of the lines read (the first reader that took one). */
  format?: DialectId;
  version?: string;
  model?: string;
  /** The window the log states, where it states one. */
  contextWindow?: TokenCount;
  /** Main-thread API calls (one per distinct message id). */
  apiCalls: number;
  /** Context of the latest main-thread call: input + cache writes + cache reads. */
  contextTokens: TokenCount;
  /** Output tokens of the latest call. */
  outputTokens: TokenCount;
  lastMessageId?: string;
  /** Context growth of each recent call (compactions excluded), newest last. */
  recentGrowthTokens: TokenCount[];
  compactions: number;
  microcompactions: number;
  /** The latest record was a compaction: the next call's drop is not a pace. */
  afterCompaction?: boolean;
  lastCompaction?: LiveCompactionScore;
  /** First and latest predictions since the last compaction (set by the caller). */
  firstPrediction?: LivePrediction;
  lastPrediction?: LivePrediction;
}

export function createLiveFigures(): LiveFigures {
  return {
    apiCalls: 0,
    contextTokens: 0,
    outputTokens: 0,
    recentGrowthTokens: [],
    compactions: 0,
    microcompactions: 0,
  };
}

/** Folds one transcript line into the figures; lines that are not JSON records, or no reader's, are skipped. */
export function addLiveLine(f: LiveFigures, text: string, line: number): void {
  if (text.length === 0 || text.charCodeAt(0) !== 0x7b /* { */) return;
  let r: unknown;
  try {
    r = JSON.parse(text);
  } catch {
    return;
  }
  if (!isObject(r)) return;
  const reader = LIVE_LINE_READERS.find((x) => x.takes(r));
  if (!reader) return;
  f.format = reader.catchAll ? (f.format ?? reader.dialectId) : reader.dialectId;
  reader.add(f, r, line);
}

/** Mean context growth per call over the recent calls that grew it; undefined before two calls. */
export function getPaceTokensPerCall(f: LiveFigures): number | undefined {
  const growth = f.recentGrowthTokens.filter((g) => g > 0);
  if (growth.length === 0) return undefined;
  return growth.reduce((a, b) => a + b, 0) / growth.length;
}
