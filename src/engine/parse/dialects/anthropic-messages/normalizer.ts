import type { Entry, TokenCount } from '../../../types';
import {
  createEntry,
  isObject,
  type Json,
  type NormalizedRecord,
  type RecordContext,
  type RecordExtras,
  type RecordNormalizer,
  typeName,
} from '../record';
import { normalizeAnthropicContent } from '../shared/anthropic-blocks';
import { getClearableResults, readAppliedEdits, readEdits } from './context-edits';
import { type Client, contextOf, readExchange, usageOf } from './exchange';
import { isAnthropicMessagesRecord } from './info';
import { describeHistoryChange, fingerprintMessage, systemKey } from './history-diff';

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

// Side calls: a request that asks for one token is a probe (Claude Code's quota check: haiku, no
// system prompt, `max_tokens: 1`, "quota"), and a request of a client known to send tools with
// every main-loop request (Claude Code) that sends none is a side call (its topic detection per
// prompt, titles); neither leads the file. A side conversation keeps its own history, and a side
// request that does not extend it starts over: only the main conversation's history changes are
// events (a side call's is a new one-off question, not a compaction).
//
// Claude Code's summary request (`/compact` or auto-compact) is the one whose last user message
// opens with its summary prompt (docs/sources.md#cc-prompt-1, #cc-prompt-2): a side call of its
// own, and the main conversation's next change of history is that compaction, its trigger read
// from where the request came (summaryTrigger).

/** The opening of Claude Code's summary prompts, full and partial (docs/sources.md#cc-prompt-1, #cc-prompt-2). */
const SUMMARY_PROMPT_OPENING =
  /^\s*Your task is to create a detailed summary of the (?:conversation so far|RECENT portion)/;

/**
 * Below this share of the window, a Claude Code summary request between turns is a manual
 * `/compact`: ours (auto-compact fires only near the window: at about the window less a 13,000
 * buffer and the output reserve, docs/sources.md#cc-prompt-1 and the claude-code strategy's
 * thresholds, over 80% of 200,000 in every profile).
 */
const MANUAL_BELOW_WINDOW_SHARE = 0.6;
/** Claude Code's window for the models a trace names, unless a 1M beta is asked for (ours: the 200k default). */
const CLAUDE_CODE_WINDOW_TOKENS = 200_000;

/** The text of a message: its string content, or its text blocks joined. */
function messageText(message: unknown): string {
  if (!isObject(message)) return '';
  if (typeof message.content === 'string') return message.content;
  if (!Array.isArray(message.content)) return '';
  return message.content.map((b) => (isObject(b) && b.type === 'text' ? String(b.text) : '')).join('\n');
}

/** True when the request is Claude Code's summary request (its last message is the summary prompt). */
function isSummaryRequest(messages: unknown[]): boolean {
  const last = messages.at(-1);
  return isObject(last) && last.role === 'user' && SUMMARY_PROMPT_OPENING.test(messageText(last));
}

/**
 * Manual or automatic, from the summary request: its history ending in a tool result means it
 * came between a tool's result and the next call (only auto-compact fires there); between turns,
 * a main context far under the window is a `/compact` (auto-compact fires only near it).
 */
function summaryTrigger(
  messages: unknown[],
  mainContext: TokenCount | undefined,
): { trigger: string; why: string } {
  const before = messages.at(-2);
  const midTurn =
    isObject(before) &&
    before.role === 'user' &&
    Array.isArray(before.content) &&
    before.content.some((b) => isObject(b) && b.type === 'tool_result');
  if (midTurn)
    return { trigger: 'auto', why: 'between a tool result and the next call, where only auto-compact fires' };
  if (mainContext === undefined)
    return { trigger: 'auto', why: 'no context recorded before it; auto by default' };
  const pct = Math.round((mainContext / CLAUDE_CODE_WINDOW_TOKENS) * 100);
  return mainContext < CLAUDE_CODE_WINDOW_TOKENS * MANUAL_BELOW_WINDOW_SHARE
    ? { trigger: 'manual', why: `between turns at ${pct}% of the window, far under auto-compact: a /compact` }
    : { trigger: 'auto', why: `between turns at ${pct}% of the window, near auto-compact` };
}

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

