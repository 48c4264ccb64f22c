import { DEFAULT_SUMMARY_MAX_OUTPUT_TOKENS, type PromptPreset } from '../../prompts/types';

// Cline's auto-condense prompt `summarizeTask()` (src/core/prompts/contextManagement.ts), copied
// from docs/sources.md#cline-summarize-task.

const PROMPT = `<explicit_instructions type="summarize_task">
The current conversation is rapidly running out of context. Now, your urgent task is to create a comprehensive detailed summary of the conversation so far, paying close attention to the user's explicit requests and your previous actions.

This summary should be thorough in capturing technical details, code patterns, and architectural decisions that would be essential for continuing development work without losing context. You MUST ONLY respond to this message by using the summarize_task tool call.

Before providing your final summary, wrap your analysis in <thinking> tags to organize your thoughts and ensure you've covered all necessary points.

Your summary should include the following sections:
1. Primary Request and Intent: Capture all of the user's explicit requests and intents in detail
2. Key Technical Concepts: List all important technical concepts, technologies, and frameworks discussed
3. Files and Code Sections: Enumerate specific files and code sections examined, modified, or created
4. Problem Solving: Document problems solved and any ongoing troubleshooting efforts
5. Pending Tasks: Outline any pending tasks that you have explicitly been asked to work on
6. Current Work: Describe in detail precisely what was being worked on immediately before this summary request
7. Optional Next Step: List the next step related to the most recent work with direct quotes from the conversation

Usage:
<summarize_task>
<context>Your detailed summary</context>
</summarize_task>
</explicit_instructions>`;

export const CLINE_SUMMARIZE_TASK: PromptPreset = {
  id: 'cline-summarize-task',
  label: 'Cline · summarize_task (auto-condense)',
  family: 'cline',
  fidelity: 'verbatim',
  description:
    "Cline's automatic condense when the context fills. Cline sends it inside its agent conversation under its own system prompt; here a one-line system prompt stands in.",
  source:
    'Cline src/core/prompts/contextManagement.ts `summarizeTask()`, as quoted in docs/sources.md#cline-doc ("Summarize Task Prompt"). Cline sends it as a user message inside its normal agent conversation, under its full agent system prompt; CompactLab uses a one-line system prompt instead.',
  prompt: PROMPT,
  systemPrompt:
    'You are Cline, a highly skilled software engineer. Respond only with the summarize_task tool call.',
  variant: 'full',
  sections: [
    { heading: 'Primary Request and Intent', fill: 'intent' },
    { heading: 'Key Technical Concepts', fill: 'concepts' },
    { heading: 'Files and Code Sections', fill: 'files' },
    { heading: 'Problem Solving', fill: 'problem-solving' },
    { heading: 'Pending Tasks', fill: 'todos' },
    { heading: 'Current Work', fill: 'current-work' },
    { heading: 'Optional Next Step', fill: 'next-step' },
  ],
  output: { kind: 'tool', tool: 'summarize_task' },
  maxOutputTokens: DEFAULT_SUMMARY_MAX_OUTPUT_TOKENS,
};
