import type { TokenCount, Usage } from '../../../types';
import { isObject, type Json } from '../record';
import { isPair, isRequestBody, isResponseBody } from './info';

// Raw Anthropic Messages API traffic: what any API user (or a proxy) can paste. Three shapes of
// record, one per JSON line, per element of a JSON array, or a whole file of one:
// - a request body `{model, max_tokens, system, messages: [...], tools, context_management}`
//   (platform.claude.com "Messages" API reference);
// - a response body `{type: "message", id, role: "assistant", content, model, stop_reason, usage,
//   context_management: {applied_edits}}`, which completes the request before it;
// - a request/response pair: claude-trace's `{request: {timestamp, method, url, headers, body},
//   response: {timestamp, status_code, headers, body?, body_raw?} | null, logged_at}`
//   (badlogic/lemmy apps/claude-trace src/types.ts `RawPair`; `body_raw` is the SSE stream of a
//   streamed response), or a plain `{request: <body>, response: <body>}`.

interface Exchange {
  request?: Json;
  response?: Json;
  /** An HTTP status ≥ 400, or an `{type: "error"}` body. */
  error?: string;
  timestampMs?: number;
  /** A token-counting request (`/v1/messages/count_tokens`): not a call; its count when answered. */
  countTokens?: { inputTokens?: number };
  /** The client the request names (readClient), when it names one. */
  client?: Client;
}

/** The program that sent a request, as the request names it. */
export interface Client {
  agent: string;
  version?: string;
}

/** Claude Code's user-agent: `claude-cli/<version> (external, cli)` (claude-trace logs the headers). */
const CLAUDE_CODE_USER_AGENT = /^claude-cli\/(\d+\.\d+\.\d+)/;
/**
 * Claude Code's `metadata.user_id`: `user_<hash>_account_<uuid>_session_<uuid>` (1.x), or a JSON
 * object string with `session_id` (2.x).
 */
const CLAUDE_CODE_USER_ID = /_session_[0-9a-f-]{36}$|"session_id"/;
const CLAUDE_CODE_SYSTEM = "You are Claude Code, Anthropic's official CLI for Claude";

function headerOf(headers: unknown, name: string): string | undefined {
  if (!isObject(headers)) return undefined;
  for (const [k, v] of Object.entries(headers))
    if (k.toLowerCase() === name && typeof v === 'string') return v;
  return undefined;
}

function systemText(system: unknown): string {
  if (typeof system === 'string') return system;
  if (!Array.isArray(system)) return '';
  return system.map((b) => (isObject(b) && typeof b.text === 'string' ? b.text : '')).join('\n');
}

/**
 * Claude Code, when the request says so: its user-agent (with its version), `x-app: cli`, a
 * `claude-code-*` beta, its `metadata.user_id`, or its system prompt's first line (every request
 * Claude Code sends but its quota probe opens with it). Requests a client sends through a proxy
 * keep the body; the headers only claude-trace's pairs carry.
 */
function readClient(headers: unknown, body: Json): Client | undefined {
  const version = CLAUDE_CODE_USER_AGENT.exec(headerOf(headers, 'user-agent') ?? '')?.[1];
  if (version) return { agent: 'Claude Code', version };
  const userId = isObject(body.metadata) ? body.metadata.user_id : undefined;
  if (
    headerOf(headers, 'x-app') === 'cli' ||
    /(?:^|,)\s*claude-code-/.test(headerOf(headers, 'anthropic-beta') ?? '') ||
    (typeof userId === 'string' && CLAUDE_CODE_USER_ID.test(userId)) ||
    systemText(body.system).includes(CLAUDE_CODE_SYSTEM)
  )
    return { agent: 'Claude Code' };
  return undefined;
}

/**
 * A streamed response's SSE text → the message it builds: id, model, usage from `message_start`
 * and `message_delta`, content blocks from `content_block_start` and their deltas (Messages API
 * "Streaming": text_delta, input_json_delta, thinking_delta). One pass over the lines.
 */
