import type { MessageRecord } from '../descriptor';
import { isObject } from '../record';

// OpenCode's parts (parts.ts) as the messages a summary request is built from: a text part in
// its message's role (the entry read from it knows the role), reasoning as thinking, a file as a
// marker, a tool part as its call (the first entry read from it) and its result (the second). A
// text OpenCode left out of requests (`ignored`), message records and step, snapshot and
// compaction-request parts add nothing. Outputs a prune cleared are sent as recorded.

type Block = Record<string, unknown>;

const message = (role: 'user' | 'assistant', content: Block[]): MessageRecord[] =>
  content.length === 0 ? [] : [{ type: role, message: { role, content } }];

/** One part record as the messages the entry read from it sends. */
export function toOpenCodeMessageRecords(
  record: unknown,
  entry: { role?: string; subtype?: string },
): MessageRecord[] {
  if (!isObject(record) || typeof record.messageID !== 'string') return [];
  const role = entry.role === 'assistant' ? 'assistant' : 'user';
  const text = typeof record.text === 'string' ? record.text : '';
  switch (record.type) {
    case 'text':
      return record.ignored === true || text === '' ? [] : message(role, [{ type: 'text', text }]);
    case 'reasoning':
      return text === '' ? [] : message('assistant', [{ type: 'thinking', thinking: text }]);
    case 'file':
      return message(role, [{ type: 'text', text: `[file ${String(record.filename ?? record.url ?? '')}]` }]);
    case 'tool': {
      const state = isObject(record.state) ? record.state : {};
      const id = typeof record.callID === 'string' ? record.callID : String(record.id);
      if (entry.subtype === 'tool-result') {
        const error = state.status === 'error';
        const output = error ? state.error : state.output;
        return message('user', [
          {
            type: 'tool_result',
            tool_use_id: id,
            content: typeof output === 'string' ? output : JSON.stringify(output ?? ''),
            ...(error ? { is_error: true } : {}),
          },
        ]);
      }
      return message('assistant', [
        { type: 'tool_use', id, name: String(record.tool ?? '(unnamed)'), input: state.input ?? {} },
      ]);
    }
    default:
      return [];
  }
}
