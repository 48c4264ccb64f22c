import type { ThresholdLine } from '../../simulation/types';
import type { TokenCount } from '../../types';
import { createKnobNormalizer } from '../knobs';
import { borrowedSummarySize } from '../summary-size';
import type { StrategyDescriptor } from '../types';
import { DEFAULTS, type GeminiCliKnobs, SPECS } from './knobs';
import { GEMINI_CLI } from './prompt';

// The strategy's descriptor: its knobs (knobs.ts), their defaults and the threshold lines they
// draw, what the page shows without replaying (index.ts holds the rules and their sources).

/** The compression trigger in tokens: a whole count ≥ fraction × limit is ≥ its ceiling. */
export function getGeminiThreshold(knobs: GeminiCliKnobs): TokenCount {
  return Math.ceil(knobs.compressionThreshold * knobs.tokenLimit);
}

export const GEMINI_CLI_DESCRIPTOR: StrategyDescriptor<GeminiCliKnobs> = {
  id: 'gemini-cli',
  label: 'Gemini CLI',
  description:
    "Compresses when the last prompt reaches half the model's token limit: the newest 30% of the characters kept from a user message, their function responses held to a 50,000-token budget, the rest a <state_snapshot> checked by a second (probe) call. From 0.30 (opt-in in 0.29), function responses older than the newest 50,000 tokens of tool output are masked to previews once 30,000 tokens can go.",
  knobSpecs: SPECS,
  defaultKnobs: DEFAULTS,
  normalizeKnobs: createKnobNormalizer(SPECS, DEFAULTS),
  thresholds: (knobs): ThresholdLine[] => [
    { id: 'compress', label: 'Gemini CLI compression', tokens: getGeminiThreshold(knobs), kind: 'trigger' },
    { id: 'window', label: 'Token limit', tokens: knobs.tokenLimit, kind: 'limit' },
  ],
  // Its summarization prompt presets (the picker lists them; the first is what its compactions send).
  promptPresets: [GEMINI_CLI],
  // Its chat files record no summary (a compression leaves only a notice): nothing to fit on.
  summarySize: () =>
    borrowedSummarySize(
      "Gemini CLI's chat files record no summary (a compression leaves only a notice; the corpus' 4 real chats hold none) and its prompt states no cap",
    ),
};
