import { type DialectInfo, NO_RESTORATION } from '../descriptor';
import { isObject, type Json } from '../record';

// Raw Anthropic Messages API traffic as two dialects: JSON lines (a proxy's or claude-trace's log)
// and one JSON array, what the page knows of them: the three record shapes (below, as detection
// and exchange.ts read them); how requests become entries is normalizer.ts's (index.ts adds it).

export const isRequestBody = (v: unknown): v is Json =>
  isObject(v) && Array.isArray(v.messages) && (typeof v.model === 'string' || 'max_tokens' in v);
export const isResponseBody = (v: unknown): v is Json =>
  isObject(v) && v.type === 'message' && v.role === 'assistant' && 'content' in v;
export const isPair = (v: unknown): v is Json =>
  isObject(v) &&
  isObject(v.request) &&
  (isRequestBody(v.request.body) || isRequestBody(v.request)) &&
  ('response' in v || 'logged_at' in v);

/** One record of any of the three shapes (detection). */
export const isAnthropicMessagesRecord = (v: unknown): boolean =>
  isPair(v) || isRequestBody(v) || isResponseBody(v);

const MAX_DOCUMENT_BYTES = 256 * 1024 * 1024;

/** claude-trace's log name: `.claude-trace/log-YYYY-MM-DD-HH-MM-SS.jsonl` (claude-trace's logger). */
const TRACE_NAME = /^log-\d{4}-\d{2}-\d{2}-\d{2}-\d{2}-\d{2}\.jsonl$/i;
/** Our own convention for a saved request list: `*.anthropic.jsonl` / `anthropic-messages*.jsonl`. */
const LINES_NAME = /(?:\.anthropic\.jsonl|^anthropic-messages[\w.-]*\.jsonl)$/i;
const DOCUMENT_NAME = /(?:\.anthropic\.json|^anthropic-messages[\w.-]*\.json)$/i;

const TRANSCRIPT = { knownSystemSubtypes: new Set(['history-truncate', 'history-compact', 'applied_edits']) };

/** Messages API requests and responses, one per JSON line (a proxy's or claude-trace's log). */
export const ANTHROPIC_MESSAGES_DIALECT_INFO: DialectInfo = {
  id: 'anthropic-messages',
  label: 'Anthropic Messages API requests',
  agent: 'Anthropic Messages API',
  // An API user's own context tool is the API's server-side clearing (context editing); Claude
  // Code's compaction is one agent's behaviour, not what a raw request list runs with.
  defaultStrategyId: 'api-clear-tool-uses',
  parsed: true,
  restoration: NO_RESTORATION,
  files: {
    location: 'a proxy log, or claude-trace: .claude-trace/log-<date>.jsonl',
    matchName: (baseName) => TRACE_NAME.test(baseName) || LINES_NAME.test(baseName),
    matchRecord: isAnthropicMessagesRecord,
    folderFile: (path) => /(?:^|\/)\.claude-trace\/log-[\d-]+\.jsonl$/i.test(path),
  },
  transcript: TRANSCRIPT,
};

/**
 * The same records as one JSON array (or, named so, one pretty-printed request; unnamed, that one
 * is read by the line dialect above as the file's one record).
 */
export const ANTHROPIC_MESSAGES_JSON_DIALECT_INFO: DialectInfo = {
  ...ANTHROPIC_MESSAGES_DIALECT_INFO,
  id: 'anthropic-messages-json',
  label: 'Anthropic Messages API requests (JSON array)',
  files: {
    matchName: (baseName) => DOCUMENT_NAME.test(baseName),
    matchRecord: (value) => Array.isArray(value) && isAnthropicMessagesRecord(value[0]),
    wholeJson: { maxBytes: MAX_DOCUMENT_BYTES, objectIsRecord: true },
  },
};
