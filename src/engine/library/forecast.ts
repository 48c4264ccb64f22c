import {
  computeThresholds,
  DEFAULT_THRESHOLD_KNOBS,
  EXTENDED_CONTEXT_WINDOW,
  getContextWindowForModel,
  getThresholdProfileForVersion,
} from '../thresholds';
import type { TokenCount } from '../types';
import type { LibraryRow } from './library-row';

// Where the next auto-compaction fires, for a session still being written: the threshold the
// replay model uses for this log's version and model (thresholds.ts, the rules that reproduce the
// real compactions), the context now, and the pace of the last calls.

export interface CompactionForecast {
  contextTokens: TokenCount;
  thresholdTokens: TokenCount;
  /** Tokens until the threshold (0 when at or past it). */
  leftTokens: TokenCount;
  /** Mean context growth per call over the recent calls since the last compaction; 0 when flat. */
  paceTokensPerCall: number;
  /** Calls until it fires at that pace (undefined when the context is not growing). */
  callsLeft?: number;
  /** The main-thread call (1-based count) it should fire after. */
  predictedAtCall?: number;
}

/** The forecast for a session's list row (undefined before its first call). */
export function computeForecast(row: LibraryRow): CompactionForecast | undefined {
  const contexts = row.recentContexts;
  if (contexts.length === 0) return undefined;
  let window = row.contextWindow ?? getContextWindowForModel(row.models[0]);
  // A log that went past the standard window ran with the extended one.
  if (row.peakContextTokens > window) window = Math.max(window, EXTENDED_CONTEXT_WINDOW);
  const thresholdTokens = computeThresholds({
    ...DEFAULT_THRESHOLD_KNOBS,
    profile: getThresholdProfileForVersion(row.versions.at(-1)),
    contextWindow: window,
  }).autoCompact;
  const contextTokens = contexts.at(-1)!;
  const leftTokens = Math.max(0, thresholdTokens - contextTokens);
  // Only calls after the latest compaction: its drop is not the pace.
  const sinceCompact = Math.max(0, row.callsBeforeLastCompact - (row.apiCalls - contexts.length));
  const recent = contexts.slice(sinceCompact);
  const paceTokensPerCall =
    recent.length >= 2 ? Math.max(0, (recent.at(-1)! - recent[0]!) / (recent.length - 1)) : 0;
  const callsLeft = paceTokensPerCall > 0 ? Math.ceil(leftTokens / paceTokensPerCall) : undefined;
  return {
    contextTokens,
    thresholdTokens,
    leftTokens,
    paceTokensPerCall,
    callsLeft,
    predictedAtCall: callsLeft === undefined ? undefined : row.apiCalls + callsLeft,
  };
}
