import { getStrategy } from '../strategies/registry';
import { getDefaultStrategyId } from '../strategies/descriptors';
import { type CountPart, getSessionInfo } from '../strategies/types';
import type { TokenCount } from '../types';
import { computeReplay } from './compute-replay';
import type { PreparedReplay } from './prepare';

// What the log's own agent counted when one of its real compactions fired, where it counts more
// than the chart draws: Codex adds its estimate of the encrypted reasoning it sent back, so a real
// rollout compacted at 194,859 tokens of context under a bar at 244,800 (194,859 + 50,142 of
// reasoning). The log does not state the count; the agent's own strategy at the log's own knobs
// replays the session, and the event that stood for this compaction gives its parts.

export interface RealTriggerCount {
  /** The strategy that counted (the log's own agent's). */
  strategyLabel: string;
  /** The count compared with the threshold, and the threshold. */
  countTokens: TokenCount;
  thresholdTokens: TokenCount;
  /** Its parts, summing to `countTokens`, each with where the rule comes from. */
  parts: readonly CountPart[];
}

/**
 * The count behind real compaction `compactionIndex` (an index into `session.compactions`), when
 * the log's own strategy counts beyond the last call's usage and fires at that same point;
 * undefined otherwise (the chart's point is the count, or the replay does not fire there).
 */
export function computeRealTriggerCount(
  prepared: PreparedReplay,
  compactionIndex: number,
): RealTriggerCount | undefined {
  const { session } = prepared;
  if (session.apiCalls.length === 0) return undefined;
  const strategyId = getDefaultStrategyId(session.format, session.meta.agent);
  const strategy = getStrategy(strategyId);
  // Only a strategy that counts beyond the usage is worth a replay (a large session's takes seconds).
  if (!strategy.countsBeyondUsage) return undefined;
  const { knobs } = strategy.getSessionKnobs(getSessionInfo(prepared));
  const result = computeReplay(prepared, strategyId, knobs);
  const event = result.events.find(
    (e) => e.kind === 'compact' && e.realCompactionIndex === compactionIndex && e.countParts !== undefined,
  );
  if (event?.kind !== 'compact' || !event.countParts) return undefined;
  return {
    strategyLabel: strategy.label,
    countTokens: event.checkTokens,
    thresholdTokens: event.thresholdTokens,
    parts: event.countParts,
  };
}
