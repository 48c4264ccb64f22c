import { getPrintableUrl } from '../redact/printable-url';
import { SummarizerError } from './types';

// User-facing wording for the failures the issue names (401, 403, 429, overloaded, network,
// prompt too long), shared by the Anthropic and OpenAI-compatible clients.

/** Provider error bodies that mean "the request does not fit the model's context". */
const PROMPT_TOO_LONG =
  /prompt is too long|context length|context_length_exceeded|maximum context|exceeds the (available )?context|too many tokens/i;

/** Maps an HTTP status (and the provider's error message) to a SummarizerError. */
export function createHttpError(
  provider: string,
  status: number,
  detail: string,
  retryAfter?: string,
): SummarizerError {
  const said = detail ? ` The server said: ${detail}` : '';
  switch (status) {
    case 401:
      return new SummarizerError(
        'auth',
        `${provider} rejected the API key (401 Unauthorized). Check the key and try again.${said}`,
        status,
      );
    case 403:
      return new SummarizerError(
        'permission',
        `${provider} refused the request (403 Forbidden): the key is not allowed to use this model or endpoint.${said}`,
        status,
      );
    case 429:
      return new SummarizerError(
        'rate-limit',
        `${provider} rate limit reached (429 Too Many Requests). Wait${retryAfter ? ` ${retryAfter} s` : ' a moment'} and run again.${said}`,
        status,
      );
    case 529:
      return new SummarizerError(
        'overloaded',
        `${provider} is overloaded (529). Try again in a minute, or pick another model.${said}`,
        status,
      );
    case 503:
      return new SummarizerError(
        'overloaded',
        `${provider} is unavailable or overloaded (503). Try again in a minute.${said}`,
        status,
      );
  }
  if ((status === 400 || status === 413) && PROMPT_TOO_LONG.test(detail)) {
    return new SummarizerError(
      'prompt-too-long',
      `The request is larger than the model's context window (${status}).${said} Pick an earlier compaction point (a smaller span) or a model whose context window is larger.`,
      status,
    );
  }
  if (status >= 500)
    return new SummarizerError('server', `${provider} failed (HTTP ${status}).${said}`, status);
  return new SummarizerError(
    'bad-request',
    `${provider} rejected the request (HTTP ${status}).${said}`,
    status,
  );
}

/** A failure to reach the server at all (DNS, refused, reset, CORS). */
export function createNetworkError(provider: string, baseUrl: string, cause: unknown): SummarizerError {
  // fetch quotes the URL it refused (`…a URL that includes credentials: http://user:pw@…`).
  const said =
    cause instanceof Error ? cause.message.replace(/\bhttps?:\/\/[^\s)'"]+/g, (u) => getPrintableUrl(u)) : '';
  const reason = said ? ` (${said})` : '';
  return new SummarizerError(
    'network',
    `Could not reach ${provider} at ${getPrintableUrl(baseUrl)}${reason}. Check the URL and your connection; in the browser the server must also allow this page's origin (CORS).`,
  );
}

/**
 * The server answered, then the answer stopped before its end (the connection closed or reset, or
 * the stream ended without its final event): reaching the server was not the problem, so this
 * says what was received and that nothing was saved, not to check the URL.
 */
export function createStreamBrokenError(
  provider: string,
  receivedChars: number,
  cause?: unknown,
): SummarizerError {
  const said = cause instanceof Error && cause.message ? ` (${cause.message})` : '';
  return new SummarizerError(
    'network',
    `The connection to ${provider} closed before the answer was complete${said}: ${receivedChars.toLocaleString('en-US')} characters came, nothing was saved. Run again.`,
  );
}

/** An event of the answer's stream that is not what the protocol says (not JSON). */
export function createMalformedStreamError(provider: string, data: string): SummarizerError {
  const shown = data.length > 120 ? `${data.slice(0, 120)}…` : data;
  return new SummarizerError(
    'bad-response',
    `${provider} sent an event that is not JSON, so the answer cannot be read${shown ? `: ${shown}` : ''}. Nothing was saved; check that the URL is the API's (not a proxy's page) and run again.`,
  );
}

export function createCancelledError(): SummarizerError {
  return new SummarizerError('cancelled', 'Cancelled.');
}

/** True when `error` is (or wraps) an abort. */
export function isAbortError(error: unknown, signal?: AbortSignal): boolean {
  if (signal?.aborted) return true;
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'APIUserAbortError');
}
