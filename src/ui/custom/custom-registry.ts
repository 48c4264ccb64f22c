import { useMemo } from 'react';
import { create } from 'zustand';
import type { ThresholdLine } from '../../engine/simulation/types';
import { DEFAULT_STRATEGY_ID, getStrategyDescriptor } from '../../engine/strategies/descriptors';
import { createKnobNormalizer } from '../../engine/strategies/knobs';
import type { KnobSpec, KnobValue, StrategyDescriptor } from '../../engine/strategies/types';
import { type EngineClient, getEngineClient } from '../../worker/engine-client';
import type { SessionId } from '../../worker/protocol';
import { useReplayStore } from '../replay/replay-store';

// The custom strategies the user has Run, for the rest of the page (docs/custom-strategies.md,
// "Beside the built-ins"). Each is a plain-data descriptor the sandbox gave (id, label, knob specs,
// defaults; its threshold lines as its runs return them) and the client of its sandbox worker,
// which keeps the session loaded. The page looks strategies up here first (getPageStrategyDescriptor)
// and sends a request that names a custom strategy to its sandbox (getStrategyClient), never to the
// engine worker: the user's code runs in its sandbox only, and only after Run. This module is
// small and loads with the page; the sandbox and the editor load on demand.

interface CustomStrategyData {
  id: string;
  label: string;
  description: string;
  knobSpecs: KnobSpec[];
  defaultKnobs: Record<string, KnobValue>;
}

interface CustomEntry {
  sessionId: SessionId;
  descriptor: StrategyDescriptor<Record<string, KnobValue>>;
  client: EngineClient;
  /** Threshold lines by the run's knobs (JSON), as the sandbox returned them. */
  thresholds: Map<string, ThresholdLine[]>;
  lastThresholds: ThresholdLine[];
}

interface CustomStrategiesState {
  entries: Readonly<Record<string, CustomEntry>>;
  /** Bumped when a run brings threshold lines: what shows them re-reads them. */
  version: number;
}

export const useCustomStrategies = create<CustomStrategiesState>(() => ({ entries: {}, version: 0 }));

const knobsKey = (knobs: unknown) => JSON.stringify(knobs, Object.keys((knobs ?? {}) as object).sort());

/**
 * Registers a strategy the user ran (its sandbox keeps `sessionId` loaded); one of the same id
 * before it is replaced and its sandbox stopped.
 */
export function registerPageCustomStrategy(
  data: CustomStrategyData,
  client: EngineClient,
  sessionId: SessionId,
): void {
  const normalize = createKnobNormalizer<Record<string, KnobValue>>(data.knobSpecs, data.defaultKnobs);
  const entry: CustomEntry = {
    sessionId,
    client,
    thresholds: new Map(),
    lastThresholds: [],
    descriptor: {
      id: data.id,
      label: data.label,
      description: data.description,
      knobSpecs: data.knobSpecs,
      defaultKnobs: data.defaultKnobs,
      normalizeKnobs: normalize,
      // The strategy's own function runs in its sandbox: the lines of the run at these knobs, else
      // the last run's.
      thresholds: (knobs) => entry.thresholds.get(knobsKey(knobs)) ?? entry.lastThresholds,
    },
  };
  const previous = useCustomStrategies.getState().entries[data.id];
  useCustomStrategies.setState((s) => ({ entries: { ...s.entries, [data.id]: entry } }));
  previous?.client.terminate();
}

/** Forgets a custom strategy and stops its sandbox (a run past its time limit, a new session). */
export function unregisterPageCustomStrategy(id: string): void {
  const entry = useCustomStrategies.getState().entries[id];
  if (!entry) return;
  const { [id]: _, ...rest } = useCustomStrategies.getState().entries;
  useCustomStrategies.setState({ entries: rest });
  entry.client.terminate();
  // The strip showed it: it shows the default again, which a new session replaces by its own.
  if (useReplayStore.getState().strategyId === id)
    useReplayStore.setState({ strategyId: DEFAULT_STRATEGY_ID, strategyChosen: false, openEvent: undefined });
}

/** A new session replaced the one the custom strategies ran on: their sandboxes are stopped. */
export function forgetCustomStrategiesOtherThan(sessionId: SessionId): void {
  for (const entry of Object.values(useCustomStrategies.getState().entries))
    if (entry.sessionId !== sessionId) unregisterPageCustomStrategy(entry.descriptor.id);
}

/** The custom strategies run on this session, in the order they were run (re-renders on a change). */
export function usePageCustomStrategies(
  sessionId: SessionId,
): StrategyDescriptor<Record<string, KnobValue>>[] {
  const entries = useCustomStrategies((s) => s.entries);
  return useMemo(
    () =>
      Object.values(entries)
        .filter((e) => e.sessionId === sessionId)
        .map((e) => e.descriptor),
    [entries, sessionId],
  );
}

/**
 * Every custom strategy run in the page, in the order run (the library's What if… offers them: its
 * sessions are not the one loaded, and a request naming one goes to its sandbox all the same).
 */
export function useRunCustomStrategies(): StrategyDescriptor<Record<string, KnobValue>>[] {
  const entries = useCustomStrategies((s) => s.entries);
  return useMemo(() => Object.values(entries).map((e) => e.descriptor), [entries]);
}

interface StrategyChoice {
  id: string;
  label: string;
  description: string;
}

/**
 * The strategies to choose from on this session (the strip's select, Compare): the built-ins the
 * replay setup lists, then the custom strategies run on it (undefined before the setup is in).
 */
export function useStrategyChoices(
  sessionId: SessionId,
  builtIns: readonly StrategyChoice[] | undefined,
): StrategyChoice[] | undefined {
  const customs = usePageCustomStrategies(sessionId);
  return useMemo(() => {
    if (!builtIns) return undefined;
    const own = customs.map(({ id, label, description }) => ({ id, label, description }));
    // A custom strategy's sandbox lists it among the built-ins too: listed once, last.
    return [...builtIns.filter((x) => !own.some((c) => c.id === x.id)), ...own];
  }, [builtIns, customs]);
}

export function isCustomStrategyId(id: string): boolean {
  return useCustomStrategies.getState().entries[id] !== undefined;
}

/** A strategy's descriptor: a custom one's, else the built-in's (throws naming the known ids). */
export function getPageStrategyDescriptor(id: string): StrategyDescriptor<Record<string, KnobValue>> {
  return useCustomStrategies.getState().entries[id]?.descriptor ?? getStrategyDescriptor(id);
}

/**
 * Where a request that runs these strategies goes: the sandbox of the custom one among them (it
 * has the built-ins too), else the engine worker.
 */
export function getStrategyClient(...strategyIds: string[]): EngineClient {
  const { entries } = useCustomStrategies.getState();
  const custom = strategyIds.find((id) => entries[id] !== undefined);
  return custom === undefined ? getEngineClient() : entries[custom]!.client;
}

/** Keeps the threshold lines a custom strategy's run returned, for the chart's bars. */
export function noteCustomThresholds(strategyId: string, knobs: unknown, lines: ThresholdLine[]): void {
  const entry = useCustomStrategies.getState().entries[strategyId];
  if (!entry) return;
  entry.thresholds.set(knobsKey(knobs), lines);
  entry.lastThresholds = lines;
  useCustomStrategies.setState((s) => ({ version: s.version + 1 }));
}
