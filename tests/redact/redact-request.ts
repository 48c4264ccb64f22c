import { maskJsonValue, maskText, type RedactionSettings } from '../../src/engine/redact/mask';
import type { SummaryRequest } from '../../src/engine/summarize/types';

/** A summarizer request with the span's messages, the prompt and the system prompt masked. */
export function maskSummaryRequest(request: SummaryRequest, settings: RedactionSettings): SummaryRequest {
  const unmasked = new Set(settings.unmasked);
  return {
    ...request,
    system: maskText(request.system, unmasked),
    prompt: maskText(request.prompt, unmasked),
    messages: maskJsonValue(request.messages, unmasked),
  };
}
