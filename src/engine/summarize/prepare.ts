import { buildCompactionRequest } from '../compact/build-request';
import type { ByteSource } from '../parse/source';
import { getPreset } from '../strategies/prompt-presets';
import { composePresetPrompt } from '../prompts/types';
import { maskJsonValue, maskText, type RedactionSettings } from '../redact/mask';
import { extractRetentionFacts } from '../retention/extract';
import type { RetentionFact } from '../retention/types';
import type { Session, TokenCount } from '../types';
import { type CompactionPoint, type CompactionSpan, getApiCallsInSpan, getCompactionSpan } from './span';
import { estimateRequestTokens } from './blocks';
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
  /** A partial preset's choices: the span's API calls its recent portion can start at. */
  recentStartCalls?: number[];
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

/**
 * The entry a partial compaction's recent portion starts at when it starts at API call `chosen`
 * (one of `calls`, the span's): what led to that call, right after the previous call ended.
 * Undefined when nothing of the span would come before it (nothing kept).
 */
function getRecentStart(
  session: Session,
  span: CompactionSpan,
  calls: readonly number[],
  chosen: number,
): number | undefined {
  const previous = calls[calls.indexOf(chosen) - 1];
  const start =
    previous !== undefined
      ? session.apiCalls[previous]!.lastEntryIndex + 1
      : session.apiCalls[chosen]?.firstEntryIndex;
  return start !== undefined && start > span.fromEntryIndex ? start : undefined;
}

/**
 * Why a partial compaction at `point` cannot start its recent portion at API call `apiCallIndex`
 * (`PromptSettings.keepFromApiCallIndex`), or undefined when it can. Claude Code's partial compact
 * (Prompt 2, docs/sources.md#cc-prompt-2) is `/compact` from a message of the conversation it
 * compacts: the messages before it are kept verbatim and the recent ones after it summarized. So
 * the start is an API call of the span, with some of the span before it; elsewhere the request
 * would summarize the whole span under a prompt that says earlier messages were kept.
 */
export function getKeepFromProblem(
  session: Session,
  point: CompactionPoint,
  apiCallIndex: number,
): string | undefined {
  const span = getCompactionSpan(session, point);
  const calls = getApiCallsInSpan(session, span);
  if (!calls.includes(apiCallIndex))
    return `API call index ${apiCallIndex} is not one of the span's (${
      calls.length === 0 ? 'it has none' : `indices ${calls[0]}–${calls.at(-1)}`
    }: the span compacted ${span.label}); the recent portion starts inside it`;
  if (getRecentStart(session, span, calls, apiCallIndex) === undefined)
    return `API call index ${apiCallIndex} is the span's first: nothing before it would be kept (a full preset summarizes the whole span)`;
  return undefined;
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
  let recentStartCalls: number[] | undefined;
  if (variant === 'partial') {
    const calls = getApiCallsInSpan(session, span);
    recentStartCalls = calls.filter((c) => getRecentStart(session, span, calls, c) !== undefined);
    // A start outside the span summarized the whole span under a prompt that says the earlier
    // messages were kept: refused, with why (the page's choices are `recentStartCalls`).
    if (settings.keepFromApiCallIndex !== undefined) {
      const problem = getKeepFromProblem(session, point, settings.keepFromApiCallIndex);
      if (problem) throw new RangeError(problem);
    }
    const chosen = settings.keepFromApiCallIndex ?? calls[Math.floor(calls.length / 2)];
    keepFromEntryIndex = chosen === undefined ? undefined : getRecentStart(session, span, calls, chosen);
  }
  const built = await buildCompactionRequest(session, sources, {
    uptoEntryIndex: span.uptoEntryIndex,
    fromEntryIndex: span.fromEntryIndex,
    variant,
    keepFromEntryIndex,
    customInstructions: settings.customInstructions,
    subagentFileIndex: span.subagentFileIndex,
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
  const estimatedTokens = estimateRequestTokens(request);
  // A partial compact summarizes only the recent portion; retention is checked on that part.
  let summarized = request.messages;
  let keptMessages = 0;
  if (keepFromEntryIndex !== undefined) {
    const recent = await buildCompactionRequest(session, sources, {
      uptoEntryIndex: span.uptoEntryIndex,
      fromEntryIndex: keepFromEntryIndex,
      variant: 'full',
      subagentFileIndex: span.subagentFileIndex,
      signal,
    });
    summarized = mask(recent.messages);
    keptMessages = Math.max(0, request.messages.length - recent.messages.length);
    request.retainedMessages = keptMessages;
  }
  return {
    span,
    request,
    estimatedTokens,
    keptMessages,
    ...(recentStartCalls ? { recentStartCalls } : {}),
    facts: extractRetentionFacts(summarized),
  };
}
