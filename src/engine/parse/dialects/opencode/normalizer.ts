import type { Entry, TokenCount } from '../../../types';
import {
  createEntry,
  implausibleTimeMessage,
  isObject,
  type Json,
  type NormalizedRecord,
  type RecordContext,
  type RecordExtras,
  type RecordNormalizer,
  typeName,
} from '../record';
import {
  type CompactionRequest,
  contextOf,
  fillPart,
  isImplausibleTime,
  readToolPart,
  timeOf,
  usageOf,
  ZERO,
} from './parts';
import { isMessageInfo, isPart, isSessionInfo } from './storage';

/** OpenCode's title of a session not yet named (`isDefaultTitle`). */
const DEFAULT_TITLE = /^(New session - |Child session - )\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

// Each step of an assistant message is one API call: OpenCode's processor writes a `step-start`
// part when it sends a request and a `step-finish` part with that request's own `tokens` and
// `cost` when it ends (message-v2.ts `StepFinishPart`); the message's `tokens` are only its last
// step's. So each `step-finish` is a call, its context input + cache read + cache write (input
// made the uncached part: parts.ts `usageOf`). An assistant message with no step parts (an
// older write) is one call with its own `tokens`, emitted once its parts have been read; one with
// zero tokens and no step (a shell command the person ran, `!ls`) called no model; a `step-start`
// never finished (the session cut off, the request aborted) recorded no usage and is no call.
// A compaction is a user message holding a `compaction` part (the request, "What did we do so
// far?") answered by an assistant message with `summary: true`; the event sits after that
// summary call. Pruning (`SessionCompaction.prune`)
// sets `state.time.compacted` on old tool outputs, which are then sent as "[Old tool result
// content cleared]" (message-v2.ts `toModelMessages`): shown cleared, and as one clearing event
// before the first message written after the prune.

interface MessageState {
  role: 'user' | 'assistant';
  entryIndex: number;
  line: number;
  fileIndex: number;
  parts: number;
  summary: boolean;
  providerId?: unknown;
  modelId?: unknown;
  /** Its `step-finish` parts read so far. */
  steps: number;
  /** An assistant message's own `tokens` (its last step's). */
  tokens?: unknown;
  /** Its call emitted (a message without step parts): once. */
  called?: boolean;
  /** Its `time.created`: the time of its calls, whose `step-finish` parts state none. */
  createdMs?: number;
}

