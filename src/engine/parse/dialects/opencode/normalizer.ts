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
import { type CompactionRequest, contextOf, fillPart, readToolPart, timeOf, usageOf, ZERO } from './parts';
import { isMessageInfo, isPart, isSessionInfo } from './storage';

// Each assistant message is one API call: its `tokens` are the usage of its (last) step, the
// context it sent being input + cache read + cache write. A multi-step message's earlier steps
// show as their `step-finish` rows, not as calls. A compaction is a user message holding a
// `compaction` part (the request, "What did we do so far?") answered by an assistant message with
// `summary: true`; the event sits after that summary call. Pruning (`SessionCompaction.prune`)
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
  let summary: { messageId: string; trigger: string; preTokens?: TokenCount; tail?: string } | undefined;
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
    const finish = (): NormalizedRecord => {
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
      return finish();
    }

    if (isMessageInfo(record)) {
      const id = record.id as string;
      const created = timeOf(record.time, 'created');
      flushPrunes(created, next);
      flushSummary(ctx, next, false);
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
      // An assistant message: one API call.
      e.kind = 'assistant';
      e.role = 'assistant';
      e.model = typeof record.modelID === 'string' ? record.modelID : 'unknown';
      extras.model = e.model;
      const usage = usageOf(record.tokens);
      if (!usage)
        ctx.issue(
          'wrong-shape',
          'warning',
          `At tokens: expected an object, got ${typeName(record.tokens)}`,
          'tokens',
        );
      e.usage = usage ?? { ...ZERO };
      e.isApiError = record.error !== undefined;
      const error = isObject(record.error) ? ` · error ${String(record.error.name ?? '')}` : '';
      e.summaryText = `${record.summary === true ? 'compaction summary · ' : ''}${String(record.providerID ?? '?')}/${e.model}${
        typeof record.finish === 'string' ? ` · ${record.finish}` : ''
      }${error}`;
      if (record.summary === true && requested) {
        summary = {
          messageId: id,
          trigger: requested.trigger,
          preTokens: contextOf(e.usage),
          tail: requested.tail,
        };
        requested = undefined;
      }
      if (contextOf(e.usage) > 0) lastContext = contextOf(e.usage);
      return finish();
    }

    if (isPart(record)) {
      const messageId = record.messageID as string;
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
      readPart(record, message, ctx, next);
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
  ): void {
    const type = part.type as string;
    if (type === 'tool') {
      readToolPart(part, ctx, next, notePrune);
      return;
    }
    const role = message?.role ?? (type === 'reasoning' || type.startsWith('step-') ? 'assistant' : 'user');
    const isSummary = type === 'text' && message?.summary === true && summary?.messageId === part.messageID;
    if (isSummary) flushSummary(ctx, next, true);
    const request = fillPart(next(), part, role, isSummary, ctx.previewChars);
    if (request) requested = request;
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
   * The compaction event, once its summary call is known: before the summary's first text part
   * (`beforeSummary`: that part's entry comes next), or before the next message when it had none.
   */
  function flushSummary(ctx: RecordContext, next: () => Entry, beforeSummary: boolean): void {
    if (!summary) return;
    const s = summary;
    summary = undefined;
    const tail = s.tail !== undefined ? messages.get(s.tail) : undefined;
    if (s.tail !== undefined && !tail)
      ctx.issue(
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
      ...(beforeSummary ? { summaryEntryIndex: event.index + 1 } : {}),
      ...(tail ? { keptFromEntryIndex: tail.entryIndex } : { resendsHistory: true }),
    };
    event.summaryText = `compacted (${s.trigger}): the summary replaces the history${tail ? ` before line ${tail.line}` : ''}`;
  }

  return {
    dialect: 'opencode',
    agent: 'OpenCode',
    apiCalls: 'usage-records',
    normalize,
    finish(ctx: RecordContext): void {
      const bare = [...messages.entries()].filter(([, m]) => m.parts === 0);
      if (bare.length === 0) return;
      const [id, first] = bare[0]!;
      ctx.fileIndex = first.fileIndex;
      ctx.line = first.line;
      ctx.issue(
        'wrong-shape',
        'warning',
        `${bare.length} message${bare.length === 1 ? ' has' : 's have'} no parts (first: ${id}): their part files (part/<messageID>/*.json) were not opened, so their text and tool calls are missing`,
      );
    },
  };
}
