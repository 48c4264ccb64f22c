import { normalizeAnthropicContent } from '../shared/anthropic-blocks';
import type { DialectDescriptor } from '../descriptor';
import {
  createEntry,
  isObject,
  type NormalizedRecord,
  type RecordContext,
  type RecordExtras,
  type RecordNormalizer,
  typeName,
} from '../record';
import { CLINE_DIALECT_INFO } from './info';

// Cline's task history, `…/saoudrizwan.claude-dev/tasks/<taskId>/api_conversation_history.json`
// (docs/sources.md#fmt-cline): one JSON document, an array of Anthropic-style messages `{role, content, ts,
// modelInfo, metrics}`. Each array element is one record. Token counts (`metrics.tokens`) are not
// read yet: the session has no API calls.

/** One message of the history → one entry. Never throws: shape problems become issues. */
function normalizeClineMessage(record: unknown, ctx: RecordContext, index: number): NormalizedRecord {
  const extras: RecordExtras = {};
  const entry = createEntry(ctx, index);
  if (!isObject(record)) {
    ctx.issue('wrong-shape', 'error', `Expected a message object per array element, got ${typeName(record)}`);
    return { entry, extras };
  }
  const role = record.role;
  entry.type = typeof role === 'string' ? role : '';
  if (typeof record.ts === 'number' && Number.isFinite(record.ts)) entry.timestampMs = record.ts;
  if (isObject(record.modelInfo) && typeof record.modelInfo.modelId === 'string')
    extras.model = record.modelInfo.modelId;
  if (role !== 'user' && role !== 'assistant') {
    ctx.issue(
      'wrong-shape',
      'warning',
      `At role: expected "user" or "assistant", got ${JSON.stringify(role)}`,
      'role',
    );
    return { entry, extras };
  }
  entry.kind = role;
  entry.role = role;
  if (role === 'assistant' && extras.model !== undefined) entry.model = extras.model;
  const blocks = normalizeAnthropicContent(record.content, 'content', ctx);
  if (blocks) entry.blocks = blocks;
  else {
    ctx.issue(
      'wrong-shape',
      'error',
      `At content: expected a string or an array, got ${typeName(record.content)}`,
      'content',
    );
  }
  return { entry, extras };
}

/** Stateless per message; no record carries usage yet, so the session has no API calls. */
const clineNormalizer: RecordNormalizer = {
  dialect: 'cline',
  agent: 'Cline',
  apiCalls: 'usage-records',
  normalize: normalizeClineMessage,
};

/** The task history, with its normalizer (the page reads its info, info.ts). */
export const CLINE_DIALECT: DialectDescriptor = {
  ...CLINE_DIALECT_INFO,
  createNormalizer: () => clineNormalizer,
};
