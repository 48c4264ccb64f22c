import type { MessageRecord } from '../descriptor';
import { isObject, type Json } from '../record';
import { readCodexExitCode } from './exit-code';
import { ENCRYPTED_SUMMARY_TYPES, RECORD_TYPES } from './info';

// Codex CLI's rollout records as the messages a summary request is built from (FORMAT.md §11):
// each `response_item` is one item of the model's history (a message, a reasoning item, a tool
// call or its output) and a `compacted` record starts the history again (its summary, or the
// replacement history a remote compaction returned). Events, counts and turn settings add nothing.

type Block = Record<string, unknown>;

const user = (content: Block[]): MessageRecord => ({ type: 'user', message: { role: 'user', content } });
const assistant = (content: Block[]): MessageRecord => ({
  type: 'assistant',
  message: { role: 'assistant', content },
});

/** A message's content parts as text blocks (`input_text`, `output_text`); images as a marker. */
function contentOf(content: unknown): Block[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  if (!Array.isArray(content)) return [];
  const out: Block[] = [];
  for (const part of content) {
    if (!isObject(part)) continue;
    if (typeof part.text === 'string' && part.text !== '') out.push({ type: 'text', text: part.text });
    else if (part.type === 'input_image') out.push({ type: 'text', text: '[image]' });
  }
  return out;
}

/** A tool output: a string, or (later releases) content parts or `{content}`. */
function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (isObject(output) && typeof output.content === 'string') return output.content;
  if (Array.isArray(output))
    return contentOf(output)
      .map((b) => b.text)
      .join('\n');
  return JSON.stringify(output) ?? '';
}

/** `arguments` is a JSON string (docs/sources.md#fmt-codex): the call's input, parsed when it parses. */
function parseArguments(args: unknown): unknown {
  if (typeof args !== 'string') return args ?? {};
  try {
    return JSON.parse(args);
  } catch {
    return { arguments: args };
  }
}

const callId = (p: Json, fallback: string): string =>
  typeof p.call_id === 'string' ? p.call_id : typeof p.id === 'string' ? p.id : fallback;

/** A named tool call (`function_call`, `custom_tool_call`) with its input. */
const toolUse = (p: Json, input: unknown): MessageRecord =>
  assistant([
    {
      type: 'tool_use',
      id: callId(p, String(p.type)),
      name: typeof p.name === 'string' ? p.name : '(unnamed)',
      input,
    },
  ]);

/** One history item (a `response_item` payload, or an item of a replacement history). */
function itemMessages(p: Json): MessageRecord[] {
  switch (p.type) {
    case 'message': {
      const content = contentOf(p.content);
      if (content.length === 0) return [];
      if (p.role === 'assistant') return [assistant(content)];
      // Developer and system messages are instructions the model reads: user text here, in a tag
      // that keeps their role (the Messages API has none for them).
      if (p.role === 'developer' || p.role === 'system')
        return [
          user(content.map((b) => ({ type: 'text', text: `<${p.role}>\n${String(b.text)}\n</${p.role}>` }))),
        ];
      return [user(content)];
    }
    case 'reasoning': {
      // Readable only as its summary (the reasoning itself is encrypted).
      const text = [p.summary, p.content]
        .flatMap((list) => (Array.isArray(list) ? list : []))
        .map((part) => (isObject(part) && typeof part.text === 'string' ? part.text : ''))
        .filter((t) => t !== '')
        .join('\n');
      return text ? [assistant([{ type: 'thinking', thinking: text }])] : [];
    }
    case 'function_call':
      return [toolUse(p, parseArguments(p.arguments))];
    case 'custom_tool_call':
      return [toolUse(p, { input: p.input })];
    case 'local_shell_call':
      return [
        assistant([
          { type: 'tool_use', id: callId(p, 'local_shell_call'), name: 'local_shell', input: p.action ?? {} },
        ]),
      ];
    case 'web_search_call':
      // A server-side search with no output item: what it looked up, as text.
      return [assistant([{ type: 'text', text: `[web search: ${JSON.stringify(p.action ?? {})}]` }])];
    case 'function_call_output':
    case 'custom_tool_call_output':
    case 'local_shell_call_output': {
      const content = outputText(p.output);
      // A failed command says so only in its output (exit-code.ts).
      const failed =
        (isObject(p.output) && p.output.success === false) || (readCodexExitCode(content) ?? 0) !== 0;
      return [
        user([
          {
            type: 'tool_result',
            tool_use_id: callId(p, String(p.type)),
            content,
            ...(failed ? { is_error: true } : {}),
          },
        ]),
      ];
    }
    default:
      if (typeof p.type === 'string' && ENCRYPTED_SUMMARY_TYPES.has(p.type)) {
        const chars = typeof p.encrypted_content === 'string' ? p.encrypted_content.length : 0;
        return [
          user([
            {
              type: 'text',
              text: `[the summary of a remote compaction, encrypted: ${chars.toLocaleString('en-US')} characters]`,
            },
          ]),
        ];
      }
      return [];
  }
}

/** A rollout line as the messages it adds to the model's history. */
export function toCodexMessageRecords(record: unknown): MessageRecord[] {
  if (!isObject(record)) return [];
  // The early format (2025) writes the items themselves, unwrapped (normalizer.ts, earlyRecord).
  if (!('payload' in record) && typeof record.type === 'string' && !RECORD_TYPES.has(record.type))
    return itemMessages(record);
  if (!isObject(record.payload)) return [];
  const p = record.payload;
  if (record.type === 'response_item') return itemMessages(p);
  if (record.type === 'compacted') {
    // The history starts again: a local compaction's summary, or what a remote one returned.
    if (typeof p.message === 'string' && p.message !== '') return [user([{ type: 'text', text: p.message }])];
    if (Array.isArray(p.replacement_history))
      return p.replacement_history.flatMap((item) => (isObject(item) ? itemMessages(item) : []));
  }
  return [];
}
