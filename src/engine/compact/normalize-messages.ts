import { estimateTextTokens, TOKENS_PER_IMAGE } from '../tokens/estimate';
import type { TokenCount } from '../types';
import type { ApiBlock, ApiMessage } from './types';

// Claude Code's `WZ` (docs/sources.md#ccs-message-filtering), applied to raw
// transcript records: attachments folded into the previous user message, progress / system /
// synthetic API-error records and meta user messages dropped, consecutive user messages merged,
// streamed assistant lines merged by message id, thinking-only assistant messages dropped (`NQ0`:
// every block thinking; a response with text or a tool call keeps its thinking).

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

export interface RecordInput {
  entryIndex: number;
  /** The full parsed JSONL record (`readEntryRecord`). */
  record: unknown;
}

interface NormalizeOptions {
  /** Replace base64 payloads by an empty string (display only: the result is no longer sendable). */
  elideBase64?: boolean;
  /**
   * Merge adjacent assistant messages: records that each hold one item of a response (another
   * agent's, span-messages.ts), where Claude Code's lines of one response share a message id.
   */
  mergeAssistantItems?: boolean;
}

export interface NormalizedMessages {
  messages: ApiMessage[];
  /** For each message, the entries merged into it. */
  sources: number[][];
  entryIndices: number[];
  dropped: { entryIndex: number; reason: string }[];
}

interface Pending {
  message: { role: 'user' | 'assistant'; content: ApiBlock[] };
  messageId?: string;
  /** True for user messages made only of tool_result blocks (they may sit inside a split response). */
  toolResultsOnly: boolean;
  entries: number[];
}

function elide(block: Json, options: NormalizeOptions): ApiBlock {
  if (!options.elideBase64) return block as ApiBlock;
  if ((block.type === 'image' || block.type === 'document') && isObject(block.source)) {
    return { ...block, source: { ...block.source, data: '' } } as ApiBlock;
  }
  if (block.type === 'tool_result' && Array.isArray(block.content)) {
    return { ...block, content: block.content.map((b) => (isObject(b) ? elide(b, options) : b)) } as ApiBlock;
  }
  return block as ApiBlock;
}

function contentBlocks(content: unknown, options: NormalizeOptions): ApiBlock[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  if (!Array.isArray(content)) return [];
  return content.filter(isObject).map((b) => elide(b, options));
}

/** `convertAttachmentToSystemMessages`: an attachment record as a system-reminder text block. */
function attachmentBlock(attachment: unknown): ApiBlock | undefined {
  if (!isObject(attachment)) return undefined;
  const body = typeof attachment.content === 'string' ? attachment.content : JSON.stringify(attachment);
  return { type: 'text', text: `<system-reminder>\n${body}\n</system-reminder>` };
}

const isThinking = (b: ApiBlock) => b.type === 'thinking' || b.type === 'redacted_thinking';

