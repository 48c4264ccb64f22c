import type { ContinuationOptions } from '../compact/format-summary';
import type { ClaudeCodeKnobs } from '../strategies/claude-code/knobs';
import type { KnobValue } from '../strategies/types';
import {
  AUTOCOMPACT_BUFFER,
  BLOCKING_BUFFER,
  computeThresholds,
  getOutputReservation,
  OUTPUT_RESERVATION_CAP,
  OUTPUT_RESERVATION_CAP_V2_0,
  WARNING_BUFFER,
} from '../thresholds';
import { CHARS_PER_TOKEN, TOKENS_PER_IMAGE } from '../tokens/estimate';
import type { LearnConstant, LearnFigure, LearnStepKind } from './types';

// What a strategy can add to its generic walk: how its threshold derives from its knobs, the
// constants fixed in its code (no knob moves them), its continuation message. Optional: a
// strategy without an entry gets the walk its events and knob specs give (walk.ts). Claude Code's
// is the richest, as its references are.

export interface LearnExplainer {
  /** Figures that derive the trigger threshold from the knobs, in order, the threshold last. */
  thresholdFigures(knobs: Record<string, KnobValue>): LearnFigure[];
  /** Constants fixed in the agent's code, by the step they act at. */
  fixedConstants(knobs: Record<string, KnobValue>): Partial<Record<LearnStepKind, LearnConstant[]>>;
  /** The name of its clearing step. */
  clearTitle?: string;
  /** The continuation message's options for a summary the walk shows. */
  continuation?(knobs: Record<string, KnobValue>, auto: boolean, partial: boolean): ContinuationOptions;
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

const CLAUDE_CODE_EXPLAINER: LearnExplainer = {
  clearTitle: 'The clearing attempt (microcompact)',
  thresholdFigures(input) {
    const knobs = input as unknown as ClaudeCodeKnobs;
    const t = computeThresholds(knobs);
    const reserved = getOutputReservation(knobs.profile, knobs.maxOutputTokens);
    const figures: LearnFigure[] = [
      { label: 'Context window', value: t.contextWindow, unit: 'tokens', how: 'the model’s window (knob)' },
      {
        label: 'Reserved for output',
        value: reserved,
        unit: 'tokens',
        how: `min(max output ${fmt(knobs.maxOutputTokens)}, cap ${fmt(knobs.profile === 'v2.1.68' ? OUTPUT_RESERVATION_CAP : OUTPUT_RESERVATION_CAP_V2_0)})`,
      },
      knobs.profile === 'legacy'
        ? {
            label: 'Free-space buffer',
            value: 0,
            unit: 'tokens',
            how: 'none: 1.0.x before 1.0.71 takes 92% instead',
          }
        : { label: 'Free-space buffer', value: AUTOCOMPACT_BUFFER, unit: 'tokens', how: 'fixed (wk8)' },
    ];
    const pct = knobs.autocompactPctOverride;
    figures.push({
      label: 'Auto-compact threshold',
      value: t.autoCompact,
      unit: 'tokens',
      how:
        pct !== undefined
          ? `min(${pct}% of ${fmt(t.effectiveWindow)}, ${fmt(t.effectiveWindow - AUTOCOMPACT_BUFFER)})`
          : knobs.profile === 'legacy'
            ? `92% of (${fmt(t.contextWindow)} − ${fmt(reserved)})`
            : `${fmt(t.contextWindow)} − ${fmt(reserved)} − ${fmt(AUTOCOMPACT_BUFFER)}`,
      strong: true,
    });
    return figures;
  },
  fixedConstants(input) {
    const knobs = input as unknown as ClaudeCodeKnobs;
    return {
      check: [
        {
          key: 'AUTOCOMPACT_BUFFER',
          label: 'Free-space buffer (wk8)',
          value: AUTOCOMPACT_BUFFER,
          source: `docs/sources.md#cc-npm-constants (wk8 = 13,000 from 1.0.71)`,
          note: 'fixed in Claude Code; Auto-compact at % of the window lowers the threshold instead',
        },
        {
          key: 'OUTPUT_RESERVATION_CAP',
          label: 'Output reservation cap (a5Y)',
          value: knobs.profile === 'v2.1.68' ? OUTPUT_RESERVATION_CAP : OUTPUT_RESERVATION_CAP_V2_0,
          source: `docs/sources.md#cc-npm-constants (20,000 from 2.1.21; before, the max output itself, 32,000 by default)`,
          note: 'the Threshold profile knob picks it',
        },
        {
          key: 'BLOCKING_BUFFER',
          label: 'Blocking limit below the window',
          value: BLOCKING_BUFFER,
          source: `docs/sources.md#cc-threshold`,
          note: 'Blocking limit overrides it',
        },
        {
          key: 'CHARS_PER_TOKEN',
          label: 'Pending estimate: characters per token',
          value: CHARS_PER_TOKEN,
          source: `docs/sources.md#cc-npm-constants (2.1.68 Xk8: Math.round(length / 4) per block, images and documents ${fmt(TOKENS_PER_IMAGE)}, attachments counted, no safety multiplier)`,
          note: 'fixed in Claude Code; Count messages after the last response turns the estimate off',
        },
      ],
      clear: [
        {
          key: 'WARNING_BUFFER',
          label: 'Warning threshold below auto-compact (rD5)',
          value: WARNING_BUFFER,
          source: `docs/sources.md#cc-npm-constants (s5Y = 20,000 from 1.0.71); docs/sources.md#cc-microcompact (fires above the warning threshold)`,
          note: 'fixed in Claude Code; it follows the auto-compact threshold',
        },
      ],
    };
  },
  continuation(input, auto, partial) {
    const knobs = input as unknown as ClaudeCodeKnobs;
    return { format: knobs.continuationFormat, auto, partial };
  },
};

/** Explainers by strategy id; the others get the generic walk. */
export const LEARN_EXPLAINERS: Readonly<Record<string, LearnExplainer>> = {
  'claude-code': CLAUDE_CODE_EXPLAINER,
};
