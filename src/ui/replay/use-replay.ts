import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef } from 'react';
import { getDefaultStrategyId } from '../../engine/strategies/descriptors';
import { estimateTextTokens } from '../../engine/tokens/estimate';
import type { TokenCount } from '../../engine/types';
import type { SessionId } from '../../worker/protocol';
import { sessionOverviewQuery } from '../queries';
import { useSuppliedSummaryTokens } from '../summaries/summary-sizes';
import { useBranchPath } from '../timeline/branch-store';
import { replayRunQuery, replaySetupQuery } from './replay-queries';
import { type KnobOverrides, NO_RUN_PARAMS, useReplayStore } from './replay-store';
import { type Knobs, useEffectiveKnobs, useKnobOverrides } from './use-knobs';

/** Knob edits settle this long before the worker re-runs the replay. */
export const REPLAY_DEBOUNCE_MS = 120;

/** The strategy's setup for this session; starts the session's replay state with the session. */
export function useReplaySetup(sessionId: SessionId) {
  const strategyId = useReplayStore((s) => s.strategyId);
  const overview = useQuery(sessionOverviewQuery(sessionId)).data;
  const format = overview?.format;
  const wanted = getDefaultStrategyId(format, overview?.meta.agent);
  // A new session shows its own agent's strategy first (Codex rollouts: Codex), unless the user
  // picked one, and its replay state (overrides, manual compactions) starts at once: the knob bar
  // is there as soon as the session is, and an edit typed while the strategy's setup is prepared
  // in the worker (a few hundred ms on 34,000 calls) is the user's for this session, not reset
  // when the setup comes in.
  useEffect(() => {
    const state = useReplayStore.getState();
    if (format === undefined || state.sessionId === sessionId) return;
    state.setDefaultStrategy(wanted);
    useReplayStore.getState().initSession(sessionId);
  }, [sessionId, wanted, format]);
  const query = useQuery(replaySetupQuery(sessionId, strategyId));
  return query;
}

interface SessionMemoryInput {
  text: string;
  /** Claude Code's estimate of the text (chars / 4): the size the replay compacts with. */
  tokens: TokenCount;
  /** The file the text came from, until the user edits it. */
  fileName?: string;
}

/** The session memory text: the user's, else the one given with the transcript. */
export function useSessionMemory(sessionId: SessionId): SessionMemoryInput {
  const given = useQuery(sessionOverviewQuery(sessionId)).data?.sessionMemory;
  const typed = useReplayStore((s) => s.sessionMemoryText);
  const text = typed ?? given?.text ?? '';
  return useMemo(
    () => ({
      text,
      tokens: estimateTextTokens(text.length),
      fileName: typed === undefined ? given?.name : undefined,
    }),
    [text, typed, given],
  );
}

/** The knobs the replay runs with: the selected strategy's effective knobs and the session memory text's size. */
export function useReplayKnobs(sessionId: SessionId): Knobs | undefined {
  const strategyId = useReplayStore((s) => s.strategyId);
  const memoryTokens = useSessionMemory(sessionId).tokens;
  const extra = useMemo(
    () => (memoryTokens > 0 ? { sessionMemoryTokens: memoryTokens } : undefined),
    [memoryTokens],
  );
  return useEffectiveKnobs(sessionId, strategyId, extra);
}

/** The user's edits the replay runs with: the selected strategy's overrides and the session memory text's size. */
export function useReplayOverrides(sessionId: SessionId): KnobOverrides {
  const strategyId = useReplayStore((s) => s.strategyId);
  const memoryTokens = useSessionMemory(sessionId).tokens;
  const overrides = useKnobOverrides(sessionId, strategyId);
  return useMemo(
    () => (memoryTokens > 0 ? { ...overrides, sessionMemoryTokens: memoryTokens } : overrides),
    [memoryTokens, overrides],
  );
}

/**
 * Publishes the run parameters after the knobs have been still for REPLAY_DEBOUNCE_MS. Returns
 * whether the page's knobs are not yet published (the setup still loading, or an edit waiting out
 * the debounce): the replay is busy then, though no run is fetching yet.
 */
export function useDebouncedRunParams(sessionId: SessionId): boolean {
  // Runs wait for the strategy's setup (its knobs shown), as the bar's edits wait for the session.
  const knobs = useReplayKnobs(sessionId);
  const overrides = useReplayOverrides(sessionId);
  const strategyId = useReplayStore((s) => s.strategyId);
  const summaryModel = useReplayStore((s) => s.summaryModel);
  const manual = useReplayStore((s) => s.manual);
  const ready = useReplayStore((s) => s.sessionId === sessionId);
  const suppliedSummaryTokens = useSuppliedSummaryTokens(sessionId);
  const key = JSON.stringify([
    overrides,
    knobs === undefined,
    strategyId,
    summaryModel,
    manual,
    suppliedSummaryTokens,
  ]);
  const published = useRef<string | undefined>(undefined);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for the values it serializes.
  useEffect(() => {
    if (!knobs || !ready) return;
    const publish = () => {
      published.current = `${sessionId}:${key}`;
      useReplayStore.getState().setRunParams({
        sessionId,
        strategyId,
        overrides,
        summaryModel,
        manual,
        suppliedSummaryTokens: { ...suppliedSummaryTokens },
      });
    };
    if (!useReplayStore.getState().runParams) {
      publish();
      return;
    }
    const timer = setTimeout(publish, REPLAY_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [key, sessionId, ready]);
  return published.current !== `${sessionId}:${key}`;
}

/** The current replay run (the previous one stays while a new one computes). */
export function useReplayRun() {
  const params = useReplayStore((s) => s.runParams);
  const branchId = useBranchPath(params?.sessionId ?? -1);
  const enabled = useReplayStore((s) => s.enabled);
  return useQuery({
    ...replayRunQuery(params ?? NO_RUN_PARAMS, branchId),
    enabled: enabled && params !== undefined,
    placeholderData: keepPreviousData,
  });
}
