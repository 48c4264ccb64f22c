import type { MessageRecord } from '../descriptor';
import { isObject, type Json } from '../record';
import { partsText, resultText } from './normalizer';

// Gemini CLI's chat messages (normalizer.ts names the record's shape and its sources) as the
// messages a summary request is built from: a `user` message's text; a `gemini` message's
// thoughts, text and tool calls, then its calls' results as the next user message (Gemini sends
// a response's function responses back in one turn). `info`, `error` and `warning` are the
// CLI's own notices, never sent.

type Block = Record<string, unknown>;

// The parse's readers of a message's parts and a call's result, whole (no preview cut).
const textOf = (content: unknown): string => partsText(content, Number.POSITIVE_INFINITY).text;

function geminiMessage(m: Json): MessageRecord[] {
  const content: Block[] = [];
  const results: Block[] = [];
  const thoughts = Array.isArray(m.thoughts) ? m.thoughts.filter(isObject) : [];
  const thinking = thoughts
    .map((t) => [t.subject, t.description].filter((x) => typeof x === 'string' && x !== '').join(': '))
    .filter((t) => t !== '')
    .join('\n');
  if (thinking) content.push({ type: 'thinking', thinking });
  const said = textOf(m.content);
  if (said) content.push({ type: 'text', text: said });
  for (const call of Array.isArray(m.toolCalls) ? m.toolCalls.filter(isObject) : []) {
    const id = typeof call.id === 'string' ? call.id : `${String(call.name)}@${String(m.id)}`;
    content.push({ type: 'tool_use', id, name: String(call.name ?? ''), input: call.args ?? {} });
    if (call.result !== undefined) {
      const result = resultText(call.result, Number.POSITIVE_INFINITY);
      results.push({
        type: 'tool_result',
        tool_use_id: id,
        content: result.text,
        ...(result.isError || call.status === 'error' ? { is_error: true } : {}),
      });
    }
  }
  const out: MessageRecord[] = [];
  if (content.length > 0) out.push({ type: 'assistant', message: { role: 'assistant', content } });
  if (results.length > 0) out.push({ type: 'user', message: { role: 'user', content: results } });
  return out;
}

/** One chat message record as the messages it sends. */
export function toGeminiMessageRecords(record: unknown): MessageRecord[] {
  if (!isObject(record)) return [];
  if (record.type === 'user') {
    const said = textOf(record.content);
    return said ? [{ type: 'user', message: { role: 'user', content: [{ type: 'text', text: said }] } }] : [];
  }
  if (record.type === 'gemini') return geminiMessage(record);
  return [];
}
