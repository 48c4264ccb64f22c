import type { Block, Entry, TokenCount, Usage } from '../../../types';
import { type DialectDescriptor, NO_RESTORATION } from '../descriptor';
import {
  createEntry,
  isObject,
  type Json,
  type NormalizedRecord,
  num,
  preview,
  type RecordContext,
  type RecordExtras,
  type RecordNormalizer,
  typeName,
} from '../record';

// OpenCode's session storage (sst/opencode, indexed as anomalyco/opencode: `packages/opencode/src/
// session/message-v2.ts` for the shapes, `session/index.ts` for where they are written), under
// `~/.local/share/opencode/storage/`: one JSON file per record, written pretty-printed by
// `Storage.write(key, value)` at `<key joined by />.json`:
// - `session/<projectID>/<sessionID>.json`: the session `{id, version, projectID, directory,
//   parentID?, title, time: {created, updated}}`;
// - `message/<sessionID>/<messageID>.json`: a message. User: `{id, sessionID, role: "user",
//   time: {created}, agent, model}`. Assistant: `{…, role: "assistant", parentID, modelID,
//   providerID, time: {created, completed?}, error?, summary?: true (a compaction's summary), cost,
//   tokens: {input, output, reasoning, cache: {read, write}}, finish?}`;
// - `part/<messageID>/<partID>.json`: a part `{id, sessionID, messageID, type, …}`: `text`,
//   `reasoning`, `file`, `tool {callID, tool, state: {status, input, output | error, time: {start,
//   end, compacted?}}}`, `step-start`, `step-finish {reason, cost, tokens}`, `compaction {auto,
//   overflow?, tail_start_id?}`, `subtask`, `agent`, `patch`, `snapshot`, `retry`.
// Ids are `<prefix>_` + 12 hex digits of (ms × 0x1000 + counter) + 14 random characters
// (`id/id.ts`): messages and parts ascend with creation time (sessions descend), so sorting the
// files by id reads a session in the order it was written, each message before its parts.
//
// Each assistant message is one API call: its `tokens` are the usage of its (last) step, the
// context it sent being input + cache read + cache write. A multi-step message's earlier steps
// show as their `step-finish` rows, not as calls. A compaction is a user message holding a
// `compaction` part (the request, "What did we do so far?") answered by an assistant message with
// `summary: true`; the event sits after that summary call. Pruning (`SessionCompaction.prune`)
// sets `state.time.compacted` on old tool outputs, which are then sent as "[Old tool result
// content cleared]" (message-v2.ts `toModelMessages`): shown cleared, and as one clearing event
// before the first message written after the prune.

/** What OpenCode sends in place of a pruned tool output (message-v2.ts `toModelMessages`). */
export const OPENCODE_CLEARED = '[Old tool result content cleared]';

/** The largest single record file read (bytes): one message or part. */
const MAX_RECORD_BYTES = 64 * 1024 * 1024;

const ID_NAME = /^(ses|msg|prt)_([0-9A-Za-z]{16,40})\.json$/;
const SESSION_PATH = /(?:^|\/)session\/(?:[^/]+\/)?(ses_[0-9A-Za-z]+)\.json$/;
const MESSAGE_PATH = /(?:^|\/)message\/(ses_[0-9A-Za-z]+)\/(msg_[0-9A-Za-z]+)\.json$/;
const PART_PATH = /(?:^|\/)part\/(msg_[0-9A-Za-z]+)\/(prt_[0-9A-Za-z]+)\.json$/;

const baseOf = (path: string): string => path.slice(path.lastIndexOf('/') + 1);

/** Read order: the session first, then each message followed by its parts, by id (time). */
function loadOrderKey(path: string): string | undefined {
  const name = ID_NAME.exec(baseOf(path));
  if (!name) return undefined;
  if (name[1] === 'ses') return '0';
  if (name[1] === 'msg') return `1${name[2]}\u0000`;
  const folder = PART_PATH.exec(path);
  // In its message's folder: after that message. Alone: by its own id, created after its message.
  return folder ? `1${folder[1]!.slice(4)}\u0001${name[2]}` : `1${name[2]}`;
}

/** A storage folder's files → one group per session (its info file, messages and their parts). */
function groupFiles(paths: readonly string[]): { key: string; paths: string[] }[] {
  const bySession = new Map<string, { key: string; paths: string[] }>();
  const sessionOfMessage = new Map<string, string>();
  const group = (sessionId: string, fallbackKey: string) => {
    let g = bySession.get(sessionId);
    if (!g) {
      g = { key: fallbackKey, paths: [] };
      bySession.set(sessionId, g);
    }
    return g;
  };
  for (const p of paths) {
    const s = SESSION_PATH.exec(p);
    if (s) {
      const g = group(s[1]!, p);
      g.key = p;
      g.paths.unshift(p);
      continue;
    }
    const m = MESSAGE_PATH.exec(p);
    if (m) {
      sessionOfMessage.set(m[2]!, m[1]!);
      group(m[1]!, p.slice(0, p.lastIndexOf('/'))).paths.push(p);
    }
  }
  for (const p of paths) {
    const part = PART_PATH.exec(p);
    if (!part) continue;
    const session = sessionOfMessage.get(part[1]!);
    // A part whose message is not in the folder: a session of its own, which says what is missing.
    group(session ?? part[1]!, p.slice(0, p.lastIndexOf('/'))).paths.push(p);
  }
  return [...bySession.values()];
}

