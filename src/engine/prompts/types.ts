import type { TokenCount } from '../types';

// A summarization prompt preset: the text a compaction sends, where it comes from, and the
// settings that go with it.

/** Which span the prompt summarizes, as Claude Code's request builder understands it. */
type PromptVariant = 'full' | 'partial' | 'subagent';

/**
 * What the built-in summarizer puts under a heading (see summarize/builtin.ts):
 * intent = the user's requests; concepts = languages, tools, technical terms; files = files read,
 * edited, written; commands = shell commands; errors = errors and their follow-up;
 * user-messages = every user message verbatim; instructions = the user's rules and preferences;
 * todos = the todo list's open items; current-work = the last actions; next-step = the last
 * request, quoted; progress = what was done; discoveries = facts learned along the way.
 */
export type SectionFill =
  | 'intent'
  | 'concepts'
  | 'files'
  | 'commands'
  | 'errors'
  | 'problem-solving'
  | 'user-messages'
  | 'instructions'
  | 'todos'
  | 'current-work'
  | 'next-step'
  | 'progress'
  | 'discoveries';

export interface PresetSection {
  heading: string;
  fill: SectionFill;
}

/** How the prompt asks the model to shape its answer. */
export type PresetOutput =
  /** `<summary>…</summary>`, optionally after an `<analysis>`/`<thinking>` scratch block. */
  | { kind: 'tag'; tag: string }
  /** An XML document whose children are the sections (Gemini CLI's `<state_snapshot>`). */
  | { kind: 'xml'; root: string }
  /** A tool call whose `context` parameter holds the summary (Cline). */
  | { kind: 'tool'; tool: string }
  /** Markdown headings. */
  | { kind: 'markdown' };

export type PresetFidelity = 'verbatim' | 'verbatim-with-gaps' | 'own-words';

export interface PromptPreset {
  id: string;
  label: string;
  /**
   * The id of the strategy whose folder holds the preset and lists it (`CompactionStrategy.promptPresets`;
   * tests/engine/registry-structure.test.ts checks the two agree).
   */
  family: string;
  /**
   * Where the text comes from. `verbatim`: copied from the named reference; `verbatim-with-gaps`:
   * copied, but the reference elides parts (kept as marked gaps or filled from a sibling prompt);
   * `own-words`: only the shape (sections, order, output format) is documented, the wording is
   * CompactLab's.
   */
  fidelity: PresetFidelity;
  /** For people, shown in the Summaries view: no file paths, no minified identifiers. */
  description: string;
  /** For maintainers: the reference file and section the text was taken from. */
  source: string;
  /** The prompt sent as the last user message. */
  prompt: string;
  /** The system prompt of the summarization call. */
  systemPrompt: string;
  variant: PromptVariant;
  /** Sections in order; the built-in summarizer fills these. */
  sections: PresetSection[];
  output: PresetOutput;
  /** The tool's own output cap for the summary call, when documented. */
  maxOutputTokens: TokenCount;
  /** How custom instructions are appended; default Claude Code's "Additional Instructions:". */
  customInstructionsHeading?: string;
  /**
   * Where custom instructions go in the unedited prompt: before the last occurrence of this text,
   * as their own paragraph (Claude Code's, before its closing "IMPORTANT: Do NOT use any tools…").
   * Absent, or the prompt edited: appended after it.
   */
  customInstructionsBefore?: string;
  /**
   * Further turns of the same compaction, each a second summarizer call: the request again, the
   * previous answer as the assistant's message, then this prompt (Gemini CLI's verification probe).
   */
  followUps?: { label: string; prompt: string }[];
}

/** Claude Code's cap on the summary call (`maxOutputTokensOverride: 20000`, Claude Code 2.1.68 (docs/sources.md#cc-full-mechanism)). */
export const CLAUDE_CODE_SUMMARY_MAX_OUTPUT_TOKENS: TokenCount = 20_000;
/** Output cap used where a tool documents none. */
export const DEFAULT_SUMMARY_MAX_OUTPUT_TOKENS: TokenCount = 8_192;

/**
 * A preset's prompt as sent with custom instructions: where the unedited prompt places them
 * (`customInstructionsBefore`), else appended under its heading (`composePrompt`).
 */
export function composePresetPrompt(
  prompt: string,
  customInstructions: string | undefined,
  preset: PromptPreset | undefined,
): string {
  const heading = preset?.customInstructionsHeading ?? 'Additional Instructions:';
  const marker = preset?.customInstructionsBefore;
  const at = marker === undefined || prompt !== preset?.prompt ? -1 : prompt.lastIndexOf(marker);
  if (at < 0 || !customInstructions || customInstructions.trim() === '')
    return composePrompt(prompt, customInstructions, heading);
  return `${prompt.slice(0, at)}${heading}\n${customInstructions}\n\n${prompt.slice(at)}`;
}

/**
 * The prompt with custom instructions appended the way Claude Code's `R91` does it:
 * `${prompt}\n\nAdditional Instructions:\n${instructions}` (docs/sources.md#ccs-prompt-template); nothing is added for blank instructions.
 */
export function composePrompt(
  prompt: string,
  customInstructions: string | undefined,
  heading = 'Additional Instructions:',
): string {
  if (!customInstructions || customInstructions.trim() === '') return prompt;
  return `${prompt}\n\n${heading}\n${customInstructions}`;
}
