import { create } from 'zustand';
import type { SummaryModelId } from '../../engine/replay/summary-size';
import type { KnobValue, ManualCompactionRequest } from '../../engine/strategies/types';
import type { TokenCount } from '../../engine/types';
import type { SessionId } from '../../worker/protocol';

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

  initSession(sessionId: SessionId): void;
  setStrategy(strategyId: string): void;
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
}

export const useReplayStore = create<ReplayUiState>()((set) => ({
  strategyId: 'claude-code',
  enabled: true,
  knobsOpen: false,
  overrides: {},
  summaryModel: 'recorded',
  manual: [],

  initSession: (sessionId) =>
    set({
      sessionId,
      overrides: {},
      manual: [],
      openEvent: undefined,
      runParams: undefined,
      sessionMemoryText: undefined,
    }),
  setStrategy: (strategyId) => set({ strategyId, openEvent: undefined }),
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
}));
