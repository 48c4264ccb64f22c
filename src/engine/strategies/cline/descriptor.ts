import type { ThresholdLine } from '../../simulation/types';
import { createKnobNormalizer } from '../knobs';
import { borrowedSummarySize, limitedSummarySize } from '../summary-size';
import type { StrategyDescriptor } from '../types';
import { getProfile } from '../version-profile';
import { CLINE_CONDENSE } from './condense-prompt';
import {
  CLINE_DEFAULT_KNOBS,
  CLINE_KNOB_SPECS,
  type ClineKnobs,
  getClineCondenseThreshold,
  getClineMaxAllowed,
  getClineSdkTrigger,
} from './knobs';
import { CLINE_PROFILES, CLINE_V4_1_8 } from './profiles';
import {
  CLINE_SDK_SUMMARY,
  CLINE_SUMMARIZE_TASK,
  CLINE_SUMMARIZE_TASK_V3_25,
  CLINE_SUMMARIZE_TASK_V3_28,
} from './summarize-task-prompt';

// The strategy's descriptor: its knobs (knobs.ts, profiles.ts), their defaults and the threshold
// lines they draw, what the page shows without replaying (index.ts holds the runs' choice and the
// log's knobs; classic-run.ts and sdk-run.ts the rules).

export const CLINE_DESCRIPTOR: StrategyDescriptor<ClineKnobs> = {
  id: 'cline',
  label: 'Cline',
  description:
    "Classic Cline (to 3.x): before each request, the previous one's total (in + out + cache) against maxAllowedSize (window − 40k on 200k): earlier reads of a file replaced by a notice, then half of the history after the first pair dropped; or summarize_task with auto-condense. Cline 4 (its SDK): from 4.1, at 90% of the usable input, everything but the newest ~20k tokens summarized in a short note.",
  knobSpecs: CLINE_KNOB_SPECS,
  defaultKnobs: CLINE_DEFAULT_KNOBS,
  normalizeKnobs: createKnobNormalizer(CLINE_KNOB_SPECS, CLINE_DEFAULT_KNOBS),
  thresholds: (knobs): ThresholdLine[] => {
    const profile = getProfile(CLINE_PROFILES, knobs.profile);
    const lines: ThresholdLine[] = [];
    if (profile.engine === 'sdk') {
      if (knobs.useAutoCondense)
        lines.push({
          id: 'sdk-compact',
          label: 'SDK compaction',
          tokens: getClineSdkTrigger(knobs, profile.sdk!.trigger),
          kind: 'trigger',
        });
    } else if (knobs.useAutoCondense && profile.condense)
      lines.push({
        id: 'auto-condense',
        label: 'Auto-condense',
        tokens: getClineCondenseThreshold(knobs),
        kind: 'trigger',
      });
    else
      lines.push({
        id: 'max-allowed',
        label: 'maxAllowedSize',
        tokens: getClineMaxAllowed(knobs),
        kind: 'trigger',
      });
    lines.push({ id: 'window', label: 'Context window', tokens: knobs.contextWindow, kind: 'limit' });
    return lines;
  },
  // Its summarization prompt presets (the picker lists them; each compaction names its release's).
  promptPresets: [
    CLINE_SUMMARIZE_TASK,
    CLINE_SUMMARIZE_TASK_V3_28,
    CLINE_SUMMARIZE_TASK_V3_25,
    CLINE_SDK_SUMMARY,
    CLINE_CONDENSE,
  ],
  // The SDK caps its summary; classic Cline's summarize_task states no cap, and no real Cline task
  // condensed (the corpus' 4 tasks hold no summarize_task): Claude Code's fit, whose sections it has.
  summarySize: (knobs) =>
    getProfile(CLINE_PROFILES, knobs.profile).engine === 'sdk'
      ? limitedSummarySize(
          knobs.summaryMaxTokens,
          `DEFAULT_SUMMARY_MAX_OUTPUT_TOKENS, ${CLINE_V4_1_8}:sdk/packages/core/src/extensions/context/compaction-shared.ts:20 (4,096; 1,024 before 4.1.8)`,
        )
      : borrowedSummarySize(
          "the corpus' 4 real Cline tasks hold no summarize_task or condense, and summarize_task states no cap (its sections are Claude Code's)",
        ),
  // The knobs the golden dump's first line lists.
  dumpKnobKeys: ['contextWindow', 'maxAllowedTokens', 'useAutoCondense'],
};
