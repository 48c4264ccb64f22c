import type { TokenCount } from '../types';
import { scoreLanding } from './forecast-score';
import type { LiveFigures } from './live-figures';

// The updates every dialect's line reader makes to live figures (line-readers.ts): a call, a
// compaction; and the guards they read records with.

/** Calls the pace is averaged over: recent enough to follow a change of pace. */
const PACE_WINDOW_CALLS = 10;

export type Json = Record<string, unknown>;
export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
/**
 * A token count: a number from 0 to 1e10 (the parse's MAX_TOKEN_COUNT); anything else (a negative,
 * a string, Infinity) is left out, as the parse leaves it out (with an issue there).
 */
export const num = (v: unknown): number => (typeof v === 'number' && v >= 0 && v <= 1e10 ? v : 0);

/** Records a call's context; growth counts only when no compaction came in between. */
export function addCall(
  f: LiveFigures,
  contextTokens: TokenCount,
  outputTokens: TokenCount,
  afterReset: boolean,
) {
  if (f.apiCalls > 0 && !afterReset) {
    f.recentGrowthTokens.push(contextTokens - f.contextTokens);
    if (f.recentGrowthTokens.length > PACE_WINDOW_CALLS) f.recentGrowthTokens.shift();
  }
  f.apiCalls++;
  f.contextTokens = contextTokens;
  f.outputTokens = outputTokens;
  f.peakContextTokens = Math.max(f.peakContextTokens, contextTokens);
}

/** The latest call's model; each distinct one kept, as the window's evidence (`inferContextWindow`, parse/context-window). */
export function setModel(f: LiveFigures, model: string) {
  f.model = model;
  if (!f.models.includes(model)) f.models.push(model);
}

/** Records a compaction: the predictions since the last one are scored against it. */
export function markCompaction(f: LiveFigures, line: number, trigger: string, preTokens: number | undefined) {
  f.compactions++;
  // Auto ones only bound the window: a manual /compact may follow "prompt is too long" (`inferContextWindow`).
  if (trigger === 'auto' && preTokens !== undefined) f.autoCompactPreTokens.push(preTokens);
  const { first, last } = scoreLanding(f.forecasts ?? {}, f.apiCalls);
  f.lastCompaction = {
    line,
    trigger,
    preTokens,
    thresholdTokens: f.lastThresholdTokens,
    firedAfterCall: f.apiCalls,
    firstForecast: first,
    lastForecast: last,
    callsTaken: first ? f.apiCalls - first.atCall : undefined,
    callsPredicted: first ? first.predictedAtCall - first.atCall : undefined,
  };
  f.lastThresholdTokens = undefined;
  f.forecasts = undefined;
  f.recentGrowthTokens = [];
  f.afterCompaction = true;
}
