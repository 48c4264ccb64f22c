import { buildCompactionRequest } from '../compact/build-request';
import type { ByteSource } from '../parse/source';
import { maskJsonValue, maskText, type RedactionSettings } from '../redact/mask';
import type { ReplayEventFields } from '../replay/types';
import { DEFAULT_PRESET_ID, requirePreset } from '../strategies/prompt-presets';
import type { PromptPreset } from '../prompts/types';
import { cleanupSummary } from '../summarize/cleanup';
import type { SummaryRequest } from '../summarize/types';
import type { Session } from '../types';

// A replayed compaction summarized by a language model (the configured API or a local server)
// rather than the built-in summarizer: the request is the one the compaction would send (the
// compact/ request builder over the event's request spec, the strategy's prompt preset, the
// previous step's summary first when the span follows a simulated boundary), the call is the
// caller's (a key never reaches the engine), and the answer is cleaned as the preset's agent
// cleans it before the retention scorer reads it.

/** Which step a summary is asked for, so a caller can say which compaction it is calling for. */
export interface ModelStepInfo {
  /** Index into the replay's events. */
  eventIndex: number;
  /** 0-based among the replay's summarizing steps. */
  step: number;
  label: string;
  /** The request's content hash (`hashSummaryRequest`): the key of a cache of answers. */
  hash: string;
  /** Claude Code's estimate of the request (chars / 4), for a plan of the calls. */
  estimatedTokens: number;
}

/**
 * Produces a step's summary: the model's raw answer. Throws to report the call failed (that step
 * is then not scored, the others are); an abort ends the whole chain.
 */
type ModelStepSummarizer = (request: SummaryRequest, info: ModelStepInfo) => Promise<string>;

/** The model a step's request names (the summarizer's own model id). */
export interface ModelStepOptions {
  summarize: ModelStepSummarizer;
  model: string;
}

/**
 * SHA-256 of everything a summarizer answers from (system, messages, prompt, model, output cap,
 * temperature), hex: equal requests share a cached answer.
 */
export async function hashSummaryRequest(request: SummaryRequest): Promise<string> {
  const canonical = JSON.stringify([
    request.system,
    request.messages,
    request.prompt,
    request.model,
    request.maxOutputTokens,
    request.temperature ?? null,
    request.retainedMessages ?? null,
  ]);
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(canonical));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** The request a replayed compaction would send, with the preset whose output it is cleaned by. */
export async function buildModelStepRequest(
  session: Session,
  sources: ByteSource[],
  event: ReplayEventFields,
  previousSummary: string | undefined,
  model: string,
  redaction: RedactionSettings | undefined,
  signal: AbortSignal | undefined,
): Promise<{ request: SummaryRequest; estimatedTokens: number; preset: PromptPreset }> {
  const spec = event.request;
  const preset = requirePreset(spec?.promptPresetId ?? DEFAULT_PRESET_ID);
  const built = await buildCompactionRequest(session, sources, {
    uptoEntryIndex: spec?.uptoEntryIndex ?? event.spanToEntryIndex ?? event.afterEntryIndex,
    fromEntryIndex: spec?.fromEntryIndex ?? event.spanFromEntryIndex,
    variant: spec?.variant ?? 'full',
    keepFromEntryIndex: spec?.keepFromEntryIndex,
    customInstructions: spec?.customInstructions,
    previousSummaryText: spec?.previousSummaryTokens === undefined ? undefined : previousSummary,
    excludeEntryIndices: spec?.excludeEntryIndices,
    promptPreset: spec?.promptPresetId === undefined ? undefined : preset,
    elideBase64: true,
    signal,
  });
  // Masked before it leaves the engine when redacting: the model is sent no secret.
  const request: SummaryRequest = {
    system: redaction ? maskText(built.system, redaction) : built.system,
    messages: redaction ? maskJsonValue(built.messages, redaction) : built.messages,
    prompt: redaction ? maskText(built.prompt, redaction) : built.prompt,
    model,
    maxOutputTokens: preset.maxOutputTokens,
  };
  return { request, estimatedTokens: built.estimatedTokens, preset };
}

/** A model's raw answer as the continuation would carry it (the preset's cleanup). */
export function cleanModelSummary(raw: string, preset: PromptPreset): string {
  return cleanupSummary(raw, preset.output);
}
