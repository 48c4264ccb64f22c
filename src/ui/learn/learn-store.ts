import { create } from 'zustand';
import { parseLearnParams, replaceLearnUrl } from './learn-url';

// Learn mode's UI state: which strategy's walk is open, the step, large type, and the teacher's
// knob changes per strategy (kept apart from the replay's overrides: a lesson does not move the
// session view's knobs). Mirrored into the URL (learn-url.ts) so each step has an address.

interface LearnState {
  /** The strategy whose walk is open; undefined: learn mode is closed. */
  strategyId?: string;
  step: number;
  large: boolean;
  /** The replay event of the compaction walked (LearnWalk.compactions); undefined: the default. */
  event?: number;
  overrides: Record<string, Record<string, unknown>>;
  open(strategyId: string, step?: number): void;
  close(): void;
  setStep(step: number): void;
  /** Walks another of the replay's compactions, on the same step. */
  setEvent(event: number | undefined): void;
  setLarge(large: boolean): void;
  setKnob(strategyId: string, key: string, value: unknown): void;
  resetKnobs(strategyId: string): void;
}

const initial = typeof window === 'undefined' ? undefined : parseLearnParams(window.location.search);

export const useLearnStore = create<LearnState>()((set) => ({
  strategyId: initial?.strategyId,
  step: initial?.step ?? 0,
  large: initial?.large ?? false,
  event: initial?.event,
  overrides: {},
  open: (strategyId, step = 0) => set({ strategyId, step, event: undefined }),
  close: () => set({ strategyId: undefined, step: 0, event: undefined }),
  setStep: (step) => set({ step: Math.max(0, step) }),
  setEvent: (event) => set({ event }),
  setLarge: (large) => set({ large }),
  setKnob: (strategyId, key, value) =>
    set((s) => ({
      overrides: { ...s.overrides, [strategyId]: { ...s.overrides[strategyId], [key]: value } },
    })),
  resetKnobs: (strategyId) =>
    set((s) => {
      const { [strategyId]: _, ...rest } = s.overrides;
      return { overrides: rest };
    }),
}));

if (typeof window !== 'undefined') {
  useLearnStore.subscribe((s, prev) => {
    if (
      s.strategyId === prev.strategyId &&
      s.step === prev.step &&
      s.large === prev.large &&
      s.event === prev.event
    )
      return;
    replaceLearnUrl(
      s.strategyId === undefined
        ? undefined
        : { strategyId: s.strategyId, step: s.step, large: s.large, event: s.event },
    );
  });
}
