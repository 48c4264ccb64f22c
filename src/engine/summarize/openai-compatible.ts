import { getBlocks, getToolResultText, isTextBlock, isToolResultBlock, isToolUseBlock } from './blocks';
import {
  createCancelledError,
  createHttpError,
  createMalformedStreamError,
  createNetworkError,
  createStreamBrokenError,
  isAbortError,
} from './errors';
import {
  getMessagesWithPrompt,
  type RequestMessage,
  type SummarizeOptions,
  type Summarizer,
  SummarizerError,
  type SummaryRequest,
  type SummaryResult,
} from './types';

// A local OpenAI-compatible server (Ollama, llama.cpp, LM Studio, vLLM): POST
// {baseUrl}/v1/chat/completions with stream:true, read as server-sent events. Tool calls from
// the transcript are sent as text, since local models disagree on tool-call history formats.

export const OPENAI_DEFAULT_BASE_URL = 'http://127.0.0.1:11434';
const PROVIDER = 'OpenAI-compatible server';

// The engine compiles without DOM types; these are the few parts of fetch it uses.
interface ReaderLike {
  read(): Promise<{ done: boolean; value?: Uint8Array }>;
  cancel(): Promise<void>;
}
interface ResponseLike {
  ok: boolean;
  status: number;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
  body: { getReader(): ReaderLike } | null;
}
type FetchLike = (
  url: string,
  init: { method: string; headers: Record<string, string>; body: string; signal?: AbortSignal },
) => Promise<ResponseLike>;

interface OpenAiSummarizerOptions {
  /** Server root, e.g. http://127.0.0.1:11434 (Ollama) or http://127.0.0.1:1234/v1 (LM Studio). */
  baseUrl?: string;
  /** Most local servers need none. */
  apiKey?: string;
  fetch?: FetchLike;
}

/** `${baseUrl}/v1/chat/completions`, without doubling a `/v1` the URL already ends with. */
export function getChatCompletionsUrl(baseUrl: string): string {
  const root = baseUrl.replace(/\/+$/, '');
  return /\/v1$/.test(root) ? `${root}/chat/completions` : `${root}/v1/chat/completions`;
}

interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** Renders a request message as plain text (tool calls and results inline). */
function renderMessageText(message: RequestMessage): string {
  const parts: string[] = [];
  for (const block of getBlocks(message)) {
    if (isTextBlock(block)) parts.push(block.text);
    else if (isToolUseBlock(block)) parts.push(`[${block.name} call] ${JSON.stringify(block.input ?? {})}`);
    else if (isToolResultBlock(block))
      parts.push(`[tool result${block.is_error ? ', error' : ''}] ${getToolResultText(block)}`);
    else if (block.type === 'image' || block.type === 'document') parts.push(`[${block.type}]`);
  }
  return parts.join('\n\n');
}

/** The chat/completions body for a summary request. */
export function toChatBody(request: SummaryRequest): Record<string, unknown> {
  const messages: ChatMessage[] = [];
  if (request.system) messages.push({ role: 'system', content: request.system });
  for (const m of getMessagesWithPrompt(request)) {
    const content = renderMessageText(m);
    const last = messages.at(-1);
    // Strict chat templates (llama.cpp) reject two turns of the same role in a row.
    if (last && last.role === m.role) last.content = `${last.content}\n\n${content}`;
    else messages.push({ role: m.role, content });
  }
  return {
    model: request.model,
    messages,
    max_tokens: request.maxOutputTokens,
    ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
    stream: true,
    stream_options: { include_usage: true },
  };
}

function errorDetail(body: string): string {
  try {
    const json = JSON.parse(body) as { error?: { message?: string } | string; message?: string };
    if (typeof json.error === 'string') return json.error;
    return json.error?.message ?? json.message ?? body.slice(0, 300);
  } catch {
    return body.slice(0, 300);
  }
}

interface ChunkJson {
  model?: string;
  choices?: { delta?: { content?: string | null }; finish_reason?: string | null }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
  error?: { message?: string; code?: number | string } | string;
}

