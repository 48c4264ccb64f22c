import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { SessionSummary } from '../../engine/query/session-summary';
import { DEFAULT_STRATEGY_ID, getStrategy } from '../../engine/strategies/registry';
import type { KnobValue } from '../../engine/strategies/types';
import {
  DEFAULT_CONTEXT_WINDOW,
  DEFAULT_THRESHOLD_KNOBS,
  EXTENDED_CONTEXT_WINDOW,
  getContextWindowForModel,
  THRESHOLD_PROFILES,
  type ThresholdKnobs,
  type ThresholdProfileId,
} from '../../engine/thresholds';
import type { SessionId } from '../../worker/protocol';
import { sessionSummaryQuery } from '../queries';
import { replaySetupQuery } from './replay-queries';
import { type KnobOverrides, NO_OVERRIDES, useReplayStore } from './replay-store';

// The knobs everything shows and runs with, derived, never stored: a strategy's
// `normalizeKnobs(the user's overrides, the log's own knobs)` (the log's from the setup query).

export type Knobs = Record<string, KnobValue>;

/** The user's overrides of one strategy in one session (the same object while they do not change). */
export function useKnobOverrides(sessionId: SessionId, strategyId: string): KnobOverrides {
  return useReplayStore((s) =>
    s.sessionId === sessionId ? (s.overrides[strategyId] ?? NO_OVERRIDES) : NO_OVERRIDES,
  );
}

/** The knobs a strategy runs with in this session; undefined until its setup is in. */
export function useEffectiveKnobs(
  sessionId: SessionId,
  strategyId: string,
  extra?: Knobs,
): Knobs | undefined {
  const sessionKnobs = useQuery(replaySetupQuery(sessionId, strategyId)).data?.sessionKnobs;
  const overrides = useKnobOverrides(sessionId, strategyId);
  return useMemo(
    () =>
      sessionKnobs &&
      getStrategy(strategyId).normalizeKnobs(extra ? { ...overrides, ...extra } : overrides, sessionKnobs),
    [strategyId, sessionKnobs, overrides, extra],
  );
}

/**
 * The window before the log's knobs are in: the largest its models have, unless the context went
 * past it; then 1M when it went past 200k (only extended-window models can do that).
 */
export function getLoadedContextWindow(summary: SessionSummary): number {
  const window = Math.max(...summary.meta.models.map(getContextWindowForModel), 0);
  if (window > 0 && summary.peakContextTokens <= window) return window;
  return summary.peakContextTokens > DEFAULT_CONTEXT_WINDOW
    ? EXTENDED_CONTEXT_WINDOW
    : DEFAULT_CONTEXT_WINDOW;
}

const isProfile = (v: KnobValue): v is ThresholdProfileId => THRESHOLD_PROFILES.some((p) => p.id === v);

/** `base` with the threshold knobs that `knobs` has (an optional one may be cleared). */
export function overlayThresholdKnobs(base: ThresholdKnobs, knobs: Knobs | undefined): ThresholdKnobs {
  if (!knobs) return base;
  const number = (key: string, fallback: number) => {
    const v = knobs[key];
    return typeof v === 'number' ? v : fallback;
  };
  const optional = (key: string, fallback: number | undefined) => {
    if (!(key in knobs)) return fallback;
    const v = knobs[key];
    return typeof v === 'number' ? v : undefined;
  };
  return {
    profile: isProfile(knobs.profile) ? knobs.profile : base.profile,
    contextWindow: number('contextWindow', base.contextWindow),
    maxOutputTokens: number('maxOutputTokens', base.maxOutputTokens),
    autocompactPctOverride: optional('autocompactPctOverride', base.autocompactPctOverride),
    autoCompactEnabled:
      typeof knobs.autoCompactEnabled === 'boolean' ? knobs.autoCompactEnabled : base.autoCompactEnabled,
    blockingLimitOverride: optional('blockingLimitOverride', base.blockingLimitOverride),
  };
}

/**
 * The threshold knobs of the chart's lines (engine/thresholds.ts, the default strategy's formula):
 * the selected strategy's values where it has the knob, else the default strategy's, else the
 * defaults with the window the loaded models imply.
 */
export function useThresholdKnobs(sessionId: SessionId): ThresholdKnobs {
  const strategyId = useReplayStore((s) => s.strategyId);
  const selected = useEffectiveKnobs(sessionId, strategyId);
  const fallback = useEffectiveKnobs(sessionId, DEFAULT_STRATEGY_ID);
  const summary = useQuery(sessionSummaryQuery(sessionId)).data;
  return useMemo(() => {
    const base: ThresholdKnobs = {
      ...DEFAULT_THRESHOLD_KNOBS,
      contextWindow: summary ? getLoadedContextWindow(summary) : DEFAULT_THRESHOLD_KNOBS.contextWindow,
    };
    return overlayThresholdKnobs(overlayThresholdKnobs(base, fallback), selected);
  }, [summary, fallback, selected]);
}
