import type { PresetSection } from './types';

// Claude Code's summarization prompts, copied from docs/sources.md#cc-v2168
// ("Prompt 1: Full compact ($M4)", "Prompt 2: Partial compact (_M4)", "Prompt 3: Sub-agent
// continuation (Q07)"), line breaks included. The reference elides two passages, marked there with
// brackets (`REFERENCE_ELISIONS`): they are neither filled with invented text nor sent as literal
// marks; the prompt goes on around them as the reference's text does, and the request preview
// says where the gaps are (`getPromptElisions`).
// Custom instructions go where the reference puts them: after the body, before the closing
// "IMPORTANT: Do NOT use any tools…" (v2.1.68); the wording "Additional Instructions:" is `R91`'s
// (docs/sources.md#ccs-prompt-template).

/** `$M4`'s system prompt (Claude Code 2.1.68 (docs/sources.md#cc-prompt-1); the same text in docs/sources.md#ccs-manual-compact `j91`). */
export const SUMMARY_SYSTEM_PROMPT = 'You are a helpful AI assistant tasked with summarizing conversations.';

/** The reference's own elision marks that remain in the texts below. */
export const REFERENCE_ELISIONS = [
  '[...]',
  '[example output structure with <analysis> and <summary> XML blocks...]',
] as const;

const FULL_OPENING = `Your task is to create a detailed summary of the conversation so far, paying close attention to
the user's explicit requests and your previous actions.
This summary should be thorough in capturing technical details, code patterns, and architectural
decisions that would be essential for continuing development work without losing context.`;

const ANALYSIS_INSTRUCTIONS = `Before providing your final summary, wrap your analysis in <analysis> tags to organize your
thoughts and ensure you've covered all necessary points. In your analysis process:

1. Chronologically analyze each message and section of the conversation. For each section
   thoroughly identify:
   - The user's explicit requests and intents
   - Your approach to addressing the user's requests
   - Key decisions, technical concepts and code patterns
   - Specific details like:
     - file names
     - full code snippets
     - function signatures
     - file edits
   - Errors that you ran into and how you fixed them
   - Pay special attention to specific user feedback that you received, especially if the user
     told you to do something differently.
2. Double-check for technical accuracy and completeness, addressing each required element
   thoroughly.`;

const NINE_SECTIONS = `Your summary should include the following sections:

1. Primary Request and Intent: Capture all of the user's explicit requests and intents in detail
2. Key Technical Concepts: List all important technical concepts, technologies, and frameworks
   discussed.
3. Files and Code Sections: Enumerate specific files and code sections examined, modified, or
   created. Pay special attention to the most recent messages and include full code snippets
   where applicable and include a summary of why this file read or edit is important.
4. Errors and fixes: List all errors that you ran into, and how you fixed them. Pay special
   attention to specific user feedback that you received, especially if the user told you to do
   something differently.
5. Problem Solving: Document problems solved and any ongoing troubleshooting efforts.
6. All user messages: List ALL user messages that are not tool results. These are critical for
   understanding the users' feedback and changing intent.
7. Pending Tasks: Outline any pending tasks that you have explicitly been asked to work on.
8. Current Work: Describe in detail precisely what was being worked on immediately before this
   summary request, paying special attention to the most recent messages from both user and
   assistant. Include file names and code snippets where applicable.
9. Optional Next Step: List the next step that you will take that is related to the most recent
   work you were doing. IMPORTANT: ensure that this step is DIRECTLY in line with the user's
   most recent explicit requests, and the task you were working on immediately before this
   summary request. If there is a next step, include direct quotes from the most recent
   conversation showing exactly what task you were working on and where you left off. This should
   be verbatim to ensure there's no drift in task interpretation.`;

/** Where the sent prompt has a gap the reference marks, for the request preview. */
interface PromptElision {
  /** The reference's own mark. */
  mark: (typeof REFERENCE_ELISIONS)[number];
  /** The sent text the gap follows (a line of the prompt). */
  after: string;
}

const ITEM9_ELISION: PromptElision = { mark: '[...]', after: 'summary request.' };
const EXAMPLE_ELISION: PromptElision = {
  mark: '[example output structure with <analysis> and <summary> XML blocks...]',
  after: 'ensuring precision and thoroughness in your response.',
};

/** The reference's gaps in a variant's prompt (none in Prompt 3, which it gives whole). */
export function getPromptElisions(variant: ClaudeCodePromptVariant): PromptElision[] {
  if (variant === 'subagent') return [];
  return [
    ITEM9_ELISION,
    variant === 'full'
      ? { ...EXAMPLE_ELISION, after: "be verbatim to ensure there's no drift in task interpretation." }
      : EXAMPLE_ELISION,
  ];
}