const isSessionInfo = (v: Json): boolean =>
  typeof v.id === 'string' &&
  v.id.startsWith('ses_') &&
  isObject(v.time) &&
  ('projectID' in v || 'directory' in v);
const isMessageInfo = (v: Json): boolean =>
  typeof v.id === 'string' &&
  v.id.startsWith('msg_') &&
  typeof v.sessionID === 'string' &&
  (v.role === 'user' || v.role === 'assistant');
const isPart = (v: Json): boolean =>
  typeof v.id === 'string' &&
  v.id.startsWith('prt_') &&
  typeof v.messageID === 'string' &&
  typeof v.type === 'string';

const ZERO: Usage = { inputTokens: 0, cacheCreationInputTokens: 0, cacheReadInputTokens: 0, outputTokens: 0 };

function usageOf(tokens: unknown): Usage | undefined {
  if (!isObject(tokens)) return undefined;
  const cache = isObject(tokens.cache) ? tokens.cache : {};
  return {
    inputTokens: num(tokens.input),
    cacheCreationInputTokens: num(cache.write),
    cacheReadInputTokens: num(cache.read),
    // Reasoning is output the model wrote (message-v2.ts keeps it apart).
    outputTokens: num(tokens.output) + num(tokens.reasoning),
  };
}

const contextOf = (u: Usage): TokenCount =>
  u.inputTokens + u.cacheCreationInputTokens + u.cacheReadInputTokens;
