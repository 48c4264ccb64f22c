import type { PromptPreset } from '../../prompts/types';

// The pi coding agent's compaction summary (badlogic/pi-mono packages/coding-agent/src/core/
// compaction/compaction.ts). Its shape is documented in packages/coding-agent/docs/compaction.md
// "Summary Format" (docs/sources.md#pi): the conversation sent
// as serialized text, then a structured checkpoint — Goal · Constraints & Preferences · Progress
// (Done, In Progress, Blocked) · Key Decisions · Next Steps · Critical Context — to which pi itself
// appends `<read-files>` and `<modified-files>`; a later compaction updates the previous summary.
// The wording is ours.

const PROMPT = `The conversation above is finished for now and is being compacted. Write a structured checkpoint of it that another model will read instead of the conversation to carry on the work.

Use exactly these headings, in this order:

## Goal
What the user wants to accomplish; several goals if the session moved between tasks.

## Constraints & Preferences
Every requirement, rule and preference the user stated, or "(none)".

## Progress
Under Done, the tasks and changes completed (as checked items); under In Progress, the work under way (as open items); under Blocked, anything stopping progress.

## Key Decisions
Each decision taken, in bold, with its reason in a few words.

## Next Steps
A numbered list of what should happen next, in order.

## Critical Context
Data, examples or references the work cannot go on without, or "(none)".

Keep every section short. Keep exact file paths, function names and error messages. If a previous summary is given, keep what it says, add what is new, and move finished items from In Progress to Done.`;

export const PI: PromptPreset = {
  id: 'pi',
  label: 'pi · context checkpoint (our wording)',
  family: 'pi',
  fidelity: 'own-words',
  description:
    'A structured checkpoint in the shape the pi coding agent documents: goal, constraints, progress (done, in progress, blocked), key decisions, next steps, critical context. pi then lists the files read and modified.',
  source:
    'Shape of badlogic/pi-mono packages/coding-agent/docs/compaction.md "Summary Format" (src/core/compaction/compaction.ts), as docs/sources.md#pi points to it: Goal · Constraints & Preferences · Progress (Done / In Progress / Blocked) · Key Decisions · Next Steps · Critical Context, then <read-files> and <modified-files> appended by pi. The wording is CompactLab\'s.',
  prompt: PROMPT,
  systemPrompt:
    'You summarize a conversation between a user and a coding assistant into a structured checkpoint. Do not continue the conversation or answer anything in it: write only the summary.',
  variant: 'full',
  sections: [
    { heading: 'Goal', fill: 'intent' },
    { heading: 'Constraints & Preferences', fill: 'instructions' },
    { heading: 'Progress', fill: 'progress' },
    { heading: 'Key Decisions', fill: 'problem-solving' },
    { heading: 'Next Steps', fill: 'next-step' },
    { heading: 'Critical Context', fill: 'files' },
  ],
  output: { kind: 'markdown' },
  // generateSummary's maxTokens: ⌊0.8 × reserveTokens⌋ at the default reserve of 16,384.
  maxOutputTokens: 13_107,
};
