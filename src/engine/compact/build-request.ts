import type { ByteSource } from '../parse/source';
import { getClaudeCodePrompt, SUMMARY_SYSTEM_PROMPT } from '../prompts/claude-code';
import { composePrompt, type PromptPreset } from '../prompts/types';
import { estimateTextTokens } from '../tokens/estimate';
import type { Session, TokenCount } from '../types';
import { estimateApiMessagesTokens } from './normalize-messages';
import { isMainThreadEntry } from '../parse/main-thread';
import { readSpanMessages } from './span-messages';
import type { ApiMessage, CompactionRequest, RequestVariant } from './types';

// What a compaction would send to the summarizer at any point of a transcript (Claude Code 2.1.68 (docs/sources.md#cc-full-mechanism step 4); docs/sources.md#ccs-manual-compact `j91`, phase 3): the messages since the last boundary
// (`nk`: the boundary's summary included), normalized by `WZ`, then the prompt.

interface CompactionRequestOptions {
  /** Last entry of the span (inclusive). */
  uptoEntryIndex: number;
  /**
   * First entry of the span. Default: the last real compact boundary at or before `uptoEntryIndex`
   * (`nk` keeps it, so its summary message is included), or the start of the transcript.
   */
  fromEntryIndex?: number;
  /**
   * `full`: Prompt 1 over [from, upto]. `partial`: Prompt 2, summarizing the "RECENT portion"
   * [keepFromEntryIndex, upto] after the retained earlier messages, which are sent too.
   * `subagent`: Prompt 3 (`Q07`) over [from, upto].
   */
  variant: RequestVariant;
  /** `partial` only: where the recent portion starts. */
  keepFromEntryIndex?: number;
  customInstructions?: string;
  /**
   * Text of a previous summary the replay simulated (its boundary is not in the transcript): sent
   * first, as the continuation message would be.
   */
  previousSummaryText?: string;
  /** Entries to leave out: a real compaction's summary and re-attachments the replay did not adopt. */
  excludeEntryIndices?: readonly number[];
  /**
   * A prompt preset (a strategy's, strategies/prompt-presets.ts) in place of Claude Code's prompts:
   * its system prompt, prompt and follow-ups.
   */
  promptPreset?: PromptPreset;
  /** Empty base64 payloads, for display. */
  elideBase64?: boolean;
  /** A subagent's compaction: the messages of that subagent's log (this file) alone, not the main thread's. */
  subagentFileIndex?: number;
  signal?: AbortSignal;
}

/** `nk`'s start: the last main compact boundary at or before `entryIndex`, or 0. */
export function getSpanStart(session: Session, uptoEntryIndex: number): number {
  let from = 0;
  for (const c of session.compactions) {
    if (c.entryIndex > uptoEntryIndex) continue;
    const entry = session.entries[c.entryIndex];
    // A truncation after which the log holds the whole history again (raw API traffic) restarts too.
    if (c.kind !== 'compact' && entry?.compact?.resendsHistory !== true) continue;
    if (entry && isMainThreadEntry(session, entry)) from = Math.max(from, c.entryIndex);
  }
  return from;
}

/**
 * Tokens a summary request adds to the messages it summarizes: the prompt (custom instructions
 * included) and the system prompt, by Claude Code's estimate. (The request also carries its one
 * tool, read_file, Claude Code 2.1.68 (docs/sources.md#cc-full-mechanism step 4), whose schema no source gives: not counted.)
 */
export function getSummaryRequestOverheadTokens(
  variant: RequestVariant,
  customInstructions?: string,
): TokenCount {
  return (
    estimateTextTokens(getClaudeCodePrompt(variant, customInstructions).length) +
    estimateTextTokens(SUMMARY_SYSTEM_PROMPT.length)
  );
}

/**
 * Builds the summarizer request for a span of a session. Reads each entry's full record from the
 * sources (entries in memory hold previews only). Rejects only when `signal` aborts or a source
 * cannot be read.
 */
export async function buildCompactionRequest(
  session: Session,
  sources: ByteSource[],
  options: CompactionRequestOptions,
): Promise<CompactionRequest> {
  const upto = Math.min(options.uptoEntryIndex, session.entries.length - 1);
  const from = Math.max(0, options.fromEntryIndex ?? getSpanStart(session, upto));
  const normalized = await readSpanMessages(
    session,
    sources,
    {
      fromEntryIndex: from,
      uptoEntryIndex: upto,
      excludeEntryIndices: options.excludeEntryIndices,
      subagentFileIndex: options.subagentFileIndex,
    },
    { elideBase64: options.elideBase64, signal: options.signal },
  );
  const messages: ApiMessage[] = normalized.messages;
  if (options.previousSummaryText !== undefined) {
    const first = messages[0];
    const block = { type: 'text' as const, text: options.previousSummaryText };
    if (first?.role === 'user')
      first.content = [
        block,
        ...(typeof first.content === 'string'
          ? [{ type: 'text' as const, text: first.content }]
          : first.content),
      ];
    else messages.unshift({ role: 'user', content: [block] });
  }
  const promptVariant =
    options.variant === 'partial' && options.keepFromEntryIndex === undefined ? 'full' : options.variant;
  const preset = options.promptPreset;
  const prompt = preset
    ? composePrompt(preset.prompt, options.customInstructions, preset.customInstructionsHeading)
    : getClaudeCodePrompt(promptVariant, options.customInstructions);
  const system = preset ? preset.systemPrompt : SUMMARY_SYSTEM_PROMPT;
  const messagesTokens = estimateApiMessagesTokens(messages);
  const estimatedTokens =
    messagesTokens + estimateTextTokens(prompt.length) + estimateTextTokens(system.length);
  // A follow-up re-sends the messages (not the first prompt) and the previous answer, sized at the
  // preset's output cap.
  const followUps = preset?.followUps?.map((f) => ({
    label: f.label,
    prompt: f.prompt,
    estimatedTokens:
      messagesTokens +
      estimateTextTokens(system.length) +
      preset.maxOutputTokens +
      estimateTextTokens(f.prompt.length),
  }));
  return {
    system,
    messages,
    prompt,
    estimatedTokens,
    ...(preset ? { presetId: preset.id } : {}),
    ...(followUps?.length ? { followUps } : {}),
    variant: promptVariant,
    fromEntryIndex: from,
    uptoEntryIndex: upto,
    entryIndices: normalized.entryIndices,
    dropped: normalized.dropped,
  };
}