function readSse(raw: string): Json | undefined {
  let message: Json | undefined;
  const blocks: Json[] = [];
  const inputJson = new Map<number, string>();
  for (const line of raw.split('\n')) {
    if (!line.startsWith('data:')) continue;
    let data: unknown;
    try {
      data = JSON.parse(line.slice(5));
    } catch {
      continue;
    }
    if (!isObject(data)) continue;
    const i = typeof data.index === 'number' ? data.index : -1;
    if (data.type === 'message_start' && isObject(data.message)) message = { ...data.message };
    else if (data.type === 'content_block_start' && isObject(data.content_block) && i >= 0)
      blocks[i] = { ...data.content_block };
    else if (data.type === 'content_block_delta' && isObject(data.delta) && isObject(blocks[i])) {
      const block = blocks[i]!;
      const d = data.delta;
      if (d.type === 'text_delta') block.text = String(block.text ?? '') + String(d.text ?? '');
      else if (d.type === 'thinking_delta')
        block.thinking = String(block.thinking ?? '') + String(d.thinking ?? '');
      else if (d.type === 'input_json_delta')
        inputJson.set(i, (inputJson.get(i) ?? '') + String(d.partial_json ?? ''));
    } else if (data.type === 'message_delta' && message) {
      if (isObject(data.usage))
        message.usage = { ...(isObject(message.usage) ? message.usage : {}), ...data.usage };
      if (isObject(data.context_management)) message.context_management = data.context_management;
      if (isObject(data.delta) && typeof data.delta.stop_reason === 'string')
        message.stop_reason = data.delta.stop_reason;
    }
  }
  for (const [i, json] of inputJson) {
    try {
      if (blocks[i]) blocks[i]!.input = JSON.parse(json);
    } catch {
      // A cut-off stream: the tool input stays as the start event gave it.
    }
  }
  if (message) message.content = blocks.filter(isObject);
  return message;
}

function timestampOf(record: Json): number | undefined {
  if (typeof record.logged_at === 'string') {
    const ms = Date.parse(record.logged_at);
    if (!Number.isNaN(ms)) return ms;
  }
  const t = isObject(record.request) ? record.request.timestamp : undefined;
  // claude-trace writes `Date.now() / 1000`: seconds, with a fraction.
  if (typeof t === 'number' && Number.isFinite(t)) return t < 1e11 ? Math.round(t * 1000) : t;
  return undefined;
}

export function readExchange(record: Json): Exchange {
  if (isPair(record)) {
    const req = record.request as Json;
    const request = isRequestBody(req.body) ? req.body : req;
    const res = record.response;
    const out: Exchange = {
      request,
      timestampMs: timestampOf(record),
      client: readClient(req.headers, request),
    };
    if (typeof req.url === 'string' && req.url.includes('/count_tokens')) {
      const counted = isObject(res) && isObject(res.body) ? res.body.input_tokens : undefined;
      out.countTokens = typeof counted === 'number' ? { inputTokens: counted } : {};
      return out;
    }
    if (isObject(res)) {
      const status = typeof res.status_code === 'number' ? res.status_code : undefined;
      const raw = res.body_raw;
      const body = isResponseBody(res.body)
        ? res.body
        : isResponseBody(res)
          ? res
          : typeof raw === 'string'
            ? readSse(raw)
            : undefined;
      if (body) out.response = body;
      const errorBody = isObject(res.body) && res.body.type === 'error' ? res.body : undefined;
      if ((status !== undefined && status >= 400) || errorBody) {
        const message = isObject(errorBody?.error) ? String(errorBody.error.message ?? '') : '';
        out.error = `HTTP ${status ?? '?'}${message ? `: ${message}` : ''}`;
      }
    }
    return out;
  }
  if (isRequestBody(record)) return { request: record, client: readClient(undefined, record) };
  return { response: record };
}

export { anthropicUsageOf as usageOf } from '../shared/anthropic-blocks';

export const contextOf = (u: Usage): TokenCount =>
  u.inputTokens + u.cacheCreationInputTokens + u.cacheReadInputTokens;
