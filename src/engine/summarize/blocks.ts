import { estimateApiMessagesTokens } from '../compact/normalize-messages';
import { estimateTextTokens } from '../tokens/estimate';
import type { TokenCount } from '../types';
import type { RequestBlock, RequestMessage, SummaryRequest } from './types';

// Typed views of request blocks. `ApiBlock` keeps unknown block types as they were recorded, so
// narrowing on `type` alone does not check the fields; these guards do.

type TextBlock = { type: 'text'; text: string };
export type ToolUseBlock = { type: 'tool_use'; id: string; name: string; input: unknown };
export type ToolResultBlock = {
  type: 'tool_result';
  tool_use_id: string;
  content: unknown;
  is_error?: boolean;
};

type Loose = { type: string; [key: string]: unknown };

export function isTextBlock(block: RequestBlock): block is TextBlock {
  return block.type === 'text' && typeof (block as Loose).text === 'string';
}

export function isToolUseBlock(block: RequestBlock): block is ToolUseBlock {
  const b = block as Loose;
  return b.type === 'tool_use' && typeof b.id === 'string' && typeof b.name === 'string';
}

export function isToolResultBlock(block: RequestBlock): block is ToolResultBlock & RequestBlock {
  return block.type === 'tool_result' && typeof (block as Loose).tool_use_id === 'string';
}

/** A message's content as blocks. */
export function getBlocks(message: RequestMessage): RequestBlock[] {
  return typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
}

/** The text of a tool result (text parts joined; images and documents as placeholders). */
export function getToolResultText(block: ToolResultBlock): string {
  const content = block.content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: unknown) => {
      const p = part as Loose;
      if (p?.type === 'text' && typeof p.text === 'string') return p.text;
      if (p?.type === 'image' || p?.type === 'document') return `[${p.type}]`;
      return '';
    })
    .filter(Boolean)
    .join('\n');
}

/**
 * A summary request's size by Claude Code's estimate (its messages, the prompt and the system
 * prompt): the figure the Summaries view shows for the request, and the built-in summarizer's
 * input, which sends nothing to count (it once counted only the text and said 33,651 where the
 * request above it said 43,390 on a real 2.1.81 compaction: thinking, images and tool calls apart).
 */
export function estimateRequestTokens(
  request: Pick<SummaryRequest, 'messages' | 'prompt' | 'system'>,
): TokenCount {
  return (
    estimateApiMessagesTokens(request.messages) +
    estimateTextTokens(request.prompt.length) +
    estimateTextTokens(request.system.length)
  );
}
