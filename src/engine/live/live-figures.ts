import type { TokenCount } from '../types';

// Running figures of a session being written, built line by line from the appended records of a
// Claude Code transcript or a Codex rollout (FORMAT.md §4 usage, §6 compact boundaries; Codex
// `event_msg` `token_count`). They are plain data so a cache can keep them between processes;
// they hold no message text, only counts, the agent version and the model id.

/** Calls the pace is averaged over: recent enough to follow a change of pace. */
export const PACE_WINDOW_CALLS = 10;

export interface LivePrediction {
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
  format?: 'claude-code' | 'codex-cli';
  version?: string;
  model?: string;
  /** The window the log states (Codex `model_context_window`). */
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

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/** Records a call's context; growth counts only when no compaction came in between. */
function addCall(f: LiveFigures, contextTokens: TokenCount, outputTokens: TokenCount, afterReset: boolean) {
  if (f.apiCalls > 0 && !afterReset) {
    f.recentGrowthTokens.push(contextTokens - f.contextTokens);
    if (f.recentGrowthTokens.length > PACE_WINDOW_CALLS) f.recentGrowthTokens.shift();
  }
  f.apiCalls++;
  f.contextTokens = contextTokens;
  f.outputTokens = outputTokens;
}

function markCompaction(f: LiveFigures, line: number, trigger: string, preTokens: number | undefined) {
  f.compactions++;
  f.lastCompaction = {
    line,
    trigger,
    preTokens,
    thresholdTokens: f.lastPrediction?.thresholdTokens,
    callsTaken: f.firstPrediction ? f.apiCalls - f.firstPrediction.atCall : undefined,
    callsPredicted: f.firstPrediction?.callsLeft,
  };
  f.firstPrediction = undefined;
  f.lastPrediction = undefined;
  f.recentGrowthTokens = [];
  f.afterCompaction = true;
}

/** Folds one transcript line into the figures; lines that are not JSON records are skipped. */
export function addLiveLine(f: LiveFigures, text: string, line: number): void {
  if (text.length === 0 || text.charCodeAt(0) !== 0x7b /* { */) return;
  let r: unknown;
  try {
    r = JSON.parse(text);
  } catch {
    return;
  }
  if (!isObject(r)) return;
  if (
    r.type === 'session_meta' ||
    r.type === 'event_msg' ||
    r.type === 'turn_context' ||
    r.type === 'compacted'
  ) {
    addCodexRecord(f, r, line);
    return;
  }
  if (typeof r.version === 'string') f.version = r.version;
  f.format ??= 'claude-code';
  if (r.type === 'system' && r.subtype === 'compact_boundary') {
    const meta = isObject(r.compactMetadata) ? r.compactMetadata : {};
    markCompaction(
      f,
      line,
      typeof meta.trigger === 'string' ? meta.trigger : 'unknown',
      typeof meta.preTokens === 'number' ? meta.preTokens : undefined,
    );
    return;
  }
  if (r.type === 'system' && r.subtype === 'microcompact_boundary') {
    f.microcompactions++;
    f.afterCompaction = true;
    return;
  }
  if (r.type !== 'assistant' || r.isSidechain === true || !isObject(r.message)) return;
  const m = r.message;
  if (m.model === '<synthetic>' || !isObject(m.usage)) return;
  if (typeof m.model === 'string') f.model = m.model;
  const u = m.usage;
  const context = num(u.input_tokens) + num(u.cache_creation_input_tokens) + num(u.cache_read_input_tokens);
  const id = typeof m.id === 'string' ? m.id : undefined;
  // Streamed chunks of one response repeat its message id: one call, its latest usage wins.
  if (id !== undefined && id === f.lastMessageId) {
    f.contextTokens = context;
    f.outputTokens = num(u.output_tokens);
    return;
  }
  f.lastMessageId = id;
  addCall(f, context, num(u.output_tokens), f.afterCompaction === true);
  f.afterCompaction = false;
}

function addCodexRecord(f: LiveFigures, r: Json, line: number) {
  f.format = 'codex-cli';
  const p = isObject(r.payload) ? r.payload : {};
  if (r.type === 'session_meta' && typeof p.cli_version === 'string') f.version = p.cli_version;
  if (r.type === 'turn_context' && typeof p.model === 'string') f.model = p.model;
  if (r.type === 'compacted') {
    markCompaction(f, line, 'auto', f.contextTokens);
    return;
  }
  if (r.type !== 'event_msg') return;
  if (typeof p.model_context_window === 'number') f.contextWindow = p.model_context_window;
  if (p.type !== 'token_count' || !isObject(p.info)) return;
  const info = p.info;
  if (typeof info.model_context_window === 'number') f.contextWindow = info.model_context_window;
  const last = isObject(info.last_token_usage) ? info.last_token_usage : undefined;
  const total = isObject(info.total_token_usage) ? num(info.total_token_usage.total_tokens) : undefined;
  // An unchanged total repeats the previous call (codex-cli.ts, `token_count`).
  const key = total === undefined ? undefined : `total:${total}`;
  if (!last || (key !== undefined && key === f.lastMessageId)) return;
  f.lastMessageId = key;
  // Codex's input_tokens already include the cached ones (FORMAT.md, Codex usage).
  addCall(f, num(last.input_tokens), num(last.output_tokens), f.afterCompaction === true);
  f.afterCompaction = false;
}

/** Mean context growth per call over the recent calls that grew it; undefined before two calls. */
export function getPaceTokensPerCall(f: LiveFigures): number | undefined {
  const growth = f.recentGrowthTokens.filter((g) => g > 0);
  if (growth.length === 0) return undefined;
  return growth.reduce((a, b) => a + b, 0) / growth.length;
}
