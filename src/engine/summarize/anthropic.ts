import type Anthropic from '@anthropic-ai/sdk';
import { getBlocks, getToolResultText, isTextBlock, isToolResultBlock, isToolUseBlock } from './blocks';
import {
  createCancelledError,
  createHttpError,
  createMalformedStreamError,
  createNetworkError,
  createStreamBrokenError,
  isAbortError,
} from './errors';
import { computeCostUsd } from '../cost/prices';
import {
  getMessagesWithPrompt,
  type RequestMessage,
  type SummarizeOptions,
  type Summarizer,
  SummarizerError,
  type SummaryRequest,
  type SummaryResult,
} from './types';

// The Anthropic Messages API through @anthropic-ai/sdk, in the browser or in Node. The SDK is
// loaded with import() on first use so the engine core never pulls it in. The key lives only in
// the client object; it is never logged, returned or stored by this module.

export const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com';
export const ANTHROPIC_DEFAULT_MODEL = 'claude-sonnet-4-6';
const PROVIDER = 'Anthropic';

interface AnthropicSummarizerOptions {
  apiKey: string;
  /** Default https://api.anthropic.com; tests point it at the local mock. */
  baseUrl?: string;
}

type MessageParam = Anthropic.MessageParam;
type ToolDef = Anthropic.Tool;

/**
 * A transcript's tool blocks, made acceptable to the API: tool_use must be answered by a
 * tool_result in the next message and vice versa (the span's edges can cut a pair); unpaired
 * blocks become text. Returns the tool names used, which must be declared.
 */
function toAnthropicMessages(messages: RequestMessage[]): {
  messages: MessageParam[];
  toolNames: string[];
} {
  const blocks = messages.map(getBlocks);
  const answered = (i: number, id: string) =>
    messages[i + 1]?.role === 'user' &&
    (blocks[i + 1] ?? []).some((b) => isToolResultBlock(b) && b.tool_use_id === id);
  const asked = (i: number, id: string) =>
    messages[i - 1]?.role === 'assistant' &&
    (blocks[i - 1] ?? []).some((b) => isToolUseBlock(b) && b.id === id);
  const toolNames = new Set<string>();
  const out: MessageParam[] = messages.map((message, i) => {
    const content: Anthropic.ContentBlockParam[] = [];
    for (const block of blocks[i]!) {
      if (isTextBlock(block)) {
        if (block.text.trim()) content.push({ type: 'text', text: block.text });
      } else if (isToolUseBlock(block)) {
        if (message.role === 'assistant' && answered(i, block.id)) {
          toolNames.add(block.name);
          content.push({ type: 'tool_use', id: block.id, name: block.name, input: block.input ?? {} });
        } else
          content.push({ type: 'text', text: `[${block.name} call] ${JSON.stringify(block.input ?? {})}` });
      } else if (isToolResultBlock(block)) {
        const text = getToolResultText(block);
        if (message.role === 'user' && asked(i, block.tool_use_id)) {
          content.push({
            type: 'tool_result',
            tool_use_id: block.tool_use_id,
            content: text,
            ...(block.is_error ? { is_error: true } : {}),
          });
        } else
          content.push({ type: 'text', text: `[tool result${block.is_error ? ', error' : ''}] ${text}` });
      } else if (block.type === 'image' || block.type === 'document') {
        // Recorded images are sent as placeholders: their base64 is rarely what a summary needs.
        content.push({ type: 'text', text: `[${block.type}]` });
      }
      // Thinking blocks are dropped: their signatures do not survive a changed history.
    }
    if (content.length === 0) content.push({ type: 'text', text: '(empty)' });
    return { role: message.role, content };
  });
  return { messages: out, toolNames: [...toolNames] };
}

function toolDefinitions(names: string[]): ToolDef[] {
  return names.map((name) => ({
    name,
    description: 'A tool the agent used in this conversation. Do not call it.',
    input_schema: { type: 'object' as const },
  }));
}

/** The Messages API body for a summary request (shared by create, stream and count_tokens). */
export function toAnthropicParams(request: SummaryRequest): Anthropic.MessageCreateParamsNonStreaming {
  const { messages, toolNames } = toAnthropicMessages(getMessagesWithPrompt(request));
  return {
    model: request.model,
    max_tokens: request.maxOutputTokens,
    ...(request.system ? { system: request.system } : {}),
    ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
    messages,
    // Tool blocks in the history must be declared; the summary call itself may not use them.
    ...(toolNames.length
      ? { tools: toolDefinitions(toolNames), tool_choice: { type: 'none' as const } }
      : {}),
  };
}

interface SdkErrorLike {
  name?: string;
  status?: number;
  message?: string;
  apiMessage?: string | null;
  type?: string | null;
  error?: { error?: { type?: string; message?: string } };
  headers?: { get?(name: string): string | null };
}

/** How far a streamed answer got when it failed: whether the server answered, what text came. */
interface StreamProgress {
  connected: boolean;
  receivedChars: number;
}

