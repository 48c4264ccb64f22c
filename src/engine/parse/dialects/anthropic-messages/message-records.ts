import type { MessageRecord } from '../descriptor';
import { isObject } from '../record';
import { readExchange } from './exchange';

// Raw Messages API traffic as the messages a summary request is built from: an entry is one message
// of a request (only those its conversation had not sent before) or its response (normalizer.ts),
// and `Entry.recordPath` says which: the message is taken whole from the record again.

/** The message an entry was read from (`messages[i]` of the request, or the response's `content`). */
export function toApiTrafficMessageRecords(record: unknown, entry: { recordPath?: string }): MessageRecord[] {
  if (!isObject(record) || entry.recordPath === undefined) return [];
  const exchange = readExchange(record);
  let role: unknown;
  let content: unknown;
  if (entry.recordPath === 'content') {
    role = 'assistant';
    content = exchange.response?.content;
  } else {
    const i = /^messages\[(\d+)\]$/.exec(entry.recordPath)?.[1];
    const messages = exchange.request?.messages;
    const message = i !== undefined && Array.isArray(messages) ? messages[Number(i)] : undefined;
    if (!isObject(message)) return [];
    role = message.role;
    content = message.content;
  }
  if (role !== 'user' && role !== 'assistant') return [];
  const blocks =
    typeof content === 'string'
      ? content === ''
        ? []
        : [{ type: 'text', text: content }]
      : Array.isArray(content)
        ? content.filter(isObject)
        : [];
  return blocks.length === 0 ? [] : [{ type: role, message: { role, content: blocks } }];
}
