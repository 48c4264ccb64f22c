import type { MessageRecord } from '../descriptor';
import { isObject, type Json } from '../record';

// Gemini CLI's chat messages (normalizer.ts names the record's shape and its sources) as the
// messages a summary request is built from: a `user` message's text; a `gemini` message's
// thoughts, text and tool calls, then its calls' results as the next user message (Gemini sends
// a response's function responses back in one turn). `info`, `error` and `warning` are the
// CLI's own notices, never sent.

type Block = Record<string, unknown>;

/** A `PartListUnion`'s text: a string, one part or an array of parts. */
function partsText(content: unknown): string {
  if (typeof content === 'string') return content;
  const parts = Array.isArray(content) ? content : [content];
  return parts
    .map((p) => (typeof p === 'string' ? p : isObject(p) && typeof p.text === 'string' ? p.text : ''))
    .filter((t) => t !== '')
    .join('\n');
}

/** A tool call's result parts as text: each `functionResponse.response` (or a part's text). */
function resultText(result: unknown): string {
  const parts = Array.isArray(result) ? result : result == null ? [] : [result];
  return parts
    .map((p) => {
      if (isObject(p) && isObject(p.functionResponse)) {
        const response = p.functionResponse.response;
        if (isObject(response) && typeof response.output === 'string') return response.output;
        return JSON.stringify(response ?? {});
      }
      return partsText(p);
    })
    .join('\n');
}

function geminiMessage(m: Json): MessageRecord[] {
  const content: Block[] = [];
  const results: Block[] = [];
  const thoughts = Array.isArray(m.thoughts) ? m.thoughts.filter(isObject) : [];
  const thinking = thoughts
    .map((t) => [t.subject, t.description].filter((x) => typeof x === 'string' && x !== '').join(': '))
    .filter((t) => t !== '')
    .join('\n');
  if (thinking) content.push({ type: 'thinking', thinking });
  const said = partsText(m.content);
  if (said) content.push({ type: 'text', text: said });
  for (const call of Array.isArray(m.toolCalls) ? m.toolCalls.filter(isObject) : []) {
    const id = typeof call.id === 'string' ? call.id : `${String(call.name)}@${String(m.id)}`;
    content.push({ type: 'tool_use', id, name: String(call.name ?? ''), input: call.args ?? {} });
    if (call.result !== undefined)
      results.push({
        type: 'tool_result',
        tool_use_id: id,
        content: resultText(call.result),
        ...(call.status === 'error' ? { is_error: true } : {}),
      });
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
    const said = partsText(record.content);
    return said ? [{ type: 'user', message: { role: 'user', content: [{ type: 'text', text: said }] } }] : [];
  }
  if (record.type === 'gemini') return geminiMessage(record);
  return [];
}
