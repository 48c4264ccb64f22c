import { DEFAULT_SUMMARY_MAX_OUTPUT_TOKENS, type PromptPreset } from '../../prompts/types';

// OpenCode's compaction prompt (packages/opencode/src/session/compaction.ts). Only its shape is
// documented here (docs/sources.md#opencode): a continuation prompt with
// Goal · Instructions · Discoveries · Accomplished · Relevant files/directories. The wording is
// ours apart from the opening request that docs/sources.md#opencode quotes.

const PROMPT = `Provide a detailed prompt for continuing our conversation above. Focus on what another agent would need to carry on the work without asking the user anything again.

Use exactly these headings:

## Goal
What the user is trying to achieve.

## Instructions
Every instruction, rule and preference the user gave, including corrections. Quote them when the wording matters.

## Discoveries
What was learned along the way: how the code is organised, what failed and why, what turned out to be true.

## Accomplished
What is done, what is in progress, and what is still to do.

## Relevant files / directories
The files and directories that were read, changed or created, with a few words on each.`;

export const OPENCODE: PromptPreset = {
  id: 'opencode',
  label: 'OpenCode · continuation prompt (our wording)',
  family: 'opencode',
  fidelity: 'own-words',
  description:
    'A continuation prompt in the shape OpenCode documents: goal, instructions, discoveries, what was accomplished, relevant files.',
  source:
    'Shape of anomalyco/opencode packages/opencode/src/session/compaction.ts as described in docs/sources.md#opencode (Goal · Instructions · Discoveries · Accomplished · Relevant files/directories; opening "Provide a detailed prompt for continuing our conversation above…"). The rest of the wording is CompactLab\'s. OpenCode stores the answer as an assistant message marked summary:true and then sends an automatic "continue".',
  prompt: PROMPT,
  systemPrompt:
    'You are a helpful AI assistant tasked with summarizing conversations so that work can continue.',
  variant: 'full',
  sections: [
    { heading: 'Goal', fill: 'intent' },
    { heading: 'Instructions', fill: 'instructions' },
    { heading: 'Discoveries', fill: 'discoveries' },
    { heading: 'Accomplished', fill: 'progress' },
    { heading: 'Relevant files / directories', fill: 'files' },
  ],
  output: { kind: 'markdown' },
  maxOutputTokens: DEFAULT_SUMMARY_MAX_OUTPUT_TOKENS,
};
