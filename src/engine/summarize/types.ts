import type { ApiBlock, ApiMessage } from '../compact/types';
import type { TokenCount } from '../types';

// What every summarizer takes and returns. Plain data only: requests and results cross the
// worker boundary and are stored in runs.

/** Request messages in the Anthropic Messages API's shape, as the compact/ request builder makes them. */
export type RequestMessage = ApiMessage;
export type RequestBlock = ApiBlock;

/** The request a compaction sends: what the summarizer sees. */
export interface SummaryRequest {
  system: string;
  /** The span being summarized, filtered and normalized (prompt not included). */
  messages: RequestMessage[];
  /** The summarization prompt, sent as the last user message (custom instructions included). */
  prompt: string;
  model: string;
  maxOutputTokens: TokenCount;
  /** Absent: the provider's default. */
  temperature?: number;
  /** Partial compact: the first this-many messages are retained context, not to be summarized. */
  retainedMessages?: number;
}

interface SummaryUsage {
  inputTokens: TokenCount;
  outputTokens: TokenCount;
  cacheReadInputTokens?: TokenCount;
  cacheCreationInputTokens?: TokenCount;
}

export interface SummaryResult {
  /** The raw text as the summarizer produced it (tags not cleaned). */
  text: string;
  usage: SummaryUsage;
  /** Model that answered (the provider's id, `builtin` or `recorded`). */
  model: string;
  durationMs: number;
  costUsd?: number;
  stopReason?: string;
}

export interface SummarizeOptions {
  signal?: AbortSignal;
  /** Called with each text delta as it streams in. */
  onText?: (delta: string) => void;
}

export type SummarizerKind = 'builtin' | 'anthropic' | 'openai' | 'recorded';

/** One way of producing a summary; every kind has the same interface. */
export interface Summarizer {
  kind: SummarizerKind;
  summarize(request: SummaryRequest, options?: SummarizeOptions): Promise<SummaryResult>;
  /** Exact size of the request as the provider counts it (Anthropic only). */
  countTokens?(request: SummaryRequest, options?: { signal?: AbortSignal }): Promise<TokenCount>;
}

/** Why a call failed, in terms a user can act on. */
type SummarizerErrorCode =
  | 'auth'
  | 'permission'
  | 'rate-limit'
  | 'overloaded'
  | 'network'
  | 'prompt-too-long'
  | 'cancelled'
  | 'bad-request'
  | 'server'
  | 'bad-response';

/** An expected failure of a summarizer call; `message` is written for the user. */
export class SummarizerError extends Error {
  readonly code: SummarizerErrorCode;
  readonly status?: number;
  constructor(code: SummarizerErrorCode, message: string, status?: number) {
    super(message);
    this.name = 'SummarizerError';
    this.code = code;
    this.status = status;
  }
}

/** Messages the summarizer really receives: the span followed by the prompt as a user turn. */
export function getMessagesWithPrompt(request: SummaryRequest): RequestMessage[] {
  return [...request.messages, { role: 'user', content: request.prompt }];
}