/** Maps an SDK error to a SummarizerError with a message a user can act on. */
function toSummarizerError(
  error: unknown,
  baseUrl: string,
  signal?: AbortSignal,
  progress?: StreamProgress,
): SummarizerError {
  if (error instanceof SummarizerError) return error;
  if (isAbortError(error, signal)) return createCancelledError();
  // The SDK parses each event with JSON.parse and wraps its SyntaxError in an AnthropicError.
  const isSyntax = (x: unknown) => (x as { name?: string } | undefined)?.name === 'SyntaxError';
  if (isSyntax(error) || isSyntax((error as { cause?: unknown } | undefined)?.cause))
    return createMalformedStreamError(PROVIDER, '');
  // The answer had begun: the connection broke (or the stream ended) mid-answer, not "could not reach".
  const broken = (cause: unknown) =>
    progress?.connected ? createStreamBrokenError(PROVIDER, progress.receivedChars, cause) : undefined;
  const e = (error ?? {}) as SdkErrorLike;
  const type = e.type ?? e.error?.error?.type;
  const detail = e.apiMessage ?? e.error?.error?.message ?? e.message ?? '';
  if (e.name === 'APIConnectionError' || e.name === 'APIConnectionTimeoutError')
    return broken(error) ?? createNetworkError(PROVIDER, baseUrl, error);
  if (typeof e.status === 'number')
    return createHttpError(PROVIDER, e.status, detail, e.headers?.get?.('retry-after') ?? undefined);
  // Errors sent inside the event stream carry a type but no HTTP status.
  if (type === 'overloaded_error') return createHttpError(PROVIDER, 529, detail);
  if (type === 'rate_limit_error') return createHttpError(PROVIDER, 429, detail);
  if (type === 'invalid_request_error') return createHttpError(PROVIDER, 400, detail);
  // A connection dropped mid-stream: the SDK wraps fetch's TypeError ("terminated" in Node,
  // "network error" in browsers).
  const cause = (error as { cause?: unknown } | undefined)?.cause;
  if (
    error instanceof TypeError ||
    cause instanceof TypeError ||
    /terminated|network|socket|ECONNRESET/i.test(detail)
  ) {
    const said = cause instanceof Error ? cause : error;
    return broken(said) ?? createNetworkError(PROVIDER, baseUrl, said);
  }
  // The SDK's "stream ended without producing a Message…": the stream closed cleanly, too early.
  if (progress?.connected && /stream ended/i.test(detail))
    return createStreamBrokenError(PROVIDER, progress.receivedChars);
  return new SummarizerError('bad-response', `${PROVIDER} call failed: ${detail || String(error)}`);
}

async function createClient(options: AnthropicSummarizerOptions): Promise<Anthropic> {
  const { default: AnthropicClient } = await import('@anthropic-ai/sdk');
  return new AnthropicClient({
    apiKey: options.apiKey,
    baseURL: options.baseUrl ?? ANTHROPIC_DEFAULT_BASE_URL,
    dangerouslyAllowBrowser: true,
    maxRetries: 0,
    // The SDK logs a malformed event's raw text to the console (stderr in the CLI), where a server
    // that echoes the key would print it; the error it throws is reported, masked, instead.
    logLevel: 'off',
  });
}

/** A summarizer that calls the Anthropic Messages API (streaming). */
export function createAnthropicSummarizer(options: AnthropicSummarizerOptions): Summarizer {
  const baseUrl = options.baseUrl ?? ANTHROPIC_DEFAULT_BASE_URL;
  if (!options.apiKey)
    throw new SummarizerError('auth', 'An Anthropic API key is needed for this summarizer.');
  let client: Promise<Anthropic> | undefined;
  const getClient = () => (client ??= createClient(options));
  return {
    kind: 'anthropic',
    async summarize(
      request: SummaryRequest,
      { signal, onText }: SummarizeOptions = {},
    ): Promise<SummaryResult> {
      const started = performance.now();
      const progress: StreamProgress = { connected: false, receivedChars: 0 };
      try {
        if (signal?.aborted) throw createCancelledError();
        const sdk = await getClient();
        const stream = sdk.messages.stream(toAnthropicParams(request), { signal });
        stream.on('connect', () => {
          progress.connected = true;
        });
        stream.on('text', (delta: string) => {
          progress.receivedChars += delta.length;
          onText?.(delta);
        });
        const message = await stream.finalMessage();
        const text = message.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
        const usage = {
          inputTokens: message.usage.input_tokens,
          outputTokens: message.usage.output_tokens,
          cacheReadInputTokens: message.usage.cache_read_input_tokens ?? 0,
          cacheCreationInputTokens: message.usage.cache_creation_input_tokens ?? 0,
        };
        return {
          text,
          usage,
          model: message.model,
          durationMs: performance.now() - started,
          costUsd: computeCostUsd(message.model || request.model, usage),
          stopReason: message.stop_reason ?? undefined,
        };
      } catch (error) {
        throw toSummarizerError(error, baseUrl, signal, progress);
      }
    },
    async countTokens(request: SummaryRequest, { signal } = {}): Promise<number> {
      try {
        const sdk = await getClient();
        const { model, system, messages, tools } = toAnthropicParams(request);
        const result = await sdk.messages.countTokens({ model, system, messages, tools }, { signal });
        return result.input_tokens;
      } catch (error) {
        throw toSummarizerError(error, baseUrl, signal);
      }
    },
  };
}
