import type { ThresholdLine } from '../../simulation/types';
import { computeThresholds } from '../../thresholds';
import {
  type ClaudeCodeKnobs,
  CLAUDE_CODE_KNOB_SPECS,
  DEFAULT_CLAUDE_CODE_KNOBS,
  normalizeClaudeCodeKnobs,
} from './knobs';
import { CLAUDE_CODE_FULL, CLAUDE_CODE_PARTIAL, CLAUDE_CODE_SUBAGENT } from './prompt-presets';
import { CLAUDE_CODE_SUMMARY_SIZE } from '../summary-size';
import type { StrategyDescriptor } from '../types';

// Claude Code's descriptor: its knobs (knobs.ts), their defaults and the threshold lines they draw,
// what the page shows without replaying (index.ts holds the rules).

/** The 2.1.x clearing waits for auto-compact (it is tried first when auto-compact is due). */
export function clearsWithAutoCompact(knobs: ClaudeCodeKnobs): boolean {
  return knobs.microcompactTrigger === 'with-auto-compact' && knobs.autoCompactEnabled;
}

function getThresholdLines(knobs: ClaudeCodeKnobs): ThresholdLine[] {
  const t = computeThresholds(knobs);
  const lines: ThresholdLine[] = [];
  // Labels as Claude Code's own words (thresholds.ts); its warning and error thresholds are both
  // 20,000 below the limit (`rD5`, `oD5`: "Three-Tier Threshold System"), one line.
  const autoCompactOff = !knobs.autoCompactEnabled || knobs.disableCompact;
  lines.push({
    id: 'auto-compact',
    label: 'auto-compact',
    tokens: t.autoCompact,
    kind: 'trigger',
    ...(autoCompactOff ? { off: true } : {}),
  });
  if (
    knobs.microcompactEnabled &&
    !knobs.disableCompact &&
    knobs.microcompactVariant === 'v2.1.68' &&
    !clearsWithAutoCompact(knobs)
  ) {
    lines.push({
      id: 'microcompact',
      label: 'microcompact = warning = error',
      tokens: t.warning,
      kind: 'trigger',
    });
  } else lines.push({ id: 'warning', label: 'warning = error', tokens: t.warning, kind: 'warning' });
  lines.push({ id: 'blocking', label: 'blocking', tokens: t.blocking, kind: 'limit' });
  lines.push({ id: 'window', label: 'window', tokens: t.contextWindow, kind: 'limit' });
  return lines;
}

export const CLAUDE_CODE_DESCRIPTOR: StrategyDescriptor<ClaudeCodeKnobs> = {
  id: 'claude-code',
  label: 'Claude Code',
  description:
    'Auto-compact at window − min(max output, 20k) − 13k (2.1.21 on; earlier releases reserve more), microcompact of old tool results, full LLM summary with files, todos and plan re-attached.',
  knobSpecs: CLAUDE_CODE_KNOB_SPECS,
  defaultKnobs: DEFAULT_CLAUDE_CODE_KNOBS,
  normalizeKnobs: normalizeClaudeCodeKnobs,
  thresholds: getThresholdLines,
  // Its summarization prompt presets (the picker lists them; the first is what its compactions send).
  promptPresets: [CLAUDE_CODE_FULL, CLAUDE_CODE_PARTIAL, CLAUDE_CODE_SUBAGENT],
  // Fitted on its own real summaries (strategies/summary-size.ts).
  summarySize: () => CLAUDE_CODE_SUMMARY_SIZE,
  // The knobs the golden dump's first line lists.
  dumpKnobKeys: [
    'profile',
    'contextWindow',
    'maxOutputTokens',
    'autocompactPctOverride',
    'microcompactEnabled',
    'microcompactVariant',
    'countPendingMessages',
  ],
};
