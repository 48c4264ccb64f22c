import type { TokenCount } from '../types';
import type { LibraryRow } from './library-row';

// Where the next auto-compaction fires, for a session still being written: the threshold of the
// log's own agent under the log's knobs (the worker's answer to the live step: the bar the
// timeline draws, from the strategy that reproduces the real compactions), the context now, and
// the pace of the last calls.

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

/**
 * The forecast for a session's list row and its agent's auto-compact threshold (undefined before
 * its first call, and where the agent has no automatic compaction on).
 */
export function computeForecast(
  row: LibraryRow,
  thresholdTokens: TokenCount | undefined,
): CompactionForecast | undefined {
  const contexts = row.recentContexts;
  if (contexts.length === 0 || thresholdTokens === undefined) return undefined;
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
