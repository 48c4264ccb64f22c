import type { Entry } from '../../../types';
import type { MessageRecord } from '../descriptor';
import { isObject } from '../record';
import { ASSISTANT_ASKS, ASSISTANT_SAYS, parseJson, TOOL_TYPES } from './ui-messages';

// A Cline UI log (ui-messages.ts) as the messages a summary request is built from, for a task
// opened as its folder or its UI log alone (the UI log is then the main file; the API history, when
// there, is kept beside as content). The person's side is what each request sent: an
// `api_req_started`'s `request` (the task, the tool results, the answers, the environment
// details), so a message the person typed is not counted twice; the model's side its reasoning,
// its words (a question's or a completion's too), the summary it wrote, and its tool calls as the
// UI shows them. A message still being streamed (`partial`) is left for its final copy.

const text = (role: 'user' | 'assistant', value: string): MessageRecord[] =>
  value === '' ? [] : [{ type: role, message: { role, content: [{ type: 'text', text: value }] } }];

/** One UI message as the messages it stands for in the conversation (`entry`: the one read from it). */
export function toClineUiMessageRecords(record: unknown, entry?: Entry): MessageRecord[] {
  if (!isObject(record) || record.partial === true) return [];
  // The task, said as `text` before the first request (read as the person's, ui-messages.ts): the
  // first request's text sends it.
  if (entry?.kind === 'user' && record.say === 'text') return [];
  const type = record.type;
  const value = type === 'say' ? record.say : record.ask;
  const body = typeof record.text === 'string' ? record.text : '';
  if (typeof value !== 'string') return [];
  if (type === 'say' && value === 'api_req_started') {
    const info = parseJson(body);
    return isObject(info) && typeof info.request === 'string' ? text('user', info.request) : [];
  }
  if (type === 'say' && value === 'reasoning')
    return body === ''
      ? []
      : [
          {
            type: 'assistant',
            message: { role: 'assistant', content: [{ type: 'thinking', thinking: body }] },
          },
        ];
  if ((type === 'say' && ASSISTANT_SAYS.has(value)) || (type === 'ask' && ASSISTANT_ASKS.has(value))) {
    const asked = type === 'ask' ? parseJson(body) : undefined;
    const words = isObject(asked) ? (asked.question ?? asked.response) : undefined;
    return text('assistant', typeof words === 'string' ? words : body);
  }
  if (type === 'ask' && (value === 'condense' || value === 'summarize_task')) return text('assistant', body);
  // A call as the UI shows it (`{tool, path, …}` JSON, a command line); its result comes back in
  // the next request's text.
  if (TOOL_TYPES.has(value)) return text('assistant', `[${value}] ${body}`);
  return [];
}
