import { isObject, type Json } from '../record';
import { OPENCODE_DB_NAME, OPENCODE_WAL_NAME, splitDatabaseName, walNameOf } from './database-name';

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

/** The largest single record file read (bytes): one message or part. */
export const MAX_RECORD_BYTES = 64 * 1024 * 1024;

export const ID_NAME = /^(ses|msg|prt)_([0-9A-Za-z]{16,40})\.json$/;
export const SESSION_PATH = /(?:^|\/)session\/(?:[^/]+\/)?(ses_[0-9A-Za-z]+)\.json$/;
export const MESSAGE_PATH = /(?:^|\/)message\/(ses_[0-9A-Za-z]+)\/(msg_[0-9A-Za-z]+)\.json$/;
export const PART_PATH = /(?:^|\/)part\/(msg_[0-9A-Za-z]+)\/(prt_[0-9A-Za-z]+)\.json$/;

const baseOf = (path: string): string => path.slice(path.lastIndexOf('/') + 1);

/** Read order: the session first, then each message followed by its parts, by id (time). */
export function loadOrderKey(path: string): string | undefined {
  const name = ID_NAME.exec(baseOf(path));
  if (!name) return undefined;
  if (name[1] === 'ses') return '0';
  if (name[1] === 'msg') return `1${name[2]}\u0000`;
  const folder = PART_PATH.exec(path);
  // In its message's folder: after that message. Alone: by its own id, created after its message.
  return folder ? `1${folder[1]!.slice(4)}\u0001${name[2]}` : `1${name[2]}`;
}

/**
 * A storage folder's files → one group per session (its info file, messages and their parts);
 * a database (`opencode.db`, or one of its sessions `opencode.db#ses_…`) with its log.
 */
export function groupFiles(paths: readonly string[]): { key: string; paths: string[] }[] {
  const databases: { key: string; paths: string[] }[] = [];
  const logs = new Set(paths.filter((p) => OPENCODE_WAL_NAME.test(p)));
  for (const p of paths) {
    if (!OPENCODE_DB_NAME.test(p)) continue;
    const wal = walNameOf(splitDatabaseName(p).dbPath);
    databases.push({ key: p, paths: logs.has(wal) ? [p, wal] : [p] });
  }
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
  // Each session's first and last message id: ids ascend with creation time (id/id.ts).
  const spans = new Map<string, [string, string]>();
  for (const [message, session] of sessionOfMessage) {
    const span = spans.get(session);
    if (!span) spans.set(session, [message, message]);
    else if (message < span[0]) span[0] = message;
    else if (message > span[1]) span[1] = message;
  }
  /**
   * The session of a part whose message file is missing: the one session whose messages were
   * written around it, or the folder's one session (a missing file must not split a session in
   * two: the parse then names the message that is missing). None: a session of its own.
   */
  const sessionOfOrphan = (message: string): string | undefined => {
    const around = [...spans].filter(([, [first, last]]) => first <= message && message <= last);
    if (around.length === 1) return around[0]![0];
    return around.length === 0 && spans.size === 1 ? [...spans.keys()][0] : undefined;
  };
  for (const p of paths) {
    const part = PART_PATH.exec(p);
    if (!part) continue;
    const session = sessionOfMessage.get(part[1]!) ?? sessionOfOrphan(part[1]!);
    // A part no session's messages account for: a session of its own, which says what is missing.
    group(session ?? part[1]!, p.slice(0, p.lastIndexOf('/'))).paths.push(p);
  }
  return [...databases, ...bySession.values()];
}

export const isSessionInfo = (v: Json): boolean =>
  typeof v.id === 'string' &&
  v.id.startsWith('ses_') &&
  isObject(v.time) &&
  ('projectID' in v || 'directory' in v);
export const isMessageInfo = (v: Json): boolean =>
  typeof v.id === 'string' &&
  v.id.startsWith('msg_') &&
  typeof v.sessionID === 'string' &&
  (v.role === 'user' || v.role === 'assistant');
export const isPart = (v: Json): boolean =>
  typeof v.id === 'string' &&
  v.id.startsWith('prt_') &&
  typeof v.messageID === 'string' &&
  typeof v.type === 'string';
