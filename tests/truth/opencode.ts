import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { num, type Raw, type Truth, type TruthCall, type TruthCompaction } from './types';

// OpenCode's sessions, from their raw records, without the engine (issue 18 items 2 and 3). Two
// storages hold the same records (sst/opencode packages/opencode/src/session/message-v2.ts):
// - JSON files under ~/.local/share/opencode/storage/: session/<project>/<ses>.json,
//   message/<ses>/<msg>.json, part/<msg>/<prt>.json, each record with its ids;
// - the SQLite database ~/.local/share/opencode/opencode.db (1.x): tables session, message
//   (id, session_id, data) and part (id, message_id, session_id, data), `data` the record's JSON
//   without its ids. It is read here by python3's sqlite3 module (SQLite itself, which applies
//   the write-ahead log `opencode.db-wal` as any reader does), not by our reader.
//
// * API calls: OpenCode's processor writes a `step-start` part when it sends a request and a
//   `step-finish` part with that request's own `tokens` and `cost` when the response ends; one
//   assistant message holds as many steps as the model was called in a row (tool calls, then the
//   next request), and the message's own `tokens` are its last step's. So each `step-finish` is a
//   call. An assistant message with no step-finish but non-zero `tokens` (written without step
//   parts) is one call; with zero tokens and no step-finish it called no model (a shell command
//   the person ran, `!cmd`: an assistant message holding only its tool part), or its request never
//   finished (a `step-start` alone, the session cut off): no usage was recorded, no call counted.
// * Context per call: input + cache.read + cache.write, `input` being the uncached part. OpenCode
//   stores the AI SDK's usage through `getUsage` (session/index.ts): in 0.6.x `input` was
//   `usage.inputTokens`, which for OpenAI-compatible providers counts the cached tokens too (the
//   Anthropic and Bedrock SDKs report them apart); later versions subtract the cache unless the
//   Anthropic or Bedrock SDK reported it apart, and record `tokens.total`
//   (anomalyco/opencode@901135543fe03ad58caeb01c17ac422ffd596cbf:packages/opencode/src/session/index.ts). So a step without `total`, from a provider other than
//   Anthropic's, whose `input` is at least its `cache.read`, already holds the cache read
//   (the real 0.6.x session of issue 18: input 20,049 of which 13,184 were cache reads).
// * Compactions: a user message with a `compaction` part asks for a summary, answered by an
//   assistant message with `summary: true`: a compaction after that summary's last call. A prune
//   marks old tool outputs `state.time.compacted` (all with the prune's time): one clearing per
//   distinct time, after the last call of the messages written before it.

interface SessionRecords {
  messages: Raw[];
  partsOf: Map<string, Raw[]>;
}

const byId = (a: Raw, b: Raw) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

function contextOf(tokens: Raw, providerId: unknown, modelId: unknown): number {
  const read = num(tokens.cache?.read);
  const write = num(tokens.cache?.write);
  const input = num(tokens.input);
  const anthropic =
    /anthropic|bedrock/i.test(String(providerId ?? '')) || /claude/i.test(String(modelId ?? ''));
  const includesRead = read > 0 && !('total' in tokens) && !anthropic && input >= read;
  return (includesRead ? input - read : input) + read + write;
}

/** The calls and compactions of one session's records. */
export function readOpenCodeSessionTruth({ messages, partsOf }: SessionRecords): Truth {
  const calls: TruthCall[] = [];
  const compactions: TruthCompaction[] = [];
  const ordered = [...messages].sort(byId);
  // Prunes by time, each placed before the first message written after it.
  const prunes = new Set<number>();
  for (const parts of partsOf.values())
    for (const p of parts) {
      const at = p.type === 'tool' ? p.state?.time?.compacted : undefined;
      if (typeof at === 'number') prunes.add(at);
    }
  const pending = [...prunes].sort((a, b) => a - b);
  let summaryAsked: string | undefined;
  let statedCostUsd: number | undefined;
  for (const m of ordered) {
    const created = num(m.time?.created);
    while (pending.length > 0 && pending[0]! <= created) {
      pending.shift();
      compactions.push({ kind: 'microcompact', afterCall: calls.length - 1, trigger: 'prune' });
    }
    const parts = [...(partsOf.get(m.id) ?? [])].sort(byId);
    if (m.role === 'user') {
      const request = parts.find((p) => p.type === 'compaction');
      if (request) summaryAsked = request.auto === true ? 'auto' : 'manual';
      continue;
    }
    if (m.role !== 'assistant') continue;
    // OpenCode's own cost of the message (each step's added as it finished), summed over the session.
    if (typeof m.cost === 'number') statedCostUsd = (statedCostUsd ?? 0) + m.cost;
    const steps = parts.filter((p) => p.type === 'step-finish' && p.tokens && typeof p.tokens === 'object');
    if (steps.length > 0)
      for (const s of steps)
        calls.push({ id: s.id, contextTokens: contextOf(s.tokens, m.providerID, m.modelID) });
    else if (m.tokens && typeof m.tokens === 'object') {
      const context = contextOf(m.tokens, m.providerID, m.modelID);
      if (context + num(m.tokens.output) + num(m.tokens.reasoning) > 0)
        calls.push({ id: m.id, contextTokens: context });
    }
    if (m.summary === true && summaryAsked !== undefined) {
      compactions.push({ kind: 'compact', afterCall: calls.length - 1, trigger: summaryAsked });
      summaryAsked = undefined;
    }
  }
  for (const _ of pending)
    compactions.push({ kind: 'microcompact', afterCall: calls.length - 1, trigger: 'prune' });
  return { calls, compactions, ...(statedCostUsd === undefined ? {} : { statedCostUsd }) };
}

