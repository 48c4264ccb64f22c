import { normalizeAnthropicContent } from '../shared/anthropic-blocks';
import type { DialectDescriptor } from '../descriptor';
import type { Entry } from '../../../types';
import {
  createEntry,
  isObject,
  type NormalizedRecord,
  type RecordContext,
  type RecordExtras,
  type RecordNormalizer,
  readTokenCount,
  typeName,
} from '../record';
import { CLINE_DIALECT_INFO } from './info';

// Cline's task history, `…/saoudrizwan.claude-dev/tasks/<taskId>/api_conversation_history.json`
// (docs/sources.md#fmt-cline): one JSON document, an array of Anthropic-style messages `{role, content, ts,
// modelInfo, metrics}`. Each array element is one record. Newer Cline writes each answer's usage on
// its assistant message, `metrics.tokens: {prompt, completion, cached}`, `prompt` the whole input
// (cached and not) and `cached` the part of it read from the cache
// (cline/cline@64fde3a39be0f0311a2c97729c8fa927b01ff8b0:src/shared/messages/metrics.ts): such a
// message is an API call (read alone; beside its UI log, the UI log's calls count, session-builder.ts).

/** An assistant message's `metrics.tokens` as its call's usage (none recorded: no call). */
function readMetrics(metrics: unknown, entry: Entry, ctx: RecordContext): void {
  if (!isObject(metrics) || metrics.tokens === undefined) return;
  const tokens = metrics.tokens;
  if (!isObject(tokens)) {
    ctx.issue(
      'wrong-shape',
      'warning',
      `At metrics.tokens: expected an object, got ${typeName(tokens)}`,
      'metrics.tokens',
    );
    return;
  }
  const prompt = readTokenCount(tokens.prompt, 'metrics.tokens.prompt', ctx);
  const cached = readTokenCount(tokens.cached, 'metrics.tokens.cached', ctx);
  const completion = readTokenCount(tokens.completion, 'metrics.tokens.completion', ctx);
  if (cached > prompt)
    ctx.issue(
      'out-of-range',
      'warning',
      `At metrics.tokens.cached: ${cached} cached of ${prompt} prompt tokens (a part of them): read as all cached`,
      'metrics.tokens.cached',
    );
  // All zero: no answer came (the real mike4567/MRA04242026 task has one, its text ending
  // "[Response interrupted by API Error]"): a failed request, not a call of context 0, as the UI
  // log's all-zero requests are (ui-messages.ts).
  if (prompt + cached + completion === 0) {
    entry.failedRequest = { reason: 'no_usage' };
    return;
  }
  entry.usage = {
    inputTokens: Math.max(0, prompt - cached),
    cacheCreationInputTokens: 0,
    cacheReadInputTokens: Math.min(cached, prompt),
    outputTokens: completion,
  };
  entry.model ??= 'unknown';
}

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
  if (role === 'assistant') readMetrics(record.metrics, entry, ctx);
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

/** Stateless per message: an assistant message with `metrics.tokens` is a call. */
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
