import type { TokenCount } from '../types';

// The request a compaction sends to its summarizer, in the Anthropic Messages API's shape. The
// summarize layer (summarize/types.ts `SummaryRequest`) takes the same message shape.

export type ApiBlock =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string; signature?: string }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown }
  | {
      type: 'tool_result';
      tool_use_id: string;
      content: string | ApiBlock[];
      is_error?: boolean;
    }
  | { type: 'image'; source: { type: 'base64'; media_type: string; data: string } }
  | { type: 'document'; source: { type: 'base64'; media_type: string; data: string } }
  /** Any other block the transcript holds (server tools, …), passed through as recorded. */
  | { type: string; [key: string]: unknown };

export interface ApiMessage {
  role: 'user' | 'assistant';
  content: string | ApiBlock[];
}

export type RequestVariant = 'full' | 'partial' | 'subagent';

export interface CompactionRequest {
  system: string;
  /** The span after `nk` + `WZ`, without the prompt. */
  messages: ApiMessage[];
  /** The summarization prompt (custom instructions included), sent as the last user message. */
  prompt: string;
  /** Claude Code's own estimate of the whole request (`gG` per block, 2,000 per image). */
  estimatedTokens: TokenCount;
  variant: RequestVariant;
  fromEntryIndex: number;
  uptoEntryIndex: number;
  /** Entries whose content made it into `messages`, in order. */
  entryIndices: number[];
  /** Entries dropped by the filter, with the reason (progress, system, synthetic error, thinking only). */
  dropped: { entryIndex: number; reason: string }[];
  /** The prompt preset when not Claude Code's (strategies/prompt-presets.ts id). */
  presetId?: string;
  /**
   * Further summarizer calls of the same compaction (Gemini CLI's probe): each sends `messages`,
   * the previous answer as an assistant message, then its prompt. Absent: one call.
   */
  followUps?: { label: string; prompt: string; estimatedTokens: TokenCount }[];
}
