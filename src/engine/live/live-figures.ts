import { baseName, detectDialectFromName, detectDialectFromRecord } from '../parse/detect';
import { DIALECT_INFOS } from '../parse/dialects/descriptors';
import type { DialectId, TokenCount } from '../types';
import { isObject } from './figure-updates';
import type { CallForecast, ForecastTrack } from './forecast-score';
import { LIVE_LINE_READERS } from './line-readers';

// Running figures of a session being written, built line by line from the appended records of a
// log whose dialect has a live line reader (line-readers.ts: one file per dialect). They are plain
// data so a cache can keep them between processes; they hold no message text, only counts, the
// agent version and the model id.

export interface LiveCompactionScore {
  line: number;
  trigger: string;
  /** Context the real compaction reports it fired at (`compactMetadata.preTokens`). */
  preTokens?: TokenCount;
  /** Threshold predicted just before it: `preTokens − thresholdTokens` is the miss. */
  thresholdTokens?: TokenCount;
  /** Main-thread calls before it (forecast-score.ts: the page's "fired after call"). */
  firedAfterCall: number;
  /** The first forecast of its stretch that named a call (forecast-score.ts). */
  firstForecast?: CallForecast;
  /** The last one before it. */
  lastForecast?: CallForecast;
  /** Calls it really took since the first forecast (`firedAfterCall − firstForecast.atCall`). */
  callsTaken?: number;
  /** What that first forecast said (`firstForecast.predictedAtCall − firstForecast.atCall`). */
  callsPredicted?: number;
}

export interface LiveFigures {
  /** The dialect of the lines read (the first reader that took one). */
  format?: DialectId;
  /**
   * The log's agent when it is one no live reader follows (pi, Gemini CLI, Cline, OpenCode, a
   * claude-trace log): its lines are not read, and the status says so instead of Claude Code's
   * thresholds over nothing.
   */
  unsupportedAgent?: string;
  /** Lines read that are not a JSON object each (a pretty-printed document's lines). */
  notRecordLines?: number;
  version?: string;
  model?: string;
  /**
   * What the window is inferred from, as a parsed session's is (`inferContextWindow`, parse/context-window): the
   * main-thread calls' model ids, their largest context, the auto-compactions' `preTokens`.
   */
  models: string[];
  peakContextTokens: TokenCount;
  autoCompactPreTokens: TokenCount[];
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
  /** Threshold of the latest prediction since the last compaction (set by the caller). */
  lastThresholdTokens?: TokenCount;
  /** The forecasts since the last compaction that named a call (set by the caller). */
  forecasts?: ForecastTrack;
}

/** The agents whose logs live figures follow. */
const LIVE_AGENTS: string[] = LIVE_LINE_READERS.map(
  (x) => DIALECT_INFOS.find((d) => d.id === x.dialectId)?.agent ?? x.dialectId,
);
/** The formats they follow, by name (`Claude Code session (JSONL)`). */
const LIVE_FORMATS = LIVE_LINE_READERS.map(
  (x) => DIALECT_INFOS.find((d) => d.id === x.dialectId)?.label ?? x.dialectId,
);

export function createLiveFigures(): LiveFigures {
  return {
    models: [],
    peakContextTokens: 0,
    autoCompactPreTokens: [],
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
  if (text.length === 0) return;
  const notRecord = () => {
    f.notRecordLines = (f.notRecordLines ?? 0) + 1;
  };
  if (text.charCodeAt(0) !== 0x7b /* { */) {
    notRecord();
    return;
  }
  let r: unknown;
  try {
    r = JSON.parse(text);
  } catch {
    notRecord();
    return;
  }
  if (f.unsupportedAgent !== undefined) return;
  if (!isObject(r)) {
    notRecord();
    return;
  }
  if (f.format === undefined) {
    // The first record that names its dialect: one without a live reader is said, not misread
    // (Claude Code's reader takes any record).
    const dialect = detectDialectFromRecord(r);
    if (dialect && !LIVE_LINE_READERS.some((x) => x.dialectId === dialect.id)) {
      // A followed agent's other format (Claude Code's stream-json) by its format: "a log of
      // Claude Code" beside "follows only … Claude Code logs" said nothing.
      f.unsupportedAgent =
        dialect.agent !== undefined && !LIVE_AGENTS.includes(dialect.agent) ? dialect.agent : dialect.label;
      return;
    }
  }
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

/**
 * Why a log cannot be followed live, from its file name (a Cline task's `ui_messages.json`, an
 * OpenCode record) or from the records read (`figures`); undefined when it can.
 */
export function whyNotFollowed(path: string, figures: LiveFigures): string | undefined {
  const byName = detectDialectFromName(baseName(path));
  // The records, once a live reader took them, win over the name (a Claude Code log saved as
  // `session-….jsonl` is not a Gemini CLI chat for being named like one).
  const agent =
    figures.unsupportedAgent ??
    (figures.format === undefined && byName && !LIVE_LINE_READERS.some((x) => x.dialectId === byName.id)
      ? (byName.agent ?? byName.label)
      : undefined);
  if (agent === undefined && figures.format === undefined && (figures.notRecordLines ?? 0) > 0)
    return `${baseName(path)}: not JSON lines (one record per line); the live status follows only ${LIVE_AGENTS.join(' and ')} logs`;
  return agent === undefined
    ? undefined
    : `${baseName(path)}: a log of ${agent}; the live status follows only ${LIVE_FORMATS.join(' and ')} logs, whose thresholds it knows (compactlab inspect and replay read this one under its own strategy)`;
}
