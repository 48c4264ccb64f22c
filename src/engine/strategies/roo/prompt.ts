import { CLAUDE_CODE_SECTIONS } from '../../prompts/claude-code';
import { DEFAULT_SUMMARY_MAX_OUTPUT_TOKENS, type PromptPreset } from '../../prompts/types';

// Roo Code's intelligent condensing (src/core/condense/index.ts, src/shared/support-prompt.ts).
// Only its shape is documented here (docs/sources.md#roo): a system
// SUMMARY_PROMPT that says the call is for summarization only (no tools) and that this last
// message is not part of the user's intent, and a user CONDENSE template with Claude Code's nine
// sections, `<analysis>` then `<summary>`. The wording is ours.

const SYSTEM_PROMPT = `You are summarizing a conversation between a user and a coding assistant so that the assistant can continue after the history is condensed.

This call is for summarization only: do not call any tools and do not continue the task. The request that follows the conversation comes from the condensing system, not from the user; do not count it as part of the user's intent.`;

const PROMPT = `Condense the conversation above into a summary the assistant can continue from.

First reason step by step inside <analysis> tags: walk through the conversation in order and note the user's requests, the approach taken, technical decisions, file names and code, errors and their fixes, and every piece of feedback from the user.

Then write the summary inside <summary> tags with these sections:

1. Primary Request and Intent: everything the user explicitly asked for.
2. Key Technical Concepts: technologies, frameworks and conventions involved.
3. Files and Code Sections: files read, changed or created, with the important code.
4. Errors and fixes: errors met, how they were fixed, and any user feedback on them.
5. Problem Solving: problems solved and troubleshooting still under way.
6. All user messages: every user message that is not a tool result.
7. Pending Tasks: tasks the user asked for that are not done.
8. Current Work: exactly what was being worked on just before this request.
9. Optional Next Step: the next step, in line with the user's latest request, quoting the latest messages verbatim.`;

export const ROO: PromptPreset = {
  id: 'roo',
  label: 'Roo Code · condense (our wording)',
  family: 'roo',
  fidelity: 'own-words',
  description:
    'A condense prompt in the shape Roo Code documents: summarization only, no tools; an analysis, then a nine-section summary.',
  source:
    'Shape of RooCodeInc/Roo-Code src/core/condense/index.ts (SUMMARY_PROMPT) and src/shared/support-prompt.ts (CONDENSE template) as described in docs/sources.md#roo: a system prompt saying "summarization only, no tools; exclude this message from intent" and a nine-section template, <analysis> then <summary>. The wording is CompactLab\'s.',
  prompt: PROMPT,
  systemPrompt: SYSTEM_PROMPT,
  variant: 'full',
  sections: CLAUDE_CODE_SECTIONS,
  output: { kind: 'tag', tag: 'summary' },
  maxOutputTokens: DEFAULT_SUMMARY_MAX_OUTPUT_TOKENS,
};
