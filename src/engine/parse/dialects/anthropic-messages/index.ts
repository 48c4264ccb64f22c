import type { Entry, LoggedContextEdits, TokenCount, Usage } from '../../../types';
import { normalizeAnthropicContent } from '../shared/anthropic-blocks';
import { describeHistoryChange, fingerprintMessage, systemKey } from './history-diff';
import { type DialectDescriptor, NO_RESTORATION } from '../descriptor';
import {
  createEntry,
  isObject,
  type Json,
  type NormalizedRecord,
  num,
  type RecordContext,
  type RecordExtras,
  type RecordNormalizer,
  typeName,
} from '../record';

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
//
// Each request is one API call. Its context is the response's usage when there is one, else
// zero usage, which the page estimates from the messages (query/usage-coverage.ts) and marks as
// estimated. A request carries its whole history, so only the messages the previous request of
// its conversation did not send become entries; when a request does not extend that history, the
// client changed it in between: an event entry (`truncate` when messages were only dropped,
// `compact` when some were replaced or edited) is added, and the request's history follows it
// whole (`resendsHistory`: the estimate restarts there). Conversations are told apart by their
// system prompt: an agent's side calls (titles, its own summary call) have their own, and are
// kept as sidechains of the conversation that carries tools.
//
// Server-side context editing: the main conversation's first `context_management.edits` are the
// session's (`SessionMeta.contextEdits`, the api-clear-tool-uses knobs), and a response's
// `applied_edits` is a clearing event. Each response reports everything cleared in its request,
// so a clear_tool_uses event names only the results newly cleared (its `cleared_tool_uses` oldest
// non-excluded results, less those cleared before) and saves the growth of `cleared_input_tokens`;
// the same clearing re-applied to a longer request, clearing nothing new, adds no event.

const MAX_DOCUMENT_BYTES = 256 * 1024 * 1024;

/** `{type: "input_tokens" | "tool_uses", value}` → its value when of `type`. */
function editValue(v: unknown, type: string): number | undefined {
  return isObject(v) &&
    v.type === type &&
    typeof v.value === 'number' &&
    Number.isFinite(v.value) &&
    v.value >= 0
    ? v.value
    : undefined;
}

/**
 * A request's `context_management.edits` (platform.claude.com "Context editing": clear_tool_uses
 * `trigger`, `keep`, `clear_at_least`, `exclude_tools`; clear_thinking `keep`; "Compaction":
 * `trigger`, `instructions`, `pause_after_compaction`). Unknown edits and fields are ignored.
 */
function readEdits(edits: unknown[]): LoggedContextEdits {
  const out: LoggedContextEdits = {};
  for (const edit of edits) {
    if (!isObject(edit) || typeof edit.type !== 'string') continue;
    if (edit.type.startsWith('clear_tool_uses')) {
      const tools = Array.isArray(edit.exclude_tools)
        ? edit.exclude_tools.filter((t): t is string => typeof t === 'string')
        : undefined;
      out.clearToolUses = {
        triggerTokens: editValue(edit.trigger, 'input_tokens'),
        keepToolUses: editValue(edit.keep, 'tool_uses'),
        clearAtLeastTokens: editValue(edit.clear_at_least, 'input_tokens'),
        excludeTools: tools,
      };
    } else if (edit.type.startsWith('clear_thinking')) {
      out.clearThinking =
        edit.keep === 'all' ? { keepAll: true } : { keepTurns: editValue(edit.keep, 'thinking_turns') };
    } else if (edit.type.startsWith('compact')) {
      out.compaction = {
        triggerTokens: editValue(edit.trigger, 'input_tokens'),
        instructions: typeof edit.instructions === 'string' ? edit.instructions : undefined,
        pauseAfterCompaction:
          typeof edit.pause_after_compaction === 'boolean' ? edit.pause_after_compaction : undefined,
      };
    }
  }
  return out;
}

/** claude-trace's log name: `.claude-trace/log-YYYY-MM-DD-HH-MM-SS.jsonl` (claude-trace's logger). */
const TRACE_NAME = /^log-\d{4}-\d{2}-\d{2}-\d{2}-\d{2}-\d{2}\.jsonl$/i;
/** Our own convention for a saved request list: `*.anthropic.jsonl` / `anthropic-messages*.jsonl`. */
const LINES_NAME = /(?:\.anthropic\.jsonl|^anthropic-messages[\w.-]*\.jsonl)$/i;
const DOCUMENT_NAME = /(?:\.anthropic\.json|^anthropic-messages[\w.-]*\.json)$/i;

