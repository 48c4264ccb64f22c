import { buildCompactionRequest } from '../compact/build-request';
import { estimateApiMessagesTokens } from '../compact/normalize-messages';
import type { ByteSource } from '../parse/source';
import { getPreset } from '../strategies/prompt-presets';
import { composePresetPrompt } from '../prompts/types';
import { maskJsonValue, maskText, type RedactionSettings } from '../redact/mask';
import { extractRetentionFacts } from '../retention/extract';
import type { RetentionFact } from '../retention/types';
import { estimateTextTokens } from '../tokens/estimate';
import type { Session, TokenCount } from '../types';
import { type CompactionPoint, type CompactionSpan, getApiCallsInSpan, getCompactionSpan } from './span';
import type { SummaryRequest } from './types';

// The exact request a summarization sends, built by the replay's compact/ request builder
// (`nk` + `WZ`), with the chosen preset's (possibly edited) prompt and settings.

/** A prompt and the settings that go with it: everything a run records about "how". */
export interface PromptSettings {
  presetId: string;
  /** The prompt as edited (custom instructions not yet added). */
  prompt: string;
  /** As `/compact <instructions>` and PreCompact hooks add them. */
  customInstructions: string;
  systemPrompt: string;
  model: string;
  maxOutputTokens: TokenCount;
  /** Absent: the provider's default. */
  temperature?: number;
  /** Partial compact only: the API call where the summarized "RECENT portion" starts. */
  keepFromApiCallIndex?: number;
  /** Secrets masked in what is sent (and in the facts taken from it). Absent: sent as read. */
  redact?: RedactionSettings;
}

/** Everything a summarization needs before anything is sent. Plain data. */
export interface PreparedSummary {
  span: CompactionSpan;
  request: SummaryRequest;
  /** Claude Code's estimate (chars / 4 per block, 2,000 per image) of the whole request. */
  estimatedTokens: TokenCount;
  /** Messages of the span that were kept verbatim rather than summarized (partial compact). */
  keptMessages: number;
  /** What the retention score checks for. */
  facts: RetentionFact[];
}

/**
 * The prompt as sent. An unedited preset puts custom instructions where its agent does (Claude
 * Code's before its closing "IMPORTANT: Do NOT use any tools…": `customInstructionsBefore`); any
 * other prompt gets them appended under its heading ("Additional Instructions:").
 */
export function getPromptToSend(settings: PromptSettings): string {
  return composePresetPrompt(settings.prompt, settings.customInstructions, getPreset(settings.presetId));
}

/** Builds the exact request for a compaction point and extracts the span's facts. */
export async function prepareSummary(
  session: Session,
  sources: ByteSource[],
  point: CompactionPoint,
  settings: PromptSettings,
  signal?: AbortSignal,
): Promise<PreparedSummary> {
  const span = getCompactionSpan(session, point);
  const variant = getPreset(settings.presetId)?.variant ?? 'full';
  let keepFromEntryIndex: number | undefined;
  if (variant === 'partial') {
    const calls = getApiCallsInSpan(session, span);
    const chosen = settings.keepFromApiCallIndex ?? calls[Math.floor(calls.length / 2)];
    // The recent portion starts with what led to that call: right after the previous call ended.
    const previous = chosen === undefined ? undefined : calls[calls.indexOf(chosen) - 1];
    keepFromEntryIndex =
      previous !== undefined
        ? session.apiCalls[previous]!.lastEntryIndex + 1
        : chosen === undefined
          ? undefined
          : session.apiCalls[chosen]?.firstEntryIndex;
    if (keepFromEntryIndex !== undefined && keepFromEntryIndex <= span.fromEntryIndex)
      keepFromEntryIndex = undefined;
  }
  const built = await buildCompactionRequest(session, sources, {
    uptoEntryIndex: span.uptoEntryIndex,
    fromEntryIndex: span.fromEntryIndex,
    variant,
    keepFromEntryIndex,
    customInstructions: settings.customInstructions,
    signal,
  });
  // The one place the request text is produced: the redaction pass goes here.
  const redact = settings.redact;
  const mask = <T>(value: T): T => (redact ? maskJsonValue(value, redact) : value);
  const prompt = redact ? maskText(getPromptToSend(settings), redact) : getPromptToSend(settings);
  const request: SummaryRequest = {
    system: redact ? maskText(settings.systemPrompt, redact) : settings.systemPrompt,
    messages: mask(built.messages),
    prompt,
    model: settings.model,
    maxOutputTokens: settings.maxOutputTokens,
    ...(settings.temperature === undefined ? {} : { temperature: settings.temperature }),
  };
  const estimatedTokens =
    estimateApiMessagesTokens(request.messages) +
    estimateTextTokens(prompt.length) +
    estimateTextTokens(request.system.length);
  // A partial compact summarizes only the recent portion; retention is checked on that part.
  let summarized = request.messages;
  let keptMessages = 0;
  if (keepFromEntryIndex !== undefined) {
    const recent = await buildCompactionRequest(session, sources, {
      uptoEntryIndex: span.uptoEntryIndex,
      fromEntryIndex: keepFromEntryIndex,
      variant: 'full',
      signal,
    });
    summarized = mask(recent.messages);
    keptMessages = Math.max(0, request.messages.length - recent.messages.length);
    request.retainedMessages = keptMessages;
  }
  return { span, request, estimatedTokens, keptMessages, facts: extractRetentionFacts(summarized) };
}
