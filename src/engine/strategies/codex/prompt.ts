import { DEFAULT_SUMMARY_MAX_OUTPUT_TOKENS, type PromptPreset } from '../../prompts/types';

// OpenAI Codex CLI's local compaction prompt (codex-rs/core/templates/compact/prompt.md). Only
// its shape is documented here (docs/sources.md#codex): a
// "CONTEXT CHECKPOINT COMPACTION" handoff summary covering goal, progress and decisions,
// constraints and preferences, remaining steps, and critical data. The wording is ours.

const PROMPT = `You are performing a CONTEXT CHECKPOINT COMPACTION. Write a handoff summary so that another language model, which cannot see the conversation above, can pick up the task exactly where it stands.

Cover, in this order:
1. Goal: what the user wants achieved and what counts as done.
2. Progress and decisions: what has been done so far, the decisions taken and why.
3. Constraints and preferences: everything the user asked for, asked to avoid, or corrected.
4. Remaining steps: what is left to do, in order, starting with the very next action.
5. Critical data: exact file paths, commands, identifiers, values and error messages the next model will need.

Be brief and concrete. Quote exact values rather than describing them. Do not invent anything that is not in the conversation.`;

export const CODEX: PromptPreset = {
  id: 'codex',
  label: 'Codex CLI · checkpoint handoff (our wording)',
  family: 'codex',
  fidelity: 'own-words',
  description:
    'A handoff note in the shape Codex CLI documents: goal, progress and decisions, constraints, remaining steps, critical data. Codex then keeps recent user messages beside the summary.',
  source:
    'Shape of openai/codex codex-rs/core/templates/compact/prompt.md as described in docs/sources.md#codex (goal, progress & decisions, constraints/preferences, remaining steps, critical data). The wording is CompactLab\'s; Codex\'s own text is not reproduced. Codex then prefixes the summary with summary_prefix.md ("Another language model started to solve this problem…") and keeps up to 20,000 tokens of recent user messages beside it.',
  prompt: PROMPT,
  systemPrompt: 'You are a coding agent writing a handoff note for the next agent. Do not call tools.',
  variant: 'full',
  sections: [
    { heading: 'Goal', fill: 'intent' },
    { heading: 'Progress and decisions', fill: 'progress' },
    { heading: 'Constraints and preferences', fill: 'instructions' },
    { heading: 'Remaining steps', fill: 'next-step' },
    { heading: 'Critical data', fill: 'files' },
  ],
  output: { kind: 'markdown' },
  maxOutputTokens: DEFAULT_SUMMARY_MAX_OUTPUT_TOKENS,
};