/** Splits an SSE byte stream into `data:` payloads. */
async function* readSseData(reader: ReaderLike): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
    let boundary = buffer.search(/\r?\n\r?\n/);
    while (boundary >= 0) {
      const event = buffer.slice(0, boundary);
      buffer = buffer.slice(boundary).replace(/^\r?\n\r?\n/, '');
      const data = event
        .split(/\r?\n/)
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).replace(/^ /, ''))
        .join('\n');
      if (data) yield data;
      boundary = buffer.search(/\r?\n\r?\n/);
    }
    if (done) {
      const rest = buffer.trim();
      if (rest.startsWith('data:')) yield rest.slice(5).trim();
      return;
    }
  }
}

/** A summarizer that calls an OpenAI-compatible chat/completions endpoint (streaming). */
export function createOpenAiSummarizer(options: OpenAiSummarizerOptions = {}): Summarizer {
  const baseUrl = options.baseUrl ?? OPENAI_DEFAULT_BASE_URL;
  const doFetch: FetchLike = options.fetch ?? (globalThis as unknown as { fetch: FetchLike }).fetch;
  return {
    kind: 'openai',
    async summarize(
      request: SummaryRequest,
      { signal, onText }: SummarizeOptions = {},
    ): Promise<SummaryResult> {
      const started = performance.now();
      if (signal?.aborted) throw createCancelledError();
      let response: ResponseLike;
      try {
        response = await doFetch(getChatCompletionsUrl(baseUrl), {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'text/event-stream',
            ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
          },
          body: JSON.stringify(toChatBody(request)),
          signal,
        });
      } catch (error) {
        if (isAbortError(error, signal)) throw createCancelledError();
        throw createNetworkError(PROVIDER, baseUrl, error);
      }
      if (!response.ok) {
        const body = await response.text().catch(() => '');
        throw createHttpError(
          PROVIDER,
          response.status,
          errorDetail(body),
          response.headers.get('retry-after') ?? undefined,
        );
      }
      if (!response.body) throw new SummarizerError('bad-response', `${PROVIDER} sent no response body.`);
      let text = '';
      let model = request.model;
      let stopReason: string | undefined;
      let usage = { inputTokens: 0, outputTokens: 0 };
      let finished = false;
      const reader = response.body.getReader();
      try {
        for await (const data of readSseData(reader)) {
          if (data === '[DONE]') {
            finished = true;
            break;
          }
          let chunk: ChunkJson;
          try {
            chunk = JSON.parse(data) as ChunkJson;
          } catch {
            throw createMalformedStreamError(PROVIDER, data);
          }
          if (chunk.error) {
            const message =
              typeof chunk.error === 'string' ? chunk.error : (chunk.error.message ?? 'unknown error');
            const status =
              typeof chunk.error === 'object' && typeof chunk.error.code === 'number'
                ? chunk.error.code
                : 500;
            throw createHttpError(PROVIDER, status, message);
          }
          if (chunk.model) model = chunk.model;
          for (const choice of chunk.choices ?? []) {
            const delta = choice.delta?.content;
            if (delta) {
              text += delta;
              onText?.(delta);
            }
            if (choice.finish_reason) stopReason = choice.finish_reason;
          }
          if (chunk.usage) {
            usage = {
              inputTokens: chunk.usage.prompt_tokens ?? 0,
              outputTokens: chunk.usage.completion_tokens ?? 0,
            };
          }
        }
      } catch (error) {
        await reader.cancel().catch(() => undefined);
        if (error instanceof SummarizerError) throw error;
        if (isAbortError(error, signal)) throw createCancelledError();
        // The server answered: the connection broke mid-answer.
        throw createStreamBrokenError(PROVIDER, text.length, error);
      }
      if (!finished && !stopReason)
        throw createStreamBrokenError(PROVIDER, text.length, new Error('the stream ended without [DONE]'));
      return { text, usage, model, durationMs: performance.now() - started, stopReason };
    },
  };
}
