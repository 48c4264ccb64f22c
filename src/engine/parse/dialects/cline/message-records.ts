import type { MessageReader, MessageRecord } from '../descriptor';
import { isObject } from '../record';
import { TOOL_RESULT_TEXT } from './info';

// A Cline task's API history (api-history.ts) as the messages a summary request is built from:
// its messages are the Anthropic API's already. Where Cline wrote a call's result as user text
// ("[read_file for 'x'] Result: …", its fallback when it cannot map a call id: api-history.ts,
// pairTextResults), the text becomes the tool_result of the call before it, in order, so the
// request pairs every call with its result as the API requires.

type Block = Record<string, unknown>;

export function createClineMessageReader(): MessageReader {
  let uses: string[] = [];
  return (record, entry): MessageRecord[] => {
    // A truncation read from the history's figures is an entry of its own, not a message.
    if (entry.type === 'truncation' || !isObject(record)) return [];
    const role = record.role;
    if (role !== 'user' && role !== 'assistant') return [];
    let content: Block[] =
      typeof record.content === 'string'
        ? [{ type: 'text', text: record.content }]
        : Array.isArray(record.content)
          ? record.content.filter(isObject)
          : [];
    if (role === 'assistant') {
      uses = content.flatMap((b) => (b.type === 'tool_use' && typeof b.id === 'string' ? [b.id] : []));
      return content.length === 0 ? [] : [{ type: 'assistant', message: { role, content } }];
    }
    content = pairResults(content, uses);
    uses = [];
    return content.length === 0 ? [] : [{ type: 'user', message: { role, content } }];
  };
}

/** Text results after a call's message, as that call's tool_result blocks; their output blocks joined. */
function pairResults(blocks: Block[], uses: readonly string[]): Block[] {
  const answered = new Set(blocks.flatMap((b) => (b.type === 'tool_result' ? [b.tool_use_id] : [])));
  const open = uses.filter((id) => !answered.has(id));
  const out: Block[] = [];
  let next = 0;
  let result: { type: 'tool_result'; tool_use_id: string; content: string } | undefined;
  for (const b of blocks) {
    const text = b.type === 'text' && typeof b.text === 'string' ? b.text : undefined;
    if (text !== undefined && next < open.length && TOOL_RESULT_TEXT.test(text)) {
      result = { type: 'tool_result', tool_use_id: open[next++]!, content: text };
      out.push(result);
      continue;
    }
    // Older releases write the header alone and the output in the blocks after it.
    if (result && text !== undefined && !text.startsWith('<environment_details>')) {
      result.content = `${result.content}\n${text}`;
      continue;
    }
    result = undefined;
    out.push(b);
  }
  // The API takes a message's tool results first.
  return [...out.filter((b) => b.type === 'tool_result'), ...out.filter((b) => b.type !== 'tool_result')];
}
