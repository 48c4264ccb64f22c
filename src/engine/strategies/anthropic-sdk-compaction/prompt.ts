import { CONTINUATION_SECTIONS } from '../../prompts/claude-code';
import type { PromptPreset } from '../../prompts/types';

// The Anthropic TypeScript SDK's client-side compaction (toolRunner `compactionControl`,
// src/lib/tools/CompactionControl.ts, DEFAULT_SUMMARY_PROMPT). Only its shape is documented here
// (docs/sources.md#anthropic-sdk-compaction): Task Overview ·
// Current State · Important Discoveries · Next Steps · Context to Preserve, in `<summary>`, with a
// 4,096-token cap. The wording is ours.

/** `compactionControl` summary cap (docs/sources.md#anthropic-sdk-compaction). */
const SDK_SUMMARY_MAX_OUTPUT_TOKENS = 4_096;

const PROMPT = `You have been working on the task above and it is not finished. The conversation so far is about to be replaced by a summary you write now, so that you can resume in a fresh context.

Write it in these five parts:
1. Task Overview: the user's request, what success looks like, and any clarifications or limits they set.
2. Current State: what is done, which files were created, changed or examined (with paths), and what they produced.
3. Important Discoveries: constraints found, decisions and their reasons, errors and how they were resolved, approaches that failed.
4. Next Steps: the actions left, in priority order, and any open questions or blockers.
5. Context to Preserve: the user's preferences, domain details that are easy to lose, and promises made to the user.

Keep it short but complete enough to avoid repeating work or mistakes. Put the whole summary inside <summary></summary> tags.`;

export const ANTHROPIC_SDK: PromptPreset = {
  id: 'anthropic-sdk',
  label: 'Anthropic TS SDK · compactionControl (our wording)',
  family: 'anthropic-sdk-compaction',
  fidelity: 'own-words',
  description:
    "The default summary prompt of the Anthropic TypeScript SDK's compaction control: task overview, current state, important discoveries, next steps, context to preserve.",
  source:
    "Shape of anthropics/anthropic-sdk-typescript src/lib/tools/CompactionControl.ts DEFAULT_SUMMARY_PROMPT as described in docs/sources.md#anthropic-sdk-compaction (Task Overview · Current State · Important Discoveries · Next Steps · Context to Preserve, in <summary>; summary max tokens 4,096). The wording is CompactLab's. The same five parts appear in Claude Code's sub-agent continuation prompt.",
  prompt: PROMPT,
  systemPrompt: 'You are a helpful assistant that writes continuation summaries.',
  variant: 'full',
  sections: CONTINUATION_SECTIONS,
  output: { kind: 'tag', tag: 'summary' },
  maxOutputTokens: SDK_SUMMARY_MAX_OUTPUT_TOKENS,
};
