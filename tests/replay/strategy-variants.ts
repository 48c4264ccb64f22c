import { expect } from 'vitest';
import { computeReplay, type ReplayOptions } from '../../src/engine/replay/compute-replay';
import { checkReplayInvariants } from './invariants';
import type { PreparedReplay } from '../../src/engine/replay/prepare';
import type { ReplayResult } from '../../src/engine/replay/types';
import { getSessionSetup, STRATEGIES } from '../../src/engine/strategies/registry';
import { getSessionInfo, type KnobValue } from '../../src/engine/strategies/types';

// The knob variants every registered strategy is replayed with, beside its log knobs (golden
// dumps, invariants). A strategy without a row fails `variantsOf`, so a new one cannot go untested.

export interface Variant {
  label: string;
  knobs: Record<string, KnobValue>;
}

export const STRATEGY_VARIANTS: Record<string, readonly Variant[]> = {
  'claude-code': [
    { label: 'window 300,000', knobs: { contextWindow: 300_000 } },
    {
      label: 'microcompact on (v2.1.68)',
      knobs: { microcompactEnabled: true, microcompactVariant: 'v2.1.68' },
    },
    { label: 'override 60%', knobs: { autocompactPctOverride: 60 } },
  ],
  'api-clear-tool-uses': [
    { label: 'trigger 60,000, keep 1', knobs: { triggerTokens: 60_000, keepToolUses: 1 } },
    { label: 'clear at least 20,000', knobs: { triggerTokens: 60_000, clearAtLeastTokens: 20_000 } },
    { label: 'clear_thinking alone, keep 1', knobs: { clearThinking: true, clearToolUses: false } },
    {
      label: 'compaction alone at 60,000, paused',
      knobs: {
        clearToolUses: false,
        compaction: true,
        compactTriggerTokens: 60_000,
        pauseAfterCompaction: true,
      },
    },
    {
      label: 'all three: clear_thinking keep 2, clear_tool_uses at 50,000, compaction at 70,000',
      knobs: {
        clearThinking: true,
        keepThinkingTurns: 2,
        triggerTokens: 50_000,
        compaction: true,
        compactTriggerTokens: 70_000,
      },
    },
  ],
  'anthropic-sdk-compaction': [
    { label: 'threshold 60,000', knobs: { contextTokenThreshold: 60_000 } },
    {
      label: 'threshold 150,000, summary max 2,048',
      knobs: { contextTokenThreshold: 150_000, summaryMaxTokens: 2_048 },
    },
  ],
  codex: [
    { label: 'threshold 60%', knobs: { thresholdPercent: 60 } },
    {
      label: 'window 150,000, kept user messages 5,000',
      knobs: { contextWindow: 150_000, userMessageBudgetTokens: 5_000 },
    },
  ],
  cline: [
    { label: 'window 100,000', knobs: { contextWindow: 100_000 } },
    {
      label: 'window 60,000, no dedup, a quarter kept',
      knobs: { contextWindow: 60_000, dedupEnabled: false, truncateKeep: 'quarter' },
    },
    { label: 'auto-condense at 40%', knobs: { useAutoCondense: true, autoCondensePercent: 40 } },
  ],
  opencode: [
    { label: 'limit 120,000, max output 16,000', knobs: { contextLimit: 120_000, maxOutputTokens: 16_000 } },
    {
      label: 'input limit 150,000 (reserved min(20,000, max output)), protect 10,000, minimum 5,000',
      knobs: { inputLimit: 150_000, pruneProtectTokens: 10_000, pruneMinimumTokens: 5_000 },
    },
    { label: 'no prune, limit 100,000', knobs: { prune: false, contextLimit: 100_000 } },
  ],
  'gemini-cli': [
    { label: 'limit 200,000', knobs: { tokenLimit: 200_000 } },
    {
      label:
        'limit 150,000, threshold 0.7, kept 0.5, budget 10,000 (truncated to 2,000 characters), no probe',
      knobs: {
        tokenLimit: 150_000,
        compressionThreshold: 0.7,
        preserveFraction: 0.5,
        functionResponseBudgetTokens: 10_000,
        truncateOutputChars: 2_000,
        probe: false,
      },
    },
  ],
  'boundary-scoring': [
    { label: 'threshold 60,000', knobs: { thresholdTokens: 60_000 } },
    { label: 'max 120 messages, target 40%', knobs: { maxMessages: 120, targetRatioPercent: 40 } },
  ],
  roo: [
    { label: 'condense at 60%', knobs: { autoCondensePercent: 60 } },
    { label: "profile's threshold 40%", knobs: { profileThresholdPercent: 40 } },
    {
      label: 'condensing off, window 120,000: the sliding window',
      knobs: { autoCondenseContext: false, contextWindow: 120_000 },
    },
    { label: 'condensing fails, window 100,000', knobs: { condenseFails: true, contextWindow: 100_000 } },
  ],
  pi: [
    { label: 'window 120,000', knobs: { contextWindow: 120_000 } },
    { label: 'reserve 40,000, keep 8,000', knobs: { reserveTokens: 40_000, keepRecentTokens: 8_000 } },
    { label: 'auto-compaction off, window 150,000', knobs: { enabled: false, contextWindow: 150_000 } },
  ],
};

/** The variants of a registered strategy; throws when the table has no row for it. */
export function variantsOf(strategyId: string): readonly Variant[] {
  const variants = STRATEGY_VARIANTS[strategyId];
  if (!variants?.length) throw new Error(`STRATEGY_VARIANTS has no variants for strategy ${strategyId}`);
  return variants;
}

/** Every registered strategy, for `it.each`. */
export const strategyCases = () => STRATEGIES.map((s) => ({ id: s.id, strategy: s }));

/** The log's own knobs of `strategyId` for this session, with the notes that explain them. */
export function logKnobsOf(prepared: PreparedReplay, strategyId: string) {
  const strategy = STRATEGIES.find((s) => s.id === strategyId);
  if (!strategy) throw new RangeError(`unknown strategy ${strategyId}`);
  return getSessionSetup(strategy, getSessionInfo(prepared)) as {
    knobs: Record<string, KnobValue>;
    notes: string[];
  };
}

/** Runs one strategy and fails the test on any invariant violation. */
export function runStrategy(
  prepared: PreparedReplay,
  strategyId: string,
  knobs: Record<string, KnobValue>,
  options: ReplayOptions = {},
): ReplayResult {
  const result = computeReplay(prepared, strategyId, knobs, options);
  expect(checkReplayInvariants(prepared, result), `${strategyId} invariants`).toEqual([]);
  return result;
}
