import { requirePreset } from '../../src/engine/strategies/prompt-presets';
import type { PromptSettings } from '../../src/engine/summarize/prepare';

/** A preset's prompt settings as the workbench starts them (its prompt and system prompt, no instructions), for the built-in summarizer unless `overrides` say otherwise. */
export function getPresetSettings(presetId: string, overrides: Partial<PromptSettings> = {}): PromptSettings {
  const preset = requirePreset(presetId);
  return {
    presetId: preset.id,
    prompt: preset.prompt,
    customInstructions: '',
    systemPrompt: preset.systemPrompt,
    model: 'builtin',
    maxOutputTokens: preset.maxOutputTokens,
    ...overrides,
  };
}
