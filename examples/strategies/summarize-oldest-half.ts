import type { Strategy } from 'compactlab/strategy';

// Summarizes only the oldest half of the history when the context passes a share of the window,
// keeping the newest half verbatim. Counts its compactions in its state.
// Run it: compactlab replay <session> --strategy-file examples/strategies/summarize-oldest-half.ts

type Knobs = { triggerPercent: number; keepPercent: number; contextWindow: number };

export default {
  id: 'summarize-oldest-half',
  label: 'Summarize the oldest half',
  description:
    'At triggerPercent of the window, what precedes the newest keepPercent of the history becomes a summary.',
  knobs: [
    {
      key: 'triggerPercent',
      label: 'Trigger (% of window)',
      kind: 'number',
      unit: 'percent',
      default: 80,
      min: 10,
      max: 100,
    },
    {
      key: 'keepPercent',
      label: 'Kept verbatim (% of history)',
      kind: 'number',
      unit: 'percent',
      default: 50,
      min: 0,
      max: 90,
    },
  ],
  thresholds: (k) => [{ label: 'Summary trigger', tokens: (k.contextWindow * k.triggerPercent) / 100 }],
  init: () => ({ compactions: 0 }),
  step(view, k, state) {
    const trigger = (k.contextWindow * k.triggerPercent) / 100;
    if (view.usageTokens < trigger && !view.manual) return [];
    const history = view.tokensBetween(view.liveFrom, view.boundary);
    const keepFrom = view.keepRecentFrom((history * k.keepPercent) / 100);
    state.compactions++;
    return [
      { kind: 'summarize', keepFrom, note: `compaction ${state.compactions}: the oldest part summarized` },
    ];
  },
} satisfies Strategy<Knobs, { compactions: number }>;
