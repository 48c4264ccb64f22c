import { create } from 'zustand';
import { DEFAULT_STRATEGY_ID } from '../../engine/strategies/descriptors';
import type { SummaryModelId } from '../../engine/replay/summary-size';
import type { SweepRange } from '../../engine/replay/sweep';
import type { KnobValue, ManualCompactionRequest } from '../../engine/strategies/types';
import type { TokenCount } from '../../engine/types';
import type { SessionId } from '../../worker/protocol';

// The replay's UI state: the user's knob overrides (the one place for them: the timeline's knobs
// bar, the knobs panel and a picked sweep value all write here), the summary size model, which
// event card is open, and the debounced parameters of the run to show. The knobs a run uses are
// derived (use-knobs.ts): the strategy's `normalizeKnobs(overrides, the log's knobs)`. Results
// stay in TanStack Query.

/** What the user set, by knob key; `null` clears an optional knob (strategies' `normalizeKnobs`). */
export type KnobOverrides = Readonly<Record<string, KnobValue | null>>;

/** No overrides (one object, so selectors return the same reference). */
export const NO_OVERRIDES: KnobOverrides = Object.freeze({});

export interface ReplayRunParams {
  sessionId: SessionId;
  strategyId: string;
  /** The user's edits as they are: the worker resolves them over the log's knobs. */
  overrides: KnobOverrides;
  summaryModel: SummaryModelId;
  manual: ManualCompactionRequest[];
  /** Summary sizes of the Summaries view's runs, by API call index. */
  suppliedSummaryTokens: Record<number, TokenCount>;
}

/** A knob sweep as Run froze it: later knob edits (a click on a result) do not re-run it. */
export interface ReplaySweepParams extends ReplayRunParams {
  range: SweepRange;
  /** The uuid-tree branch the sweep follows, as the run does (timeline/branch-store.ts); 0 = the main line. */
  branchId?: number;
}

/** Stands in for the run parameters before the first run (a disabled query's key). */
export const NO_RUN_PARAMS: ReplayRunParams = {
  sessionId: -1,
  strategyId: '',
  overrides: NO_OVERRIDES,
  summaryModel: 'recorded',
  manual: [],
  suppliedSummaryTokens: {},
};

interface ReplayUiState {
  /** The session the overrides and the run belong to; a new session resets them. */
  sessionId?: SessionId;
  strategyId: string;
  /** The user picked the strategy: a new session no longer picks it by its format. */
  strategyChosen: boolean;
  enabled: boolean;
  knobsOpen: boolean;
  /** The Custom strategy editor is open (a notice may open it: custom/unloaded-notice.tsx). */
  customOpen: boolean;
  /**
   * The user's knob values, by strategy id, for `sessionId`: only what the user set. `null` clears
   * an optional knob; a key absent takes the log's value.
   */
  overrides: Readonly<Record<string, KnobOverrides>>;
  /**
   * Counts "Back to the log's knobs": the knob boxes are keyed by it, so a value typed out of range
   * (never applied: the knob's value did not change) goes with the reset instead of staying red.
   */
  knobsResets: number;
  summaryModel: SummaryModelId;
  manual: ManualCompactionRequest[];
  openEvent?: number;
  /** The session memory text typed or pasted; undefined: the one given with the transcript. */
  sessionMemoryText?: string;
  /** What the overlay, the cards and the transcript marks show (debounced knob changes). */
  runParams?: ReplayRunParams;
  sweepOpen: boolean;
  /** The compare view is open (in the replay drawer, beside the transcript). */
  compareOpen: boolean;
  /** The sweep to show (its result is in TanStack Query); undefined: none, or cancelled. */
  sweep?: ReplaySweepParams;

  initSession(sessionId: SessionId): void;
  setStrategy(strategyId: string): void;
  /** The session's own agent's strategy, unless the user picked one. */
  setDefaultStrategy(strategyId: string): void;
  setEnabled(enabled: boolean): void;
  setKnobsOpen(open: boolean): void;
  setCustomOpen(open: boolean): void;
  /** Sets one knob of the selected strategy (`null` clears an optional one). */
  setKnob(key: string, value: KnobValue | null): void;
  /** The selected strategy back to the log's knobs. */
  resetKnobs(): void;
  setSummaryModel(model: SummaryModelId): void;
  addManual(request: ManualCompactionRequest): void;
  clearManual(): void;
  openEventCard(index: number | undefined): void;
  setSessionMemoryText(text: string | undefined): void;
  setRunParams(params: ReplayRunParams | undefined): void;
  setSweepOpen(open: boolean): void;
  setCompareOpen(open: boolean): void;
  setSweep(sweep: ReplaySweepParams | undefined): void;
}

export const useReplayStore = create<ReplayUiState>()((set) => ({
  strategyId: DEFAULT_STRATEGY_ID,
  strategyChosen: false,
  enabled: true,
  knobsOpen: false,
  customOpen: false,
  overrides: {},
  knobsResets: 0,
  summaryModel: 'recorded',
  manual: [],
  sweepOpen: false,
  compareOpen: false,

  // Another session (a live append keeps its id's state: load-session.ts): its panels start closed.
  initSession: (sessionId) =>
    set({
      sessionId,
      knobsOpen: false,
      sweepOpen: false,
      compareOpen: false,
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
  setCustomOpen: (customOpen) => set({ customOpen }),
  setKnob: (key, value) =>
    set((s) => ({
      overrides: {
        ...s.overrides,
        [s.strategyId]: { ...(s.overrides[s.strategyId] ?? NO_OVERRIDES), [key]: value },
      },
    })),
  resetKnobs: () =>
    set((s) => {
      const { [s.strategyId]: _dropped, ...others } = s.overrides;
      return { overrides: others, knobsResets: s.knobsResets + 1 };
    }),
  setSummaryModel: (summaryModel) => set({ summaryModel }),
  addManual: (request) =>
    set((s) => ({ manual: [...s.manual.filter((m) => m.afterApiCall !== request.afterApiCall), request] })),
  clearManual: () => set({ manual: [] }),
  openEventCard: (openEvent) => set({ openEvent }),
  setSessionMemoryText: (sessionMemoryText) => set({ sessionMemoryText }),
  setRunParams: (runParams) => set({ runParams }),
  setSweepOpen: (sweepOpen) => set({ sweepOpen }),
  setCompareOpen: (compareOpen) => set({ compareOpen }),
  setSweep: (sweep) => set({ sweep }),
}));