const isRequestBody = (v: unknown): v is Json =>
  isObject(v) && Array.isArray(v.messages) && (typeof v.model === 'string' || 'max_tokens' in v);
const isResponseBody = (v: unknown): v is Json =>
  isObject(v) && v.type === 'message' && v.role === 'assistant' && 'content' in v;
const isPair = (v: unknown): v is Json =>
  isObject(v) &&
  isObject(v.request) &&
  (isRequestBody(v.request.body) || isRequestBody(v.request)) &&
  ('response' in v || 'logged_at' in v);

/** One record of any of the three shapes (detection). */
export const isAnthropicMessagesRecord = (v: unknown): boolean =>
  isPair(v) || isRequestBody(v) || isResponseBody(v);

interface Exchange {
  request?: Json;
  response?: Json;
  /** An HTTP status ≥ 400, or an `{type: "error"}` body. */
  error?: string;
  timestampMs?: number;
  /** A token-counting request (`/v1/messages/count_tokens`): not a call; its count when answered. */
  countTokens?: { inputTokens?: number };
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

function readExchange(record: Json): Exchange {
  if (isPair(record)) {
    const req = record.request as Json;
    const request = isRequestBody(req.body) ? req.body : req;
    const res = record.response;
    const out: Exchange = { request, timestampMs: timestampOf(record) };
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
  if (isRequestBody(record)) return { request: record };
  return { response: record };
}

function usageOf(value: unknown): Usage | undefined {
  if (!isObject(value)) return undefined;
  return {
    inputTokens: num(value.input_tokens),
    cacheCreationInputTokens: num(value.cache_creation_input_tokens),
    cacheReadInputTokens: num(value.cache_read_input_tokens),
    outputTokens: num(value.output_tokens),
  };
}

const contextOf = (u: Usage): TokenCount =>
  u.inputTokens + u.cacheCreationInputTokens + u.cacheReadInputTokens;

/** True when `held` is a non-empty prefix of `next`. */
function extendsHistory(held: readonly string[], next: readonly string[]): boolean {
  if (held.length === 0 || held.length > next.length) return false;
  for (let i = 0; i < held.length; i++) if (held[i] !== next[i]) return false;
  return true;
}

/** One conversation within the file (one system prompt). */
interface Thread {
  key: string;
  /** Fingerprints of the history held so far (since its last change). */
  held: string[];
  lastUuid?: string;
  /** Context of its latest call with usage. */
  lastContext?: TokenCount;
  /** Its latest main-thread call, as an index among the file's main-thread calls. */
  lastMainCall: number;
  hasTools: boolean;
  /** Tool uses the server's clear_tool_uses has cleared so far (its applied_edits, read in order). */
  cleared?: Set<string>;
  /** `cleared_input_tokens` of the latest applied clear_tool_uses (each response reports the whole). */
  clearedTokens?: TokenCount;
}

/**
 * The tool results clear_tool_uses may clear in a request, oldest first: every `tool_result` whose
 * tool is not in the edit's `exclude_tools` (platform.claude.com "Context editing": the oldest
 * results are cleared first, excluded tools never).
 */
function getClearableResults(messages: unknown[], exclude: readonly string[]): string[] {
  const names = new Map<string, string>();
  const out: string[] = [];
  for (const m of messages) {
    if (!isObject(m) || !Array.isArray(m.content)) continue;
    for (const b of m.content) {
      if (!isObject(b)) continue;
      if (b.type === 'tool_use' && typeof b.id === 'string' && typeof b.name === 'string')
        names.set(b.id, b.name);
      else if (b.type === 'tool_result' && typeof b.tool_use_id === 'string') {
        const name = names.get(b.tool_use_id);
        if (name === undefined || !exclude.includes(name)) out.push(b.tool_use_id);
      }
    }
  }
  return out;
}

/** A normalizer for one file of requests (it keeps each conversation's history: one per file). */
export function createAnthropicMessagesNormalizer(): RecordNormalizer {
  const threads = new Map<string, Thread>();
  let main: Thread | undefined;
  let mainCalls = 0;
  let requests = 0;
  let uuids = 0;
  /** The request still waiting for its response record, and the entry that stands for its call. */
  let pending: { thread: Thread; entry: Entry } | undefined;

  const normalize = (record: unknown, ctx: RecordContext, index: number): NormalizedRecord => {
    const extras: RecordExtras = {};
    const made: Entry[] = [];
    const next = (): Entry => {
      const e = createEntry(ctx, index + made.length);
      made.push(e);
      return e;
    };
    const finish = (): NormalizedRecord => {
      const entry = made.pop()!;
      return made.length > 0 ? { entry, extras, preceding: made } : { entry, extras };
    };
    if (!isObject(record)) {
      ctx.issue('wrong-shape', 'error', `Expected a request or response object, got ${typeName(record)}`);
      next();
      return finish();
    }
    if (!isAnthropicMessagesRecord(record)) {
      // Kept, shown and counted as unknown.
      const e = next();
      e.type = typeof record.type === 'string' ? record.type : '';
      return finish();
    }
    const exchange = readExchange(record);
    const link = (e: Entry, thread: Thread): void => {
      e.uuid = `m${++uuids}`;
      if (thread.lastUuid !== undefined) e.parentUuid = thread.lastUuid;
      thread.lastUuid = e.uuid;
      e.isSidechain = thread !== main;
      e.timestampMs = exchange.timestampMs;
    };

    if (exchange.countTokens) {
      // Claude Code counts tokens through the API before some calls: kept, not a call.
      const e = next();
      e.type = 'count_tokens';
      e.kind = 'meta';
      e.timestampMs = exchange.timestampMs;
      const n = exchange.countTokens.inputTokens;
      e.summaryText = `count_tokens: ${n === undefined ? 'no answer recorded' : `${n} input tokens`}`;
      return finish();
    }
    let thread: Thread | undefined;
    if (exchange.request) {
      const body = exchange.request;
      const tools = Array.isArray(body.tools) && body.tools.length > 0;
      const messages = body.messages as unknown[];
      const prints = messages.map(fingerprintMessage);
      // The conversation with this system prompt; under a system prompt not seen before, the one
      // with tools as this one has whose whole history it extends (a per-request header in the
      // prompt must not make every request a conversation of its own; an agent's summary call,
      // which extends the history without tools, stays apart).
      const key = systemKey(body.system);
      thread =
        threads.get(key) ??
        [...threads.values()].find((t) => t.hasTools === tools && extendsHistory(t.held, prints));
      if (!thread) {
        thread = { key, held: [], lastMainCall: -1, hasTools: false };
        threads.set(key, thread);
      }
      thread.hasTools ||= tools;
      // The conversation with tools is the agent's; before one is seen, the first one.
      if (main === undefined || (!main.hasTools && tools)) main = thread;
      if (typeof body.model === 'string') extras.model = body.model;
      pending = undefined;
      requests++;
      const held = thread.held;
      let k = 0;
      while (k < held.length && k < prints.length && held[k] === prints[k]) k++;
      let from = k;
      let summaryAt: number | undefined;
      if (k < held.length) {
        const change = describeHistoryChange(held, prints);
        const event = next();
        link(event, thread);
        event.type = 'history-change';
        event.kind = 'system';
        event.subtype = `history-${change.kind}`;
        const range = change.droppedRange;
        event.compact = {
          kind: change.kind,
          trigger: 'client',
          resendsHistory: true,
          ...(thread.lastContext !== undefined ? { preTokens: thread.lastContext } : {}),
          ...(range ? { deletedRange: range } : {}),
          ...(thread === main ? { followsFileCall: thread.lastMainCall } : {}),
        };
        const what =
          change.kind === 'truncate'
            ? `${change.dropped} of ${held.length} messages dropped`
            : change.editedInPlace === change.replaced && change.dropped === change.replaced
              ? `${change.editedInPlace} message${change.editedInPlace === 1 ? '' : 's'} edited in place`
              : `${change.dropped} of ${held.length} messages replaced by ${change.replaced} new`;
        event.summaryText = `request ${requests} does not extend the previous one: ${what}${
          range ? ` (held messages ${range[0]}–${range[1]})` : ''
        }`;
        if (change.kind === 'compact' && change.editedInPlace < change.replaced)
          summaryAt = change.firstReplaced;
        from = 0;
        thread.held = [];
      }
      const before = from === 0 && k < held.length ? new Set(held) : undefined;
      for (let i = from; i < messages.length; i++) {
        const m = messages[i];
        const e = next();
        link(e, thread);
        readMessage(m, `messages[${i}]`, e, ctx);
        // Sent again after the change, not said again: context, not a new turn.
        if (before?.has(prints[i]!)) e.isMeta = true;
        thread.held.push(prints[i]!);
        if (i === summaryAt && e.kind === 'user') {
          e.isCompactSummary = true;
          const event = made.find((x) => x.compact !== undefined);
          if (event?.compact) event.compact.summaryEntryIndex = e.index;
        }
      }
      const edits = isObject(body.context_management) ? body.context_management.edits : undefined;
      if (thread === main && Array.isArray(edits)) extras.contextEdits = readEdits(edits);
      const editTypes = Array.isArray(edits)
        ? edits.map((x) => (isObject(x) && typeof x.type === 'string' ? x.type : '?'))
        : [];
      if (!exchange.response) {
        // The call, waiting for a response record (or none: its context is estimated).
        const call = next();
        link(call, thread);
        call.type = 'request';
        call.kind = 'meta';
        call.requestId = `request-${requests}`;
        call.model = typeof body.model === 'string' ? body.model : 'unknown';
        call.usage = {
          inputTokens: 0,
          cacheCreationInputTokens: 0,
          cacheReadInputTokens: 0,
          outputTokens: 0,
        };
        call.isApiError = exchange.error !== undefined;
        call.summaryText = `request ${requests}: ${messages.length} messages, no response recorded${
          exchange.error ? ` (${exchange.error})` : ''
        }${editTypes.length ? ` · context_management: ${editTypes.join(', ')}` : ''}`;
        if (thread === main) thread.lastMainCall = mainCalls++;
        pending = exchange.error ? undefined : { thread, entry: call };
        return finish();
      }
      const exclude = Array.isArray(edits) ? (readEdits(edits).clearToolUses?.excludeTools ?? []) : [];
      readResponse(exchange.response, thread, `request-${requests}`, editTypes, true, () =>
        getClearableResults(messages, exclude),
      );
      return finish();
    }

    // A response record: it completes the request before it, when that one had none.
    const owner = pending;
    pending = undefined;
    thread = owner?.thread ?? main;
    if (!thread) {
      thread = { key: '-', held: [], lastMainCall: -1, hasTools: false };
      threads.set('-', thread);
      main = thread;
    }
    readResponse(exchange.response!, thread, owner?.entry.requestId ?? `response-${index}`, [], !owner);
    return finish();

    function readResponse(
      body: Json,
      thread: Thread,
      requestId: string,
      editTypes: string[],
      isNewCall: boolean,
      /** The request's clearable tool results, oldest first, when the request is known. */
      clearable?: () => string[],
    ): void {
      const usage = usageOf(body.usage);
      const applied = isObject(body.context_management) ? body.context_management.applied_edits : undefined;
      if (Array.isArray(applied) && applied.length > 0) {
        // Server-side context editing: the API cleared these before the model read the request
        // (docs "Context editing": applied_edits {type, cleared_tool_uses, cleared_input_tokens}).
        const total = applied.reduce<number>(
          (s, x) => s + (isObject(x) ? num(x.cleared_input_tokens) : 0),
          0,
        );
        const uses = applied.reduce<number>((s, x) => s + (isObject(x) ? num(x.cleared_tool_uses) : 0), 0);
        const names = applied.map((x) => (isObject(x) && typeof x.type === 'string' ? x.type : '?'));
        // Which results: clear_tool_uses clears the oldest ones, and each response reports all it
        // cleared in that request: the ones not cleared before are this event's, and the saving is
        // the growth of cleared_input_tokens.
        const toolEdit = applied.find(
          (x): x is Json => isObject(x) && typeof x.type === 'string' && x.type.startsWith('clear_tool_uses'),
        );
        let ids: string[] = [];
        let saved = total;
        if (toolEdit && clearable) {
          thread.cleared ??= new Set();
          const cleared = thread.cleared;
          ids = clearable()
            .slice(0, num(toolEdit.cleared_tool_uses))
            .filter((id) => !cleared.has(id));
          for (const id of ids) cleared.add(id);
          const whole = num(toolEdit.cleared_input_tokens);
          saved = total - whole + Math.max(0, whole - (thread.clearedTokens ?? 0));
          thread.clearedTokens = whole;
          // The same clearing applied again to a longer request: nothing newly cleared.
          if (ids.length === 0 && applied.length === 1) saved = -1;
        }
        const event = saved < 0 ? undefined : next();
        if (event) {
          link(event, thread);
          event.type = 'context_management';
          event.kind = 'system';
          event.subtype = 'applied_edits';
          event.microcompact = {
            trigger: names.join(', '),
            ...(usage ? { preTokens: contextOf(usage) + total } : {}),
            tokensSaved: saved,
            compactedToolIds: ids,
            clearedAttachmentUuids: [],
          };
          event.summaryText = `context_management applied ${names.join(', ')}: ${uses} tool uses, ${total} input tokens cleared${
            ids.length ? ` (${ids.length} newly)` : ''
          }`;
        }
      }
      const e = next();
      link(e, thread);
      e.type = 'message';
      e.kind = 'assistant';
      e.role = 'assistant';
      e.requestId = requestId;
      if (typeof body.id === 'string') e.messageId = isNewCall ? body.id : undefined;
      e.model = typeof body.model === 'string' ? body.model : (extras.model ?? 'unknown');
      extras.model = e.model;
      if (usage) e.usage = usage;
      else {
        ctx.issue(
          'wrong-shape',
          'warning',
          `At usage: expected an object, got ${typeName(body.usage)}`,
          'usage',
        );
        e.usage = { inputTokens: 0, cacheCreationInputTokens: 0, cacheReadInputTokens: 0, outputTokens: 0 };
      }
      if ('content' in body) readMessage(body, 'content', e, ctx, true);
      if (editTypes.length) e.summaryText = `context_management: ${editTypes.join(', ')}`;
      thread.held.push(fingerprintMessage({ role: 'assistant', content: body.content }));
      if (usage && contextOf(usage) > 0) thread.lastContext = contextOf(usage);
      if (isNewCall && thread === main) thread.lastMainCall = mainCalls++;
    }
  };

  return {
    dialect: 'anthropic-messages',
    agent: 'Anthropic Messages API',
    apiCalls: 'usage-records',
    normalize,
  };
}

/** One message `{role, content}` (or a response body, `isBody`) into `entry`. */
function readMessage(message: unknown, path: string, entry: Entry, ctx: RecordContext, isBody = false): void {
  if (!isObject(message)) {
    ctx.issue(
      'wrong-shape',
      'warning',
      `At ${path}: expected a message object, got ${typeName(message)}`,
      path,
    );
    return;
  }
  const role = message.role;
  if (!isBody) {
    entry.type = typeof role === 'string' ? role : '';
    if (role !== 'user' && role !== 'assistant') {
      ctx.issue(
        'wrong-shape',
        'warning',
        `At ${path}.role: expected "user" or "assistant", got ${JSON.stringify(role)}`,
        `${path}.role`,
      );
      return;
    }
    entry.kind = role;
    entry.role = role;
  }
  const at = isBody ? 'content' : `${path}.content`;
  const blocks = normalizeAnthropicContent(message.content, at, ctx);
  if (blocks) entry.blocks = blocks;
  else
    ctx.issue(
      'wrong-shape',
      'error',
      `At ${at}: expected a string or an array, got ${typeName(message.content)}`,
      at,
    );
}

const TRANSCRIPT = { knownSystemSubtypes: new Set(['history-truncate', 'history-compact', 'applied_edits']) };

/** Messages API requests and responses, one per JSON line (a proxy's or claude-trace's log). */
export const ANTHROPIC_MESSAGES_DIALECT: DialectDescriptor = {
  id: 'anthropic-messages',
  label: 'Anthropic Messages API requests',
  agent: 'Anthropic Messages API',
  // An API user's own context tool is the API's server-side clearing (context editing); Claude
  // Code's compaction is one agent's behaviour, not what a raw request list runs with.
  defaultStrategyId: 'api-clear-tool-uses',
  createNormalizer: createAnthropicMessagesNormalizer,
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
export const ANTHROPIC_MESSAGES_JSON_DIALECT: DialectDescriptor = {
  ...ANTHROPIC_MESSAGES_DIALECT,
  id: 'anthropic-messages-json',
  label: 'Anthropic Messages API requests (JSON array)',
  files: {
    matchName: (baseName) => DOCUMENT_NAME.test(baseName),
    matchRecord: (value) => Array.isArray(value) && isAnthropicMessagesRecord(value[0]),
    wholeJson: { maxBytes: MAX_DOCUMENT_BYTES, objectIsRecord: true },
  },
};