/** The sessions of a JSON storage tree, given as its files (path, text): by session id. */
export function readOpenCodeStorageTruth(
  files: readonly { path: string; text: string }[],
): Map<string, Truth> {
  const sessions = new Map<string, SessionRecords>();
  const sessionOf = (id: string) => {
    let s = sessions.get(id);
    if (!s) {
      s = { messages: [], partsOf: new Map() };
      sessions.set(id, s);
    }
    return s;
  };
  for (const { path, text } of files) {
    let record: Raw;
    try {
      record = JSON.parse(text);
    } catch {
      continue; // a file cut off mid-write: nothing to count
    }
    if (/\/message\/[^/]+\/msg_[^/]+\.json$/.test(path)) sessionOf(record.sessionID).messages.push(record);
    else if (/\/part\/[^/]+\/prt_[^/]+\.json$/.test(path)) {
      const parts = sessionOf(record.sessionID).partsOf;
      parts.set(record.messageID, [...(parts.get(record.messageID) ?? []), record]);
    }
  }
  return new Map([...sessions].map(([id, s]) => [id, readOpenCodeSessionTruth(s)]));
}

const DUMP = `
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
out = {}
for (sid,) in db.execute('SELECT id FROM session'):
    out[sid] = {'messages': [], 'parts': []}
for mid, sid, data in db.execute('SELECT id, session_id, data FROM message'):
    out.setdefault(sid, {'messages': [], 'parts': []})['messages'].append(dict(json.loads(data), id=mid, sessionID=sid))
for pid, mid, sid, data in db.execute('SELECT id, message_id, session_id, data FROM part'):
    out.setdefault(sid, {'messages': [], 'parts': []})['parts'].append(dict(json.loads(data), id=pid, messageID=mid, sessionID=sid))
json.dump(out, sys.stdout)
`;

/** True when python3 with its sqlite3 module runs here (the database truth needs it). */
export function hasPythonSqlite(): boolean {
  try {
    execFileSync('python3', ['-c', 'import sqlite3'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * The sessions of an OpenCode database (`opencode.db`, with its `-wal` beside it when there is
 * one): by session id. Read from a copy, so that SQLite's own checkpoint on close leaves the
 * original files as they were.
 */
export function readOpenCodeDatabaseTruth(dbPath: string): Map<string, Truth> {
  const dir = mkdtempSync(join(tmpdir(), 'opencode-truth-'));
  try {
    const copy = join(dir, 'opencode.db');
    copyFileSync(dbPath, copy);
    if (existsSync(`${dbPath}-wal`)) copyFileSync(`${dbPath}-wal`, `${copy}-wal`);
    const dump: Record<string, { messages: Raw[]; parts: Raw[] }> = JSON.parse(
      execFileSync('python3', ['-c', DUMP, copy], { encoding: 'utf8', maxBuffer: 1 << 30 }),
    );
    const out = new Map<string, Truth>();
    for (const [id, { messages, parts }] of Object.entries(dump)) {
      const partsOf = new Map<string, Raw[]>();
      for (const p of parts) partsOf.set(p.messageID, [...(partsOf.get(p.messageID) ?? []), p]);
      out.set(id, readOpenCodeSessionTruth({ messages, partsOf }));
    }
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
