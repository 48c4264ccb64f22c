import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { SessionOverview } from '../../engine/query/session-overview';
import { getPageStrategyDescriptor } from '../custom/custom-registry';
import type { KnobValue } from '../../engine/strategies/types';
import {
  DEFAULT_CONTEXT_WINDOW,
  EXTENDED_CONTEXT_WINDOW,
  getContextWindowForModel,
} from '../../engine/thresholds';
import type { SessionId } from '../../worker/protocol';
import { sessionOverviewQuery } from '../queries';
import { replaySetupQuery } from './replay-queries';
import { type KnobOverrides, NO_OVERRIDES, useReplayStore } from './replay-store';

// The knobs everything shows and runs with, derived, never stored: a strategy's
// `normalizeKnobs(the user's overrides, the log's own knobs)` (the log's from the setup query).

export type Knobs = Record<string, KnobValue>;

/** The key of the window knob strategies share (strategies/knobs.ts `contextWindowSpec`). */
export const CONTEXT_WINDOW_KEY = 'contextWindow';

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
      getPageStrategyDescriptor(strategyId).normalizeKnobs(
        extra ? { ...overrides, ...extra } : overrides,
        sessionKnobs,
      ),
    [strategyId, sessionKnobs, overrides, extra],
  );
}

/**
 * The window before the log's knobs are in: the largest its models have, unless the context went
 * past it; then 1M when it went past 200k (only extended-window models can do that).
 */
function getLoadedContextWindow(overview: SessionOverview): number {
  const window = Math.max(...overview.meta.models.map(getContextWindowForModel), 0);
  if (window > 0 && overview.peakContextTokens <= window) return window;
  return overview.peakContextTokens > DEFAULT_CONTEXT_WINDOW
    ? EXTENDED_CONTEXT_WINDOW
    : DEFAULT_CONTEXT_WINDOW;
}

/**
 * The knobs the knobs bar and the notes show: the effective ones, or, until the strategy's setup is
 * in, the user's overrides over its defaults with the window the loaded models imply (a strategy
 * that has a window knob). Display only: the worker resolves the knobs a run uses.
 */
export function useShownKnobs(sessionId: SessionId, strategyId: string): Knobs {
  const effective = useEffectiveKnobs(sessionId, strategyId);
  const overrides = useKnobOverrides(sessionId, strategyId);
  const overview = useQuery(sessionOverviewQuery(sessionId)).data;
  return useMemo(() => {
    if (effective) return effective;
    const strategy = getPageStrategyDescriptor(strategyId);
    const base: Knobs = { ...strategy.defaultKnobs };
    if (overview && CONTEXT_WINDOW_KEY in base) base[CONTEXT_WINDOW_KEY] = getLoadedContextWindow(overview);
    return strategy.normalizeKnobs(overrides, base);
  }, [effective, overrides, overview, strategyId]);
}