/** The closing line: custom instructions go before it (`CLAUDE_CODE_FULL.customInstructionsBefore`). */
export const NO_TOOLS = `IMPORTANT: Do NOT use any tools. You MUST respond with ONLY the <summary>...</summary> block
as your text output.`;

const PARTIAL_OPENING = `Your task is to create a detailed summary of the RECENT portion of the conversation — the
messages that follow earlier retained context. The earlier messages are being kept intact and
do NOT need to be summarized. Focus your summary on what was discussed, learned, and
accomplished in the recent messages only.`;

const PARTIAL_CLOSING = `Please provide your summary based on the RECENT messages only (after the retained earlier
context), following this structure and ensuring precision and thoroughness in your response.`;

/** `Q07`, verbatim (Claude Code 2.1.68 (docs/sources.md#cc-prompt-3)). */
export const SUBAGENT_CONTINUATION_PROMPT = `You have been working on the task described above but have not yet completed it. Write a
continuation summary that will allow you (or another instance of yourself) to resume work
efficiently in a future context window where the conversation history will be replaced with
this summary. Your summary should be structured, concise, and actionable. Include:
1. Task Overview
   The user's core request and success criteria
   Any clarifications or constraints they specified
2. Current State
   What has been completed so far
   Files created, modified, or analyzed (with paths if relevant)
   Key outputs or artifacts produced
3. Important Discoveries
   Technical constraints or requirements uncovered
   Decisions made and their rationale
   Errors encountered and how they were resolved
   What approaches were tried that didn't work (and why)
4. Next Steps
   Specific actions needed to complete the task
   Any blockers or open questions to resolve
   Priority order if multiple steps remain
5. Context to Preserve
   User preferences or style requirements
   Domain-specific details that aren't obvious
   Any promises made to the user
Be concise but complete — err on the side of including information that would prevent duplicate
work or repeated mistakes. Write in a way that enables immediate resumption of the task.
Wrap your summary in <summary></summary> tags.`;

type ClaudeCodePromptVariant = 'full' | 'partial' | 'subagent';

/** `R91`'s custom-instruction block (docs/sources.md#ccs-prompt-template); empty for blank input. */
function getCustomInstructionsBlock(customInstructions: string | undefined): string {
  if (!customInstructions || customInstructions.trim() === '') return '';
  return `Additional Instructions:\n${customInstructions}`;
}

function join(parts: string[]): string {
  return parts.filter((p) => p !== '').join('\n\n');
}

/**
 * The prompt appended after the history. `partial` is Prompt 2: Prompt 1's structure scoped to
 * the "RECENT portion" (the reference writes "[...same 9-section structure...]" for the middle,
 * filled here with Prompt 1's analysis and section text).
 */
export function getClaudeCodePrompt(variant: ClaudeCodePromptVariant, customInstructions?: string): string {
  const custom = getCustomInstructionsBlock(customInstructions);
  switch (variant) {
    case 'full':
      return join([FULL_OPENING, ANALYSIS_INSTRUCTIONS, NINE_SECTIONS, custom, NO_TOOLS]);
    case 'partial':
      return join([PARTIAL_OPENING, ANALYSIS_INSTRUCTIONS, NINE_SECTIONS, PARTIAL_CLOSING, custom, NO_TOOLS]);
    case 'subagent':
      return join([SUBAGENT_CONTINUATION_PROMPT, custom]);
  }
}

/** Prompt 1 without custom instructions. */
export const FULL_COMPACT_PROMPT = getClaudeCodePrompt('full');
/** Prompt 2 without custom instructions. */
export const PARTIAL_COMPACT_PROMPT = getClaudeCodePrompt('partial');

/** The five parts of a continuation summary (Claude Code's sub-agent prompt, the SDK's default). */
export const CONTINUATION_SECTIONS: PresetSection[] = [
  { heading: 'Task Overview', fill: 'intent' },
  { heading: 'Current State', fill: 'progress' },
  { heading: 'Important Discoveries', fill: 'errors' },
  { heading: 'Next Steps', fill: 'next-step' },
  { heading: 'Context to Preserve', fill: 'instructions' },
];

/** Claude Code's nine summary sections; Roo's CONDENSE template reproduces them. */
export const CLAUDE_CODE_SECTIONS: PresetSection[] = [
  { heading: 'Primary Request and Intent', fill: 'intent' },
  { heading: 'Key Technical Concepts', fill: 'concepts' },
  { heading: 'Files and Code Sections', fill: 'files' },
  { heading: 'Errors and fixes', fill: 'errors' },
  { heading: 'Problem Solving', fill: 'problem-solving' },
  { heading: 'All user messages', fill: 'user-messages' },
  { heading: 'Pending Tasks', fill: 'todos' },
  { heading: 'Current Work', fill: 'current-work' },
  { heading: 'Optional Next Step', fill: 'next-step' },
];