/** The normalizer of one OpenCode session: one for all its files (`sharedNormalizer`). */
export function createOpenCodeNormalizer(): RecordNormalizer {
  const messages = new Map<string, MessageState>();
  let sessionId: string | undefined;
  let otherSessions = 0;
  /** Context of the latest assistant call. */
  let lastContext: TokenCount | undefined;
  /** A compaction requested (its part seen) and not yet answered by its summary. */
  let requested: CompactionRequest | undefined;
  /** The summary message whose first text part is the summary, and the context it summarized. */
  let summary:
    | { messageId: string; trigger: string; preTokens?: TokenCount; tail?: string; textEntry?: Entry }
    | undefined;
  /** The assistant message whose parts are being read: its call, when it has no steps, follows them. */
  let current: { id: string; state: MessageState } | undefined;
  let implausibleTimes = 0;
  /** The message whose step is open (`step-start` read, its `step-finish` not yet). */
  let openStep: string | undefined;
  /**
   * What an open step wrote (reasoning, text, tool calls, their results), held until its
   * `step-finish`: the call comes first, then what it answered, as in every other log (a replay
   * counts what follows a call as sent with the next one).
   */
  let held: Entry[] = [];
  /** Fix-ups run once held entries have their numbers (the summary an event names). */
  let placeAfterRelease: (() => void)[] = [];
  /** Tool outputs pruned, by prune time: shown as one clearing event before a later message. */
  const prunes = new Map<number, { ids: string[]; chars: number }>();
  const reportedMissing = new Set<string>();

  const normalize = (record: unknown, ctx: RecordContext, index: number): NormalizedRecord => {
    const extras: RecordExtras = {};
    const made: Entry[] = [];
    const next = (): Entry => {
      const e = createEntry(ctx, index + made.length);
      made.push(e);
      return e;
    };
    /** Adds the entries held back (an open step's), after what this record made so far. */
    const release = (): void => {
      for (const e of held) {
        e.index = index + made.length;
        made.push(e);
      }
      held = [];
      for (const place of placeAfterRelease) place();
      placeAfterRelease = [];
    };
    const finish = (): NormalizedRecord => {
      // Everything this record made is held for its step's call: no entry now.
      if (made.length === 0) return { extras };
      const entry = made.pop()!;
      return made.length > 0 ? { entry, extras, preceding: made } : { entry, extras };
    };
    if (!isObject(record)) {
      ctx.issue(
        'wrong-shape',
        'error',
        `Expected a session, message or part object, got ${typeName(record)}`,
      );
      next();
      return finish();
    }
    const ofSession = typeof record.sessionID === 'string' ? record.sessionID : undefined;
    if (ofSession !== undefined) {
      if (sessionId === undefined) sessionId = ofSession;
      else if (ofSession !== sessionId && otherSessions++ === 0)
        ctx.issue(
          'wrong-shape',
          'warning',
          `At sessionID: ${JSON.stringify(ofSession)} is another session than ${JSON.stringify(sessionId)}: files of several OpenCode sessions were opened together (open the storage folder to list them apart)`,
          'sessionID',
        );
      extras.sessionId = sessionId;
    }

    if (isSessionInfo(record)) {
      flushMessageCall(next);
      release();
      const e = next();
      e.type = 'session';
      e.kind = 'meta';
      sessionId ??= record.id as string;
      extras.sessionId = record.id as string;
      if (typeof record.directory === 'string') extras.cwd = record.directory;
      if (typeof record.version === 'string') extras.version = record.version;
      e.timestampMs = timeOf(record.time, 'created');
      const parent = typeof record.parentID === 'string' ? ` · subagent session of ${record.parentID}` : '';
      e.summaryText = `session ${JSON.stringify(String(record.title ?? ''))}${parent}`;
      // Its title (generated from the first message, or the person's): not OpenCode's placeholder
      // "New session - <ISO time>" (`isDefaultTitle`, anomalyco/opencode@90113554
      // packages/opencode/src/session/index.ts), which names nothing (ours: then none).
      if (typeof record.title === 'string' && !DEFAULT_TITLE.test(record.title))
        extras.title = { text: record.title, source: 'session title', rank: 1 };
      return finish();
    }

    if (isMessageInfo(record)) {
      const id = record.id as string;
      const created = timeOf(record.time, 'created');
      noteTime(record.time, 'created', ctx);
      flushMessageCall(next);
      release();
      flushPrunes(created, next);
      // A summary call without steps: its event before the next message.
      flushSummaryEvent(next, ctx);
      const e = next();
      e.type = 'message';
      e.subtype = record.role as string;
      e.messageId = id;
      e.timestampMs = created;
      const state: MessageState = {
        role: record.role as 'user' | 'assistant',
        entryIndex: e.index,
        line: ctx.line,
        fileIndex: ctx.fileIndex,
        parts: 0,
        summary: record.summary === true,
        steps: 0,
        createdMs: created,
      };
      messages.set(id, state);
      if (record.role === 'user') {
        e.kind = 'meta';
        const model = isObject(record.model)
          ? `${String(record.model.providerID)}/${String(record.model.modelID)}`
          : '?';
        e.summaryText = `user message · agent ${String(record.agent ?? '?')} · ${model}`;
        return finish();
      }
      // An assistant message: its calls are its steps (read from its parts), or itself.
      e.kind = 'assistant';
      e.role = 'assistant';
      e.model = typeof record.modelID === 'string' ? record.modelID : 'unknown';
      extras.model = e.model;
      // OpenCode's own cost of the message: each step's added as it finishes
      // (sst/opencode packages/opencode/src/session/processor.ts, `assistantMessage.cost +=
      // usage.cost`); the session's is their sum, as its header shows.
      if (typeof record.cost === 'number' && Number.isFinite(record.cost)) extras.statedCostUsd = record.cost;
      state.providerId = record.providerID;
      state.modelId = record.modelID;
      state.tokens = record.tokens;
      current = { id, state };
      const usage = usageOf(record.tokens, record.providerID, record.modelID, ctx);
      if (!usage)
        ctx.issue(
          'wrong-shape',
          'warning',
          `At tokens: expected an object, got ${typeName(record.tokens)}`,
          'tokens',
        );
      e.isApiError = record.error !== undefined;
      const error = isObject(record.error) ? ` · error ${String(record.error.name ?? '')}` : '';
      e.summaryText = `${record.summary === true ? 'compaction summary · ' : ''}${String(record.providerID ?? '?')}/${e.model}${
        typeof record.finish === 'string' ? ` · ${record.finish}` : ''
      }${error}`;
      if (record.summary === true && requested) {
        summary = {
          messageId: id,
          trigger: requested.trigger,
          ...(usage ? { preTokens: contextOf(usage) } : {}),
          tail: requested.tail,
        };
        requested = undefined;
      }
      return finish();
    }

    if (isPart(record)) {
      const messageId = record.messageID as string;
      if (current && current.id !== messageId) {
        flushMessageCall(next);
        release();
      }
      const message = messages.get(messageId);
      if (message) message.parts++;
      else if (!reportedMissing.has(messageId)) {
        reportedMissing.add(messageId);
        ctx.issue(
          'wrong-shape',
          'warning',
          `Part ${String(record.id)} belongs to message ${messageId}, whose file (message/<sessionID>/${messageId}.json) was not opened: its role and tokens are unknown. Open the session's storage folders together (session/, message/, part/)`,
          'messageID',
        );
      }
      readPart(record, message, ctx, next, release);
      return finish();
    }

    // Kept, shown and counted as unknown.
    const e = next();
    e.type = typeof record.type === 'string' ? record.type : '';
    return finish();
  };

  /** One part's entries (a tool part: its call, then its result). */
  function readPart(
    part: Json,
    message: MessageState | undefined,
    ctx: RecordContext,
    next: () => Entry,
    release: () => void,
  ): void {
    const type = part.type as string;
    // Inside an open step, what the step wrote waits for its call (held, released after it).
    const inStep = openStep !== undefined && openStep === part.messageID && type !== 'step-finish';
    const make = inStep
      ? (): Entry => {
          const e = createEntry(ctx, -1);
          held.push(e);
          return e;
        }
      : next;
    if (type === 'tool') {
      readToolPart(part, ctx, make, notePrune);
      return;
    }
    const role = message?.role ?? (type === 'reasoning' || type.startsWith('step-') ? 'assistant' : 'user');
    noteTime(part.time, 'start', ctx);
    if (type === 'step-finish') {
      readStepFinish(part, message, next, ctx);
      openStep = undefined;
      // The summary call: its compaction event next, then the summary it wrote (held till now).
      if (summary && summary.messageId === part.messageID && summary.textEntry !== undefined)
        flushSummaryEvent(next, ctx);
      release();
      return;
    }
    if (type === 'step-start') {
      release();
      openStep = typeof part.messageID === 'string' ? part.messageID : undefined;
    }
    const isSummary = type === 'text' && message?.summary === true && summary?.messageId === part.messageID;
    const e = make();
    // The summary's text: the compaction event follows it and the summary call.
    if (isSummary && summary && summary.textEntry === undefined) summary.textEntry = e;
    const request = fillPart(e, part, role, isSummary, ctx.previewChars);
    if (request) requested = request;
  }

  /** A `step-finish`: one API call, with that step's own tokens. */
  function readStepFinish(
    part: Json,
    message: MessageState | undefined,
    next: () => Entry,
    ctx: RecordContext,
  ): void {
    const e = next();
    fillPart(e, part, 'assistant', false, 0);
    // A step-finish part states no time (the real logs' 70 of 70 in one database, its storage
    // files alike): the call is dated by its message, so usage by day finds its day (it read
    // "(no time)" for every OpenCode call).
    e.timestampMs ??= message?.createdMs;
    if (message) message.steps++;
    const usage = usageOf(part.tokens, message?.providerId, message?.modelId, ctx);
    if (usage && message?.role !== 'user') {
      // Its own key: the builder merges calls by message id, and a message holds several steps.
      e.messageId = undefined;
      e.requestId = typeof part.id === 'string' ? part.id : undefined;
      e.model = typeof message?.modelId === 'string' ? message.modelId : 'unknown';
      e.usage = usage;
      e.summaryText = `step finish (${String(part.reason ?? '?')}): ${contextOf(usage).toLocaleString('en-US')} tokens in context, ${usage.outputTokens.toLocaleString('en-US')} out`;
      if (contextOf(usage) > 0) lastContext = contextOf(usage);
    }
  }

  /** The call of an assistant message read without any step (an older write), after its parts. */
  function flushMessageCall(next: () => Entry): void {
    const open = current;
    current = undefined;
    if (!open || open.state.steps > 0 || open.state.called) return;
    open.state.called = true;
    const read = usageOf(open.state.tokens, open.state.providerId, open.state.modelId);
    // Zero tokens and no step: no model was called (a shell command run by the person). Tokens
    // unreadable (said at the message): a call whose usage is unknown.
    if (read && contextOf(read) + read.outputTokens === 0) return;
    const usage = read ?? { ...ZERO };
    const e = next();
    e.type = 'message-usage';
    e.kind = 'meta';
    e.messageId = open.id;
    e.timestampMs = open.state.createdMs;
    e.model = typeof open.state.modelId === 'string' ? open.state.modelId : 'unknown';
    e.usage = usage;
    e.summaryText = `call of message ${open.id} (no step parts): ${contextOf(usage).toLocaleString('en-US')} tokens in context`;
    lastContext = contextOf(usage) > 0 ? contextOf(usage) : lastContext;
  }

  /** A time that is there but implausible (`time.start: 0`): not used, said once per session. */
  function noteTime(value: unknown, key: string, ctx: RecordContext): void {
    if (!isImplausibleTime(value, key) || implausibleTimes++ > 0) return;
    ctx.issue(
      'out-of-range',
      'warning',
      implausibleTimeMessage((value as Json)[key] as number, `time.${key}`),
      `time.${key}`,
    );
  }

  /** A tool output pruned at `atMs`: part of that prune's one clearing event. */
  function notePrune(atMs: number, toolUseId: string, chars: number): void {
    const prune = prunes.get(atMs) ?? { ids: [], chars: 0 };
    prune.ids.push(toolUseId);
    prune.chars += chars;
    prunes.set(atMs, prune);
  }

  /** Prunes done before a message written at `createdMs`: one clearing event each, before it. */
  function flushPrunes(createdMs: number | undefined, next: () => Entry): void {
    if (prunes.size === 0 || createdMs === undefined) return;
    for (const [at, prune] of [...prunes].sort((a, b) => a[0] - b[0])) {
      if (at > createdMs) continue;
      prunes.delete(at);
      const e = next();
      e.type = 'prune';
      e.kind = 'system';
      e.subtype = 'prune';
      e.timestampMs = at;
      e.microcompact = {
        trigger: 'prune',
        ...(lastContext !== undefined ? { preTokens: lastContext } : {}),
        // chars/4, the estimate OpenCode's prune counts with (Token.estimate).
        tokensSaved: Math.round(prune.chars / 4),
        compactedToolIds: prune.ids,
        clearedAttachmentUuids: [],
      };
      e.summaryText = `pruned ${prune.ids.length} old tool output${prune.ids.length === 1 ? '' : 's'} (~${Math.round(prune.chars / 4)} tokens)`;
    }
  }

  /**
   * The compaction event, after its summary call: it names the summary's text entry (read just
   * before the call's `step-finish`) as the summary.
   */
  function flushSummaryEvent(next: () => Entry, ctx?: RecordContext): void {
    if (!summary) return;
    const s = summary;
    summary = undefined;
    const tail = s.tail !== undefined ? messages.get(s.tail) : undefined;
    if (s.tail !== undefined && !tail)
      ctx?.issue(
        'wrong-shape',
        'warning',
        `At tail_start_id: ${s.tail} names no message read before`,
        'tail_start_id',
      );
    const event = next();
    event.type = 'compaction';
    event.kind = 'system';
    event.subtype = 'compaction';
    event.compact = {
      kind: 'compact',
      trigger: s.trigger,
      ...(s.preTokens !== undefined ? { preTokens: s.preTokens } : {}),
      // The summary's index once placed (a held entry is numbered when released, before the
      // builder reads this event).
      ...(s.textEntry !== undefined ? { summaryEntryIndex: s.textEntry.index } : {}),
      ...(tail ? { keptFromEntryIndex: tail.entryIndex } : { resendsHistory: true }),
    };
    const text = s.textEntry;
    if (text && text.index < 0) {
      const compact = event.compact;
      const place = (): void => {
        compact.summaryEntryIndex = text.index;
      };
      placeAfterRelease.push(place);
    }
    event.summaryText = `compacted (${s.trigger}): the summary replaces the history${tail ? ` before line ${tail.line}` : ''}`;
  }

  return {
    dialect: 'opencode',
    agent: 'OpenCode',
    apiCalls: 'usage-records',
    normalize,
    finish(ctx: RecordContext, nextIndex: number): Entry[] | undefined {
      // Results of a step that never finished (the session cut off inside it): last.
      const rest = held.map((e, i) => Object.assign(e, { index: nextIndex + i }));
      held = [];
      for (const place of placeAfterRelease) place();
      placeAfterRelease = [];
      const last = current?.state;
      const lastUsage = last && last.steps === 0 ? usageOf(last.tokens) : undefined;
      if (last && lastUsage && contextOf(lastUsage) + lastUsage.outputTokens > 0) {
        ctx.fileIndex = last.fileIndex;
        ctx.line = last.line;
        ctx.issue(
          'wrong-shape',
          'warning',
          `The last message (${current!.id}) has tokens but no step parts, and nothing was read after it: its call is not counted`,
        );
      }
      const bare = [...messages.entries()].filter(([, m]) => m.parts === 0);
      if (bare.length === 0) return rest;
      const [id, first] = bare[0]!;
      ctx.fileIndex = first.fileIndex;
      ctx.line = first.line;
      ctx.issue(
        'wrong-shape',
        'warning',
        `${bare.length} message${bare.length === 1 ? ' has' : 's have'} no parts (first: ${id}): their part files (part/<messageID>/*.json) were not opened, so their text and tool calls are missing`,
      );
      return rest;
    },
  };
}