const timeOf = (value: unknown, key: string): number | undefined =>
  isObject(value) && typeof value[key] === 'number' && Number.isFinite(value[key])
    ? (value[key] as number)
    : undefined;

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
  let requested: { trigger: string; overflow: boolean; tail?: string } | undefined;
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
    const max = ctx.previewChars;
    const role =
      message?.role ??
      (type === 'tool' || type === 'reasoning' || type.startsWith('step-') ? 'assistant' : 'user');
    const text = (e: Entry, value: unknown): void => {
      const t = typeof value === 'string' ? value : '';
      e.blocks = [{ kind: 'text', text: preview(t, max), chars: t.length }];
    };
    if (type === 'tool') {
      readToolPart(part, ctx, next);
      return;
    }
    const isSummary = type === 'text' && message?.summary === true && summary?.messageId === part.messageID;
    if (isSummary) flushSummary(ctx, next, true);
    const e = next();
    e.type = 'part';
    e.subtype = type;
    e.messageId = typeof part.messageID === 'string' ? part.messageID : undefined;
    e.timestampMs = timeOf(part.time, 'start');
    switch (type) {
      case 'text': {
        e.kind = role;
        e.role = role;
        text(e, part.text);
        // Text OpenCode added (a file's contents, a command's output) or left out of requests.
        e.isMeta = part.synthetic === true || part.ignored === true;
        e.isCompactSummary = isSummary;
        return;
      }
      case 'reasoning': {
        e.kind = 'assistant';
        e.role = 'assistant';
        const t = typeof part.text === 'string' ? part.text : '';
        e.blocks = [{ kind: 'thinking', text: preview(t, max), chars: t.length, redacted: false }];
        return;
      }
      case 'file': {
        e.kind = role;
        e.role = role;
        const url = typeof part.url === 'string' ? part.url : '';
        const mime = typeof part.mime === 'string' ? part.mime : 'file';
        const block: Block = mime.startsWith('image/')
          ? { kind: 'image', mediaType: mime, base64Chars: url.startsWith('data:') ? url.length : 0 }
          : { kind: 'document', mediaType: mime, base64Chars: url.startsWith('data:') ? url.length : 0 };
        e.blocks = [block];
        e.summaryText = `file ${String(part.filename ?? '')}`.trim();
        return;
      }
      case 'compaction': {
        // The compaction's request: sent as the user text "What did we do so far?".
        e.kind = 'meta';
        const trigger = part.auto === true ? 'auto' : 'manual';
        const tail = typeof part.tail_start_id === 'string' ? part.tail_start_id : undefined;
        requested = { trigger, overflow: part.overflow === true, tail };
        e.summaryText = `compaction requested (${trigger}${part.overflow === true ? ', context overflow' : ''})`;
        return;
      }
      case 'step-start':
        e.kind = 'meta';
        e.summaryText = 'step start';
        return;
      case 'step-finish': {
        e.kind = 'meta';
        const u = usageOf(part.tokens);
        e.summaryText = u
          ? `step finish (${String(part.reason ?? '?')}): ${contextOf(u)} tokens in context, ${u.outputTokens} out`
          : `step finish (${String(part.reason ?? '?')})`;
        return;
      }
      case 'subtask':
      case 'agent':
      case 'patch':
      case 'snapshot':
      case 'retry':
        e.kind = 'meta';
        e.summaryText =
          type === 'subtask'
            ? `subtask ${String(part.agent ?? '')}: ${preview(String(part.description ?? ''), 200)}`
            : type === 'patch' && Array.isArray(part.files)
              ? `patch: ${part.files.length} files`
              : type === 'retry'
                ? `retry ${String(part.attempt ?? '')}`
                : type;
        return;
      default:
        // An unknown part type: kept and counted.
        e.kind = 'unknown';
    }
  }

  function readToolPart(part: Json, ctx: RecordContext, next: () => Entry): void {
    const max = ctx.previewChars;
    const state = isObject(part.state) ? part.state : undefined;
    const id = typeof part.callID === 'string' ? part.callID : String(part.id);
    const name = typeof part.tool === 'string' ? part.tool : '(unnamed)';
    const input = state && isObject(state.input) ? state.input : {};
    const json = JSON.stringify(input) ?? '';
    const filePath = input.filePath ?? input.path ?? input.file_path;
    const use = next();
    use.type = 'part';
    use.subtype = 'tool';
    use.kind = 'assistant';
    use.role = 'assistant';
    use.messageId = typeof part.messageID === 'string' ? part.messageID : undefined;
    use.timestampMs = timeOf(state?.time, 'start');
    use.blocks = [
      {
        kind: 'tool-use',
        id,
        name,
        inputPreview: preview(json, max),
        inputChars: json.length,
        filePath: typeof filePath === 'string' ? filePath : undefined,
        command: typeof input.command === 'string' ? preview(input.command, max) : undefined,
      },
    ];
    if (!state) {
      ctx.issue(
        'wrong-shape',
        'warning',
        `At state: expected an object, got ${typeName(part.state)}`,
        'state',
      );
      return;
    }
    const status = state.status;
    if (status !== 'completed' && status !== 'error') {
      // Pending or running when the session was saved: sent as interrupted (message-v2.ts).
      use.summaryText = `tool ${String(status)}`;
      return;
    }
    const output = status === 'completed' ? state.output : state.error;
    const out = typeof output === 'string' ? output : '';
    const compacted = timeOf(state.time, 'compacted');
    const result = next();
    result.type = 'part';
    result.subtype = 'tool-result';
    result.kind = 'user';
    result.role = 'user';
    result.messageId = use.messageId;
    result.timestampMs = timeOf(state.time, 'end');
    result.blocks = [
      {
        kind: 'tool-result',
        toolUseId: id,
        // A pruned output is sent as the placeholder from then on; its size is what it was.
        text: compacted !== undefined ? OPENCODE_CLEARED : preview(out, max),
        chars: out.length,
        isError: status === 'error',
        images: Array.isArray(state.attachments) ? state.attachments.length : 0,
        persisted: false,
      },
    ];
    if (compacted !== undefined) {
      result.summaryText = `output pruned at ${new Date(compacted).toISOString()} (${out.length} chars)`;
      const prune = prunes.get(compacted) ?? { ids: [], chars: 0 };
      prune.ids.push(id);
      prune.chars += out.length;
      prunes.set(compacted, prune);
    }
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

export const OPENCODE_DIALECT: DialectDescriptor = {
  id: 'opencode',
  label: 'OpenCode session storage',
  agent: 'OpenCode',
  defaultStrategyId: 'opencode',
  createNormalizer: createOpenCodeNormalizer,
  sharedNormalizer: true,
  restoration: NO_RESTORATION,
  shellTools: ['bash'],
  files: {
    location: '~/.local/share/opencode/storage/ (session/, message/, part/)',
    matchName: (baseName) => ID_NAME.test(baseName),
    matchRecord: (value) =>
      isObject(value) && (isMessageInfo(value) || isPart(value) || isSessionInfo(value)),
    folderFile: (path) => SESSION_PATH.test(path) || MESSAGE_PATH.test(path) || PART_PATH.test(path),
    loadOrderKey,
    groupFiles,
    wholeJson: { maxBytes: MAX_RECORD_BYTES, objectIsRecord: true },
  },
  transcript: {
    knownSystemSubtypes: new Set(['compaction', 'prune']),
    clearedPlaceholder: OPENCODE_CLEARED,
  },
};
