import type { ThresholdLine } from '../../simulation/types';
import { createKnobNormalizer } from '../knobs';
import { borrowedSummarySize } from '../summary-size';
import type { StrategyDescriptor } from '../types';
import { type BoundaryScoringKnobs, DEFAULT_BOUNDARY_SCORING_KNOBS, SPECS } from './knobs';

// The strategy's descriptor: its knobs (knobs.ts), their defaults and the threshold lines they
// draw, what the page shows without replaying (index.ts holds the rules and their sources).

export const BOUNDARY_SCORING_DESCRIPTOR: StrategyDescriptor<BoundaryScoringKnobs> = {
  id: 'boundary-scoring',
  label: 'Boundary-scoring microcompaction',
  description:
    'At 150,000 tokens (by its own estimator) and 10+ messages, scores splits ±5 messages around half the messages and replaces the part before the best with a rule-based summary (statistics, tool usage, narrative, critical results).',
  knobSpecs: SPECS,
  defaultKnobs: DEFAULT_BOUNDARY_SCORING_KNOBS,
  normalizeKnobs: createKnobNormalizer(SPECS, DEFAULT_BOUNDARY_SCORING_KNOBS),
  thresholds: (knobs): ThresholdLine[] => [
    {
      id: 'compact',
      // The own estimate counts messages only: the line is where that count, not the chart's, fires.
      label: knobs.counter === 'own' ? 'Boundary scoring (its own estimate)' : 'Boundary scoring',
      tokens: knobs.thresholdTokens,
      kind: 'trigger',
    },
    { id: 'window', label: 'Context window', tokens: knobs.contextWindow, kind: 'limit' },
  ],
  summarySize: () => borrowedSummarySize('a design, not an agent: no logs of its own'),
  // The knobs the golden dump's first line lists.
  dumpKnobKeys: ['contextWindow'],
};