/** A normalizer for one file of requests (it keeps each conversation's history: one per file). */
export function createAnthropicMessagesNormalizer(): RecordNormalizer {
  const threads = new Map<string, Thread>();
  let main: Thread | undefined;
  let mainCalls = 0;
  let requests = 0;
  let uuids = 0;
  /** The request still waiting for its response record, and the entry that stands for its call. */
  let pending: { thread: Thread; entry: Entry } | undefined;
  /** The client the requests name (Claude Code), once one does. */
  let client: Client | undefined;
  /** Claude Code's latest summary request, until the main conversation's change that follows it. */
  let summary: { request: number; trigger: string; why: string } | undefined;

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
    if (exchange.client && (client === undefined || (exchange.client.version && !client.version)))
      client = exchange.client;
    if (client) {
      extras.agent = client.agent;
      if (client.version) extras.version = client.version;
    }
    if (exchange.request) {
      const body = exchange.request;
      const tools = Array.isArray(body.tools) && body.tools.length > 0;
      const messages = body.messages as unknown[];
      const prints = messages.map(fingerprintMessage);
      const isSummary = client?.agent === 'Claude Code' && isSummaryRequest(messages);
      // A probe, a tool-less call of a client whose main loop sends tools, a summary request:
      // side calls, never the main conversation.
      const side = body.max_tokens === 1 || isSummary || (client !== undefined && !tools);
      // The conversation with this system prompt; under a system prompt not seen before, the one
      // with tools as this one has whose whole history it extends (a per-request header in the
      // prompt must not make every request a conversation of its own; an agent's summary call,
      // which extends the history without tools, stays apart).
      const key = isSummary ? 'summary-request' : systemKey(body.system);
      thread =
        threads.get(key) ??
        [...threads.values()].find(
          (t) => t.hasTools === tools && t.key !== 'summary-request' && extendsHistory(t.held, prints),
        );
      if (!thread) {
        thread = { key, held: [], lastMainCall: -1, hasTools: false };
        threads.set(key, thread);
      }
      thread.hasTools ||= tools;
      // The conversation with tools is the agent's; before one is seen, the first one not a side call.
      if (!side && (main === undefined || (!main.hasTools && tools))) main = thread;
      if (isSummary) {
        summary = { request: requests + 1, ...summaryTrigger(messages, main?.lastContext) };
      }
      if (typeof body.model === 'string') extras.model = body.model;
      pending = undefined;
      requests++;
      const held = thread.held;
      let k = 0;
      while (k < held.length && k < prints.length && held[k] === prints[k]) k++;
      let from = k;
      let summaryAt: number | undefined;
      /** Held messages the request re-sends changed in place: only they are read again. */
      let edited: Set<number> | undefined;
      /** The request's messages before this index re-send the held history (edited or not). */
      let resentEnd = 0;
      if (k < held.length && thread !== main) {
        // A side call that does not extend the one before it: a new question of its own.
        from = 0;
        thread.held = [];
      } else if (k < held.length) {
        const change = describeHistoryChange(held, prints);
        const after = change.kind === 'compact' ? summary : undefined;
        if (after) summary = undefined;
        const event = next();
        link(event, thread);
        event.type = 'history-change';
        event.kind = 'system';
        event.subtype = `history-${change.kind}`;
        const range = change.droppedRange;
        const inPlace =
          !after &&
          change.kind === 'compact' &&
          change.editedInPlace === change.replaced &&
          change.dropped === change.replaced &&
          prints.length >= held.length;
        // Some held messages edited, others dropped, the rest re-sent as they were (a clearing
        // that also removes old turns): an edit of the history too, not a new history. A summary
        // (a new message where the held one had another role, or after a summary request) is not.
        const editAndDrop =
          !inPlace &&
          !after &&
          change.kind === 'compact' &&
          change.editedInPlace === change.replaced &&
          change.lastShared >= 0;
        resentEnd = inPlace ? held.length : editAndDrop ? change.lastShared + 1 : 0;
        event.compact = {
          kind: change.kind,
          trigger: after?.trigger ?? 'client',
          // An edit in place (a cleared tool result, one changed character) keeps the history:
          // only the edited messages are new entries, the rest is the history already read.
          ...(inPlace || editAndDrop ? {} : { resendsHistory: true }),
          ...(thread.lastContext !== undefined ? { preTokens: thread.lastContext } : {}),
          ...(range ? { deletedRange: range } : {}),
          ...(thread === main ? { followsFileCall: thread.lastMainCall } : {}),
        };
        const what =
          change.kind === 'truncate'
            ? `${change.dropped} of ${held.length} messages dropped`
            : inPlace
              ? `${change.editedInPlace} message${change.editedInPlace === 1 ? '' : 's'} edited in place`
              : editAndDrop
                ? `${change.editedInPlace} message${change.editedInPlace === 1 ? '' : 's'} edited, ${change.dropped - change.editedInPlace} of ${held.length} dropped`
                : `${change.dropped} of ${held.length} messages replaced by ${change.replaced} new`;
        event.summaryText = `request ${requests} does not extend the previous one: ${what}${
          range ? ` (held messages ${range[0]}–${range[1]})` : ''
        }${after ? ` · after Claude Code's summary request (request ${after.request}): ${after.trigger}, ${after.why}` : ''}`;
        // After a summary request, the first new message is its summary, even where it takes the
        // place of a user message of the held history (Claude Code's continuation message).
        if (change.kind === 'compact' && (after !== undefined || change.editedInPlace < change.replaced))
          summaryAt = change.firstReplaced;
        if (inPlace || editAndDrop) {
          edited = new Set();
          const inHeld = new Set(held);
          for (let i = 0; i < resentEnd; i++) if (!inHeld.has(prints[i]!)) edited.add(i);
          ctx.issue(
            'wrong-shape',
            'info',
            `Request ${requests} re-sends ${edited.size} earlier message${edited.size === 1 ? '' : 's'} changed${
              editAndDrop ? ` and drops ${change.dropped - change.editedInPlace}` : ''
            } (${[...edited]
              .slice(0, 5)
              .map((i) => `messages[${i}]`)
              .join(
                ', ',
              )}${edited.size > 5 ? ', …' : ''}): an edit of the history, read as ${edited.size === 1 ? 'that message' : 'those messages'} again, not the whole history`,
            'messages',
          );
        }
        from = 0;
        thread.held = [];
      }
      const before = thread === main && from === 0 && k < held.length ? new Set(held) : undefined;
      for (let i = from; i < messages.length; i++) {
        // An edit of the history: the unchanged held messages are not read again.
        if (edited && i < resentEnd && !edited.has(i)) {
          thread.held.push(prints[i]!);
          continue;
        }
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
      const usage = usageOf(body.usage, ctx);
      const applied = isObject(body.context_management) ? body.context_management.applied_edits : undefined;
      const cleared = Array.isArray(applied) ? readAppliedEdits(applied, thread, clearable) : undefined;
      if (cleared) {
        const event = next();
        link(event, thread);
        event.type = 'context_management';
        event.kind = 'system';
        event.subtype = 'applied_edits';
        const names = cleared.names.join(', ');
        event.microcompact = {
          trigger: names,
          ...(usage ? { preTokens: contextOf(usage) + cleared.totalTokens } : {}),
          tokensSaved: cleared.savedTokens,
          compactedToolIds: cleared.ids,
          clearedAttachmentUuids: [],
        };
        event.summaryText = `context_management applied ${names}: ${cleared.uses} tool uses, ${cleared.totalTokens} input tokens cleared${
          cleared.ids.length ? ` (${cleared.ids.length} newly)` : ''
        }`;
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
  // A summary request re-reads the message from the record by it (message-records.ts).
  entry.recordPath = path;
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
