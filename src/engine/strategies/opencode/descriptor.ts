import type { ThresholdLine } from '../../simulation/types';
import type { TokenCount } from '../../types';
import { createKnobNormalizer } from '../knobs';
import {
  OPENCODE_COMPACTION_BUFFER,
  OPENCODE_DEFAULT_KNOBS,
  OPENCODE_KNOB_SPECS,
  type OpenCodeKnobs,
} from './knobs';
import { OPENCODE } from './prompt';
import type { StrategyDescriptor } from '../types';
import { borrowedSummarySize } from '../summary-size';

// The strategy's descriptor: its knobs, their defaults and the threshold lines they draw, what
// the page shows without replaying (index.ts holds the rules and their sources).

/** `usable()` of overflow.ts: where the overflow check fires. */
export function getOpenCodeUsable(knobs: OpenCodeKnobs): TokenCount {
  if (knobs.inputLimit > 0) {
    const reserved = knobs.reservedTokens ?? Math.min(OPENCODE_COMPACTION_BUFFER, knobs.maxOutputTokens);
    return Math.max(0, knobs.inputLimit - reserved);
  }
  return Math.max(0, knobs.contextLimit - knobs.maxOutputTokens);
}

export const OPENCODE_DESCRIPTOR: StrategyDescriptor<OpenCodeKnobs> = {
  id: 'opencode',
  label: 'OpenCode',
  description:
    'Prunes tool output older than the newest 40,000 tokens and the last 2 user turns when a turn ends (if more than 20,000 tokens go); compacts at the model’s limit − max output (input limit − min(20,000, max output)); stops auto-compacting when one does not help.',
  knobSpecs: OPENCODE_KNOB_SPECS,
  defaultKnobs: OPENCODE_DEFAULT_KNOBS,
  normalizeKnobs: createKnobNormalizer(OPENCODE_KNOB_SPECS, OPENCODE_DEFAULT_KNOBS),
  thresholds: (knobs): ThresholdLine[] => {
    const lines: ThresholdLine[] = [];
    if (knobs.autoCompact)
      lines.push({
        id: 'compact',
        label: 'OpenCode compaction',
        tokens: getOpenCodeUsable(knobs),
        kind: 'trigger',
      });
    lines.push({
      id: 'window',
      label: 'Context limit',
      tokens: knobs.inputLimit > 0 ? knobs.inputLimit : knobs.contextLimit,
      kind: 'limit',
    });
    return lines;
  },
  // Its summarization prompt presets (the picker lists them; the first is what its compactions send).
  promptPresets: [OPENCODE],
  // The real OpenCode database holds no summary message: no size to fit on.
  summarySize: () =>
    borrowedSummarySize(
      'the real OpenCode database (3 sessions) holds no summary message and its prompt states no cap',
    ),
  // The knobs the golden dump's first line lists.
  dumpKnobKeys: ['maxOutputTokens'],
};
