import type { PromptPreset } from '../prompts/types';
import { STRATEGY_DESCRIPTORS } from './descriptors';

// Every summarization prompt preset, in the picker's order: each strategy's own
// (`StrategyDescriptor.promptPresets`, files in its folder), in the registry's order. Adding a
// preset means adding it to its strategy's list; there is no list of them here.

export const PROMPT_PRESETS: readonly PromptPreset[] = STRATEGY_DESCRIPTORS.flatMap(
  (s) => s.promptPresets ?? [],
);

/** The default strategy's first preset (Claude Code's full compact). */
export const DEFAULT_PRESET_ID = PROMPT_PRESETS[0]!.id;

/**
 * The preset a log's own agent summarizes with: its default strategy's first (Codex's for a Codex
 * rollout), else Claude Code's.
 */
export function getAgentPresetId(strategyId: string | undefined): string {
  const strategy = STRATEGY_DESCRIPTORS.find((s) => s.id === strategyId);
  return strategy?.promptPresets?.[0]?.id ?? DEFAULT_PRESET_ID;
}

/** The preset with this id, or undefined. */
export function getPreset(id: string): PromptPreset | undefined {
  return PROMPT_PRESETS.find((p) => p.id === id);
}

/** The preset with this id; throws with the known ids when there is none. */
export function requirePreset(id: string): PromptPreset {
  const preset = getPreset(id);
  if (!preset)
    throw new RangeError(
      `Unknown preset "${id}". Known presets: ${PROMPT_PRESETS.map((p) => p.id).join(', ')}`,
    );
  return preset;
}
