import type { Strategy } from 'compactlab/strategy';

// Clears tool results older than a few user turns once the context passes a threshold, oldest
// first, until it is back under it. No summary: the history keeps every message.
// Run it: compactlab replay <session> --strategy-file examples/strategies/clear-old-results.ts

type Knobs = { triggerTokens: number; keepTurns: number; contextWindow: number };

export default {
  id: 'clear-old-results',
  label: 'Clear old tool results',
  description: 'Over the trigger, tool results older than keepTurns prompts are cleared, oldest first.',
  knobs: [
    {
      key: 'triggerTokens',
      label: 'Trigger',
      kind: 'number',
      unit: 'tokens',
      default: 100_000,
      min: 1_000,
      step: 1_000,
    },
    {
      key: 'keepTurns',
      label: 'Turns kept whole',
      kind: 'number',
      unit: 'count',
      default: 3,
      min: 0,
      integer: true,
    },
  ],
  thresholds: (k) => [{ label: 'Clear trigger', tokens: k.triggerTokens }],
  step(view, k) {
    if (view.usageTokens < k.triggerTokens) return [];
    let over = view.usageTokens - k.triggerTokens;
    const ids: number[] = [];
    for (const r of view.results()) {
      if (over <= 0) break;
      if (r.cleared || view.turn - r.turn < k.keepTurns) continue;
      ids.push(r.id);
      over -= r.tokens;
    }
    return ids.length > 0 ? [{ kind: 'clear', results: ids, note: `cleared ${ids.length} old results` }] : [];
  },
} satisfies Strategy<Knobs>;
