import {
  DEFAULT_SUMMARY_MAX_OUTPUT_TOKENS,
  type PresetSection,
  type PromptPreset,
} from '../../prompts/types';
import { SUMMARIZE_TASK_V3_25, SUMMARIZE_TASK_V3_28, SUMMARIZE_TASK_V3_34 } from './summarize-task-texts';

// Cline's auto-condense prompt `summarizeTask()` (src/core/prompts/contextManagement.ts) as each
// classic release sent it (docs/sources.md#cline-summarize-task), and the SDK's summary request
// (Cline 4.x, docs/sources.md#cline-sdk).

// Cline's `summarize_task` is a tool call inside a normal response, so its cap is the model's own
// output limit; no prompt states one: DEFAULT_SUMMARY_MAX_OUTPUT_TOKENS, as for the other agents
// whose prompt names no cap.
const CLASSIC_MAX_OUTPUT = DEFAULT_SUMMARY_MAX_OUTPUT_TOKENS;

const SYSTEM =
  'You are Cline, a highly skilled software engineer. Respond only with the summarize_task tool call.';

const SECTIONS_7: PresetSection[] = [
  { heading: 'Primary Request and Intent', fill: 'intent' },
  { heading: 'Key Technical Concepts', fill: 'concepts' },
  { heading: 'Files and Code Sections', fill: 'files' },
  { heading: 'Problem Solving', fill: 'problem-solving' },
  { heading: 'Pending Tasks', fill: 'todos' },
  { heading: 'Current Work', fill: 'current-work' },
  { heading: 'Optional Next Step', fill: 'next-step' },
];

const SECTIONS_8: PresetSection[] = [
  ...SECTIONS_7.slice(0, 5),
  { heading: 'Task Evolution', fill: 'user-messages' },
  { heading: 'Current Work', fill: 'current-work' },
  { heading: 'Next Step', fill: 'next-step' },
];

const SECTIONS_9: PresetSection[] = [...SECTIONS_8, { heading: 'Required Files', fill: 'files' }];

const classic = ({
  id,
  release,
  prompt,
  sections,
  what,
}: {
  id: string;
  release: string;
  prompt: string;
  sections: PresetSection[];
  what: string;
}): PromptPreset => ({
  id,
  label: `Cline ${release}+ · summarize_task (${sections.length} sections)`,
  family: 'cline',
  fidelity: 'verbatim',
  description: `Cline's automatic condense when the context fills, as release ${release} words it (${what}). Cline sends it inside its agent conversation under its own system prompt; here a one-line system prompt stands in.`,
  source: `cline/cline summarizeTask() at ${release}, verbatim with Cline's defaults (docs/sources.md#cline-summarize-task). Cline sends it as a user message inside its normal agent conversation, under its full agent system prompt; CompactLab uses a one-line system prompt instead.`,
  prompt,
  systemPrompt: SYSTEM,
  variant: 'full',
  sections,
  output: { kind: 'tool', tool: 'summarize_task' },
  maxOutputTokens: CLASSIC_MAX_OUTPUT,
});

/** v3.25.0–v3.27.x: the first summarize_task, 7 sections. */
export const CLINE_SUMMARIZE_TASK_V3_25 = classic({
  id: 'cline-summarize-task-v3.25',
  release: 'v3.25.0',
  prompt: SUMMARIZE_TASK_V3_25,
  sections: SECTIONS_7,
  what: '7 sections, the first wording',
});
/** v3.28.0–v3.33.x: 8 sections (Task Evolution), attempt_completion allowed instead. */
export const CLINE_SUMMARIZE_TASK_V3_28 = classic({
  id: 'cline-summarize-task-v3.28',
  release: 'v3.28.0',
  prompt: SUMMARIZE_TASK_V3_28,
  sections: SECTIONS_8,
  what: '8 sections: Task Evolution added',
});
/** v3.34.0 on (the classic path's last wording): 9 sections (Required Files). */
export const CLINE_SUMMARIZE_TASK = classic({
  id: 'cline-summarize-task',
  release: 'v3.34.0',
  prompt: SUMMARIZE_TASK_V3_34,
  sections: SECTIONS_9,
  what: '9 sections: Task Evolution and Required Files',
});

// The SDK's request (buildSummaryRequest) up to the conversation it appends: "Previous summary:"
// (when one exists) and "Conversation:" with the serialized messages follow. `Read:`/`Edited:`
// list the files the summarized messages read and edited ("none" here).
const SDK_PROMPT = `Summarize this session for continuation. Be concise and factual.

## Goal
One sentence: what is being built or fixed.

## State
- Done: completed steps
- In Progress: current work
- Blocked: blockers or open questions

## Highlights
Key technical choices or notable findings (omit if none).

## Next
Immediate next steps.

## Files
Read: none
Edited: none`;

/** Cline 4.x (SDK) agentic compaction: a separate summarizer call. */
export const CLINE_SDK_SUMMARY: PromptPreset = {
  id: 'cline-sdk-summary',
  label: 'Cline 4.x · SDK compaction summary',
  family: 'cline',
  fidelity: 'verbatim',
  description:
    "Cline 4's agentic compaction: a separate request that summarizes the older messages into a short continuation note (goal, state, highlights, next steps, files), capped at 1,024 output tokens (4,096 from 4.1.8).",
  source:
    'cline/cline sdk/packages/core/src/extensions/context/compaction-shared.ts buildSummaryRequest and agentic-compaction.ts generateSummary (system prompt), verbatim (docs/sources.md#cline-sdk); the request then carries the previous summary and the serialized conversation.',
  prompt: SDK_PROMPT,
  systemPrompt:
    'Summarize the provided coding session into a concise continuation note with detailed next steps.',
  variant: 'full',
  sections: [
    { heading: 'Goal', fill: 'intent' },
    { heading: 'State', fill: 'progress' },
    { heading: 'Highlights', fill: 'discoveries' },
    { heading: 'Next', fill: 'next-step' },
    { heading: 'Files', fill: 'files' },
  ],
  output: { kind: 'markdown' },
  maxOutputTokens: 4_096,
};
