import type { MessageRecord } from '../descriptor';
import { isObject, type Json } from '../record';

// pi's session entries as the messages a summary request is built from (normalizer.ts names the
// entry types and roles, with their sources): user, assistant and tool results as pi sends them,
// `!command` output unless excluded, custom and summary messages as user text; a compaction's
// and a branch summary's text too. Settings, labels and extension state are never sent.

type Block = Record<string, unknown>;

const user = (content: Block[]): MessageRecord[] =>
  content.length === 0 ? [] : [{ type: 'user', message: { role: 'user', content } }];
const text = (value: unknown): Block[] =>
  typeof value === 'string' && value !== '' ? [{ type: 'text', text: value }] : [];

/** Content parts (`text`, `image`, `thinking`, `toolCall`) as the API's blocks. */
function blocksOf(content: unknown): Block[] {
  if (typeof content === 'string') return text(content);
  if (!Array.isArray(content)) return [];
  const out: Block[] = [];
  for (const part of content) {
    if (!isObject(part)) continue;
    if (part.type === 'text') out.push(...text(part.text));
    else if (part.type === 'thinking' && typeof part.thinking === 'string')
      out.push({ type: 'thinking', thinking: part.thinking });
    else if (part.type === 'toolCall')
      out.push({
        type: 'tool_use',
        id: String(part.id ?? ''),
        name: String(part.name ?? ''),
        input: part.arguments ?? {},
      });
    else if (part.type === 'image') out.push({ type: 'text', text: '[image]' });
  }
  return out;
}

function messageOf(m: Json): MessageRecord[] {
  switch (m.role) {
    case 'user':
      return user(blocksOf(m.content));
    case 'assistant': {
      const content = blocksOf(m.content);
      return content.length === 0 ? [] : [{ type: 'assistant', message: { role: 'assistant', content } }];
    }
    case 'toolResult': {
      const parts = blocksOf(m.content).filter((b) => b.type === 'text');
      return user([
        {
          type: 'tool_result',
          tool_use_id: String(m.toolCallId ?? ''),
          content: parts.map((b) => b.text).join('\n'),
          ...(m.isError === true ? { is_error: true } : {}),
        },
      ]);
    }
    case 'bashExecution':
      return m.excludeFromContext === true
        ? []
        : user(text(`$ ${String(m.command ?? '')}\n${String(m.output ?? '')}`));
    case 'hookMessage':
    case 'custom':
      return user(blocksOf(m.content));
    case 'branchSummary':
    case 'compactionSummary':
      return user(text(m.summary));
    default:
      return [];
  }
}

/** One pi session entry as the messages it sends. */
export function toPiMessageRecords(record: unknown): MessageRecord[] {
  if (!isObject(record)) return [];
  switch (record.type) {
    case 'message':
      return isObject(record.message) ? messageOf(record.message) : [];
    case 'compaction':
    case 'branch_summary':
      return user(text(record.summary));
    case 'custom_message':
      return user(blocksOf(record.content));
    default:
      return [];
  }
}
