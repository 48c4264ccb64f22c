import { ANTHROPIC_SDK } from './anthropic-sdk';
import { CLAUDE_CODE_FULL, CLAUDE_CODE_PARTIAL, CLAUDE_CODE_SUBAGENT } from './claude-code-presets';
import { CLINE_CONDENSE } from './cline-condense';
import { CLINE_SUMMARIZE_TASK } from './cline-summarize-task';
import { CODEX } from './codex';
import { GEMINI_CLI } from './gemini-cli';
import { OPENCODE } from './opencode';
import { PI } from './pi';
import { ROO } from './roo';
import type { PromptPreset } from './types';

// Every summarization prompt preset, in the order the picker shows them. Adding one means adding
// a file and a line here.

export const PROMPT_PRESETS: readonly PromptPreset[] = [
  CLAUDE_CODE_FULL,
  CLAUDE_CODE_PARTIAL,
  CLAUDE_CODE_SUBAGENT,
  CLINE_SUMMARIZE_TASK,
  CLINE_CONDENSE,
  CODEX,
  OPENCODE,
  GEMINI_CLI,
  ROO,
  PI,
  ANTHROPIC_SDK,
];

export const DEFAULT_PRESET_ID = CLAUDE_CODE_FULL.id;

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