/** `WZ` over records in transcript order. Records that are not messages are dropped with a reason. */
export function normalizeMessages(inputs: RecordInput[], options: NormalizeOptions = {}): NormalizedMessages {
  const result: Pending[] = [];
  const dropped: NormalizedMessages['dropped'] = [];
  const lastUser = (): Pending | undefined => {
    const last = result.at(-1);
    return last?.message.role === 'user' ? last : undefined;
  };

  for (const { entryIndex, record } of inputs) {
    if (!isObject(record)) {
      dropped.push({ entryIndex, reason: 'not a record' });
      continue;
    }
    const type = record.type;
    if (type === 'progress') {
      dropped.push({ entryIndex, reason: 'progress' });
      continue;
    }
    if (type === 'system') {
      dropped.push({ entryIndex, reason: 'system' });
      continue;
    }
    if (type === 'attachment') {
      const block = attachmentBlock(record.attachment);
      if (!block) {
        dropped.push({ entryIndex, reason: 'empty attachment' });
        continue;
      }
      const user = lastUser();
      if (user) {
        user.message.content.push(block);
        user.entries.push(entryIndex);
        user.toolResultsOnly = false;
      } else {
        result.push({
          message: { role: 'user', content: [block] },
          toolResultsOnly: false,
          entries: [entryIndex],
        });
      }
      continue;
    }
    if (type !== 'user' && type !== 'assistant') {
      dropped.push({ entryIndex, reason: `not a message (${String(type)})` });
      continue;
    }
    // `u59` (isUserMessageVisible, docs/sources.md#ccs-message-filtering): meta user messages
    // (command caveats, skill bodies, reminders the UI hides) are not summarized. A compact summary
    // is one too (`j91` makes it with `createMetaBlock`), but "Summary Chaining" has it included.
    if (type === 'user' && record.isMeta === true && record.isCompactSummary !== true) {
      dropped.push({ entryIndex, reason: 'meta' });
      continue;
    }
    const message = isObject(record.message) ? record.message : {};
    if (type === 'assistant' && record.isApiErrorMessage === true && message.model === '<synthetic>') {
      dropped.push({ entryIndex, reason: 'synthetic API error' });
      continue;
    }
    const blocks = contentBlocks(message.content, options);
    if (type === 'user') {
      const toolResultsOnly = blocks.length > 0 && blocks.every((b) => b.type === 'tool_result');
      const user = lastUser();
      if (user) {
        user.message.content.push(...blocks);
        user.entries.push(entryIndex);
        user.toolResultsOnly &&= toolResultsOnly;
      } else {
        result.push({ message: { role: 'user', content: blocks }, toolResultsOnly, entries: [entryIndex] });
      }
      continue;
    }
    // Assistant: merge into an earlier line of the same response when only tool results of that
    // response sit between (parallel tool calls streamed one block per line, docs/sources.md#fmt-usage).
    const messageId = typeof message.id === 'string' ? message.id : undefined;
    let merged = false;
    if (messageId !== undefined) {
      for (let i = result.length - 1; i >= 0; i--) {
        const candidate = result[i]!;
        if (candidate.message.role === 'assistant') {
          if (candidate.messageId === messageId) {
            candidate.message.content.push(...blocks);
            candidate.entries.push(entryIndex);
            merged = true;
          }
          break;
        }
        if (!candidate.toolResultsOnly) break;
      }
    }
    if (!merged)
      result.push({
        message: { role: 'assistant', content: blocks },
        messageId,
        toolResultsOnly: false,
        entries: [entryIndex],
      });
  }

  // Thinking-only assistant messages (`NQ0`) go; the user messages around them then merge.
  const kept: Pending[] = [];
  for (const p of options.mergeAssistantItems ? mergeAdjacentAssistants(result) : result) {
    if (p.message.role === 'assistant' && p.message.content.every(isThinking)) {
      for (const entryIndex of p.entries) dropped.push({ entryIndex, reason: 'thinking only' });
      continue;
    }
    const last = kept.at(-1);
    if (last && last.message.role === 'user' && p.message.role === 'user') {
      last.message.content.push(...p.message.content);
      last.entries.push(...p.entries);
      continue;
    }
    kept.push(p);
  }
  // Tool results of one response arrive as separate user lines: after merging, put them first
  // in their message, as the API expects (order among themselves kept).
  for (const p of kept) {
    if (p.message.role !== 'user') continue;
    const results = p.message.content.filter((b) => b.type === 'tool_result');
    if (results.length > 0 && results.length < p.message.content.length) {
      p.message.content = [...results, ...p.message.content.filter((b) => b.type !== 'tool_result')];
    }
  }
  return {
    messages: kept.map((p) => p.message),
    sources: kept.map((p) => p.entries),
    // One entry may hold several messages (a replacement history): each index once.
    entryIndices: [...new Set(kept.flatMap((p) => p.entries))].sort((a, b) => a - b),
    dropped: dropped.sort((a, b) => a.entryIndex - b.entryIndex),
  };
}

/** Adjacent assistant messages as one: a response's items, each its own record. */
function mergeAdjacentAssistants(list: Pending[]): Pending[] {
  const out: Pending[] = [];
  for (const p of list) {
    const last = out.at(-1);
    if (last && last.message.role === 'assistant' && p.message.role === 'assistant') {
      last.message.content.push(...p.message.content);
      last.entries.push(...p.entries);
    } else out.push(p);
  }
  return out;
}

/** `iI2` for a tool_result block, `gG`/`lI2` for the rest (docs/sources.md#ccs-token-counting). */
function estimateApiBlockTokens(block: ApiBlock): TokenCount {
  switch (block.type) {
    case 'text':
      return estimateTextTokens((block as { text: string }).text.length);
    case 'image':
    case 'document':
      return TOKENS_PER_IMAGE;
    case 'tool_result': {
      const content = (block as { content: unknown }).content;
      if (typeof content === 'string') return estimateTextTokens(content.length);
      if (!Array.isArray(content)) return 0;
      let total = 0;
      for (const part of content) {
        if (!isObject(part)) continue;
        if (part.type === 'text' && typeof part.text === 'string')
          total += estimateTextTokens(part.text.length);
        else if (part.type === 'image') total += TOKENS_PER_IMAGE;
      }
      return total;
    }
    default:
      return estimateTextTokens((JSON.stringify(block) ?? '').length);
  }
}

/** Claude Code's estimate of messages (before the ×4/3 safety factor of `EQ0`). */
export function estimateApiMessagesTokens(messages: ApiMessage[]): TokenCount {
  let total = 0;
  for (const m of messages) {
    if (typeof m.content === 'string') total += estimateTextTokens(m.content.length);
    else for (const b of m.content) total += estimateApiBlockTokens(b);
  }
  return total;
}
