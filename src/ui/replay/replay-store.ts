import { create } from 'zustand';
import type { SummaryModelId } from '../../engine/replay/summary-size';
import type { SweepRange } from '../../engine/replay/sweep';
import type { KnobValue, ManualCompactionRequest } from '../../engine/strategies/types';
import type { TokenCount } from '../../engine/types';
import type { SessionId } from '../../worker/protocol';
import { useUiStore } from '../store';

// The replay's UI state: knob overrides beyond the threshold knobs (those live in the main
// store, shared with the timeline's knobs bar), the summary size model, which event card is open,
// and the debounced parameters of the run to show. Results stay in TanStack Query.

/** Knobs the timeline's knobs bar owns (store.ts `knobs`). */
export const THRESHOLD_KNOB_KEYS = [
  'profile',
  'contextWindow',
  'maxOutputTokens',
  'autocompactPctOverride',
  'autoCompactEnabled',
  'blockingLimitOverride',
] as const;

export interface ReplayRunParams {
  sessionId: SessionId;
  strategyId: string;
  knobs: Record<string, KnobValue>;
  summaryModel: SummaryModelId;
  manual: ManualCompactionRequest[];
  /** Summary sizes of the Summaries view's runs, by API call index. */
  suppliedSummaryTokens: Record<number, TokenCount>;
}

/** A knob sweep as Run froze it: later knob edits (a click on a result) do not re-run it. */
export interface ReplaySweepParams extends Omit<ReplayRunParams, 'knobs'> {
  baseKnobs: Record<string, KnobValue>;
  range: SweepRange;
}

/** Stands in for the run parameters before the first run (a disabled query's key). */
export const NO_RUN_PARAMS: ReplayRunParams = {
  sessionId: -1,
  strategyId: '',
  knobs: {},
  summaryModel: 'recorded',
  manual: [],
  suppliedSummaryTokens: {},
};

export interface ReplayUiState {
  /** The session the overrides belong to; a new session resets them. */
  sessionId?: SessionId;
  strategyId: string;
  /** The user picked the strategy: a new session no longer picks it by its format. */
  strategyChosen: boolean;
  enabled: boolean;
  knobsOpen: boolean;
  overrides: Record<string, KnobValue>;
  summaryModel: SummaryModelId;
  manual: ManualCompactionRequest[];
  openEvent?: number;
  /** The session memory text typed or pasted; undefined: the one given with the transcript. */
  sessionMemoryText?: string;
  /** What the overlay, the cards and the transcript marks show (debounced knob changes). */
  runParams?: ReplayRunParams;
  sweepOpen: boolean;
  /** The sweep to show (its result is in TanStack Query); undefined: none, or cancelled. */
  sweep?: ReplaySweepParams;

  initSession(sessionId: SessionId): void;
  setStrategy(strategyId: string): void;
  /** The session's own agent's strategy, unless the user picked one. */
  setDefaultStrategy(strategyId: string): void;
  setEnabled(enabled: boolean): void;
  setKnobsOpen(open: boolean): void;
  setOverride(key: string, value: KnobValue): void;
  resetOverrides(): void;
  setSummaryModel(model: SummaryModelId): void;
  addManual(request: ManualCompactionRequest): void;
  clearManual(): void;
  openEventCard(index: number | undefined): void;
  setSessionMemoryText(text: string | undefined): void;
  setRunParams(params: ReplayRunParams | undefined): void;
  setSweepOpen(open: boolean): void;
  setSweep(sweep: ReplaySweepParams | undefined): void;
  /** Sets one knob where the replay reads it: the knobs bar's store for thresholds, else an override. */
  setKnob(key: string, value: KnobValue): void;
}

export const useReplayStore = create<ReplayUiState>()((set) => ({
  strategyId: 'claude-code',
  strategyChosen: false,
  enabled: true,
  knobsOpen: false,
  overrides: {},
  summaryModel: 'recorded',
  manual: [],
  sweepOpen: false,

  initSession: (sessionId) =>
    set({
      sessionId,
      overrides: {},
      manual: [],
      openEvent: undefined,
      runParams: undefined,
      sessionMemoryText: undefined,
      sweep: undefined,
    }),
  setStrategy: (strategyId) => set({ strategyId, strategyChosen: true, openEvent: undefined }),
  setDefaultStrategy: (strategyId) =>
    set((s) => (s.strategyChosen || s.strategyId === strategyId ? {} : { strategyId, openEvent: undefined })),
  setEnabled: (enabled) => set({ enabled, openEvent: undefined }),
  setKnobsOpen: (knobsOpen) => set({ knobsOpen }),
  setOverride: (key, value) => set((s) => ({ overrides: { ...s.overrides, [key]: value } })),
  resetOverrides: () => set({ overrides: {} }),
  setSummaryModel: (summaryModel) => set({ summaryModel }),
  addManual: (request) =>
    set((s) => ({ manual: [...s.manual.filter((m) => m.afterApiCall !== request.afterApiCall), request] })),
  clearManual: () => set({ manual: [] }),
  openEventCard: (openEvent) => set({ openEvent }),
  setSessionMemoryText: (sessionMemoryText) => set({ sessionMemoryText }),
  setRunParams: (runParams) => set({ runParams }),
  setSweepOpen: (sweepOpen) => set({ sweepOpen }),
  setSweep: (sweep) => set({ sweep }),
  setKnob: (key, value) => {
    // Overrides win over the knobs bar (use-replay.ts `useReplayKnobs`): set both when both hold it.
    if ((THRESHOLD_KNOB_KEYS as readonly string[]).includes(key)) {
      useUiStore.getState().setKnobs({ [key]: value } as never);
      set((s) => (key in s.overrides ? { overrides: { ...s.overrides, [key]: value } } : {}));
    } else set((s) => ({ overrides: { ...s.overrides, [key]: value } }));
  },
}));
