import { DEFAULT_SUMMARY_MAX_OUTPUT_TOKENS, type PromptPreset } from '../../prompts/types';

// Cline's manual `/compact` (`/smol`) prompt `condenseToolResponse()` (src/core/prompts/commands.ts),
// copied from docs/sources.md#cline-condense.

const PROMPT = `<explicit_instructions type="condense">
The user has explicitly asked you to create a detailed summary of the conversation so far, which will be used to compact the current context window while retaining key information.

The condense tool is defined below:

Description:
Your task is to create a detailed summary of the conversation so far, paying close attention to the user's explicit requests and your previous actions. This summary should be thorough in capturing technical details, code patterns, and architectural decisions that would be essential for continuing with the conversation and supporting any continuing tasks.

Parameters:
- Context: (required) The context to continue the conversation with. If applicable based on the current task, this should include:
  1. Previous Conversation: High level details about what was discussed throughout the entire conversation
  2. Current Work: Describe in detail what was being worked on prior to this request
  3. Key Technical Concepts: List all important technical concepts, technologies, coding conventions, and frameworks discussed
  4. Relevant Files and Code: Enumerate specific files and code sections examined, modified, or created
  5. Problem Solving: Document problems solved thus far and any ongoing troubleshooting efforts
  6. Pending Tasks and Next Steps: Outline all pending tasks and next steps with code snippets and direct quotes from the conversation

Usage:
<condense>
<context>Your detailed summary</context>
</condense>
</explicit_instructions>`;

export const CLINE_CONDENSE: PromptPreset = {
  id: 'cline-condense',
  label: 'Cline · condense (/compact, /smol)',
  family: 'cline',
  fidelity: 'verbatim',
  description:
    "Cline's /compact (/smol) instruction. Cline sends it inside its agent conversation under its own system prompt; here a one-line system prompt stands in.",
  source:
    'Cline src/core/prompts/commands.ts `condenseToolResponse()`, as quoted in docs/sources.md#cline-doc ("Manual Compact Tool Response"). Cline substitutes it for the /compact command inside its normal agent conversation; CompactLab uses a one-line system prompt instead of Cline\'s agent prompt.',
  prompt: PROMPT,
  systemPrompt:
    'You are Cline, a highly skilled software engineer. Respond only with the condense tool call.',
  variant: 'full',
  sections: [
    { heading: 'Previous Conversation', fill: 'user-messages' },
    { heading: 'Current Work', fill: 'current-work' },
    { heading: 'Key Technical Concepts', fill: 'concepts' },
    { heading: 'Relevant Files and Code', fill: 'files' },
    { heading: 'Problem Solving', fill: 'problem-solving' },
    { heading: 'Pending Tasks and Next Steps', fill: 'next-step' },
  ],
  output: { kind: 'tool', tool: 'condense' },
  maxOutputTokens: DEFAULT_SUMMARY_MAX_OUTPUT_TOKENS,
};
