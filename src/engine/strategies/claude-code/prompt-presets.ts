import {
  CLAUDE_CODE_SECTIONS,
  CONTINUATION_SECTIONS,
  FULL_COMPACT_PROMPT,
  NO_TOOLS,
  PARTIAL_COMPACT_PROMPT,
  SUBAGENT_CONTINUATION_PROMPT,
  SUMMARY_SYSTEM_PROMPT,
} from '../../prompts/claude-code';
import { CLAUDE_CODE_SUMMARY_MAX_OUTPUT_TOKENS, type PromptPreset } from '../../prompts/types';

// Claude Code's three summarization prompts (texts in prompts/claude-code.ts, copied from
// docs/sources.md#cc-v2168) as presets.

export const CLAUDE_CODE_FULL: PromptPreset = {
  id: 'claude-code-full',
  label: 'Claude Code · full compact',
  family: 'claude-code',
  fidelity: 'verbatim-with-gaps',
  description:
    'What Claude Code sends on auto-compact and /compact: a nine-part analysis of the conversation, then the summary. The source we copied from leaves out part of item 9 and the example output; the text goes on without them (the reference’s marks are not sent).',
  source: `Claude Code v2.1.68 \`$M4\` (auto-compact and /compact), deobfuscated: docs/sources.md#cc-prompt-1. The reference elides part of item 9 and the example output block; those gaps are left out, not sent as marks.`,
  prompt: FULL_COMPACT_PROMPT,
  systemPrompt: SUMMARY_SYSTEM_PROMPT,
  variant: 'full',
  sections: CLAUDE_CODE_SECTIONS,
  output: { kind: 'tag', tag: 'summary' },
  maxOutputTokens: CLAUDE_CODE_SUMMARY_MAX_OUTPUT_TOKENS,
  // Custom instructions go before the closing line, as getClaudeCodePrompt puts them (v2.1.68).
  customInstructionsBefore: NO_TOOLS,
};

export const CLAUDE_CODE_PARTIAL: PromptPreset = {
  ...CLAUDE_CODE_FULL,
  id: 'claude-code-partial',
  label: 'Claude Code · partial compact ("RECENT portion")',
  description:
    'What Claude Code sends for /compact from a chosen message: only the recent portion is summarized. Only the opening and closing paragraphs are published; the middle is taken from the full-compact prompt.',
  source: `Claude Code v2.1.68 \`_M4\` (/compact from a message index): docs/sources.md#cc-prompt-2. The reference gives the opening and closing paragraphs and says the rest is Prompt 1's; it is filled in from there.`,
  prompt: PARTIAL_COMPACT_PROMPT,
  variant: 'partial',
};

export const CLAUDE_CODE_SUBAGENT: PromptPreset = {
  id: 'claude-code-subagent',
  label: 'Claude Code · sub-agent continuation',
  family: 'claude-code',
  fidelity: 'verbatim',
  description:
    "What Claude Code sends when a sub-agent nears its context limit, as a user message in the sub-agent's own conversation.",
  source: `Claude Code v2.1.68 \`Q07\` (in-process sub-agent near its context limit): docs/sources.md#cc-prompt-3. Sent as a user message in the sub-agent's own conversation.`,
  prompt: SUBAGENT_CONTINUATION_PROMPT,
  systemPrompt: SUMMARY_SYSTEM_PROMPT,
  variant: 'subagent',
  sections: CONTINUATION_SECTIONS,
  output: { kind: 'tag', tag: 'summary' },
  maxOutputTokens: CLAUDE_CODE_SUMMARY_MAX_OUTPUT_TOKENS,
};
