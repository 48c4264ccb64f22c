import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import initSqlJs from 'sql.js';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main';
import { createNodeFileSource } from '../../src/cli/node-source';
import { openSqlJsInNode } from '../../src/cli/sqlite';
import { computeInspectReport } from '../../src/engine/inspect/report';
import {
  expandOpenCodeDatabases,
  listOpenCodeDatabaseSessions,
} from '../../src/engine/parse/dialects/opencode/database';
import { mergeWal } from '../../src/engine/parse/dialects/opencode/sqlite-wal';
import { parseSession } from '../../src/engine/parse/parse-session';
import { type ByteSource, createMemorySource } from '../../src/engine/parse/source';
import { hasPythonSqlite, readOpenCodeDatabaseTruth, readOpenCodeStorageTruth } from '../truth/opencode';
import { getTruthPeak, type Truth } from '../truth/types';

// Issue 18 item 3: OpenCode's steps are its API calls, on real data. The SQLite storage
// (opencode.db with its write-ahead log) read by our reader against SQLite itself (python3's
// sqlite3), and the engine against the truth reader (tests/truth/opencode.ts) on the database
// fixture derived from a real database (tests/fixtures/opencode/db/derive.py), the JSON storage
// fixture, and the real database when restored (node scripts/restore-real-logs.mjs).

const FIXTURE_DB = resolve(__dirname, '../fixtures/opencode/db/opencode.db');
const REAL_DB = resolve(
  __dirname,
  '../../.real-logs/richardaiand__aiand-portfolio-web/.local/share/opencode/opencode.db',
);
const STORAGE = resolve(__dirname, '../fixtures/opencode/storage');
const python = hasPythonSqlite();
const realPresent = existsSync(REAL_DB);

/** Ids of the messages and parts, by SQLite itself on a copy (it applies the log). */
function idsBySqlite(dbPath: string): { messages: string[]; parts: string[] } {
  const script = `
import json, shutil, sqlite3, sys, tempfile, os
d = tempfile.mkdtemp()
for s in ('', '-wal'):
    if os.path.exists(sys.argv[1] + s): shutil.copy(sys.argv[1] + s, os.path.join(d, 'x.db' + s))
db = sqlite3.connect(os.path.join(d, 'x.db'))
print(json.dumps({'messages': [r[0] for r in db.execute('SELECT id FROM message ORDER BY id')],
                  'parts': [r[0] for r in db.execute('SELECT id FROM part ORDER BY id')]}))
db.close(); shutil.rmtree(d)
`;
  return JSON.parse(execFileSync('python3', ['-c', script, dbPath], { encoding: 'utf8' }));
}

async function idsByOurs(dbPath: string, withWal = true) {
  const db = new Uint8Array(readFileSync(dbPath));
  const wal =
    withWal && existsSync(`${dbPath}-wal`) ? new Uint8Array(readFileSync(`${dbPath}-wal`)) : undefined;
  const merged = wal ? mergeWal(db, wal) : { bytes: db, framesApplied: 0, framesIgnored: 0 };
  const SQL = await initSqlJs();
  const sql = new SQL.Database(merged.bytes);
  const ids = (table: string) =>
    (sql.exec(`SELECT id FROM ${table} ORDER BY id`)[0]?.values ?? []).map((r) => String(r[0]));
  const out = {
    messages: ids('message'),
    parts: ids('part'),
    merged,
    integrity: sql.exec('PRAGMA integrity_check')[0]!.values[0]![0],
  };
  sql.close();
  return out;
}

/** The engine's figures for one session's sources, as the truth renders them. */
async function engineFigures(sources: ByteSource[]) {
  const session = await parseSession(sources);
  const report = computeInspectReport(session);
  return {
    session,
    calls: report.apiCalls.length,
    contexts: report.apiCalls.map((c) => c.contextTokens).join(','),
    peak: report.peakContextTokens,
    compactions: report.compactions.map((c) => `${c.kind}@${c.apiCallBefore ?? -1}`).join(' '),
    // OpenCode's own cost of its messages, summed (none priced here: the real sessions' model).
    statedCost: report.statedCost?.usd.toFixed(6),
  };
}

function truthFigures(truth: Truth) {
  return {
    calls: truth.calls.length,
    contexts: truth.calls.map((c) => c.contextTokens).join(','),
    peak: getTruthPeak(truth),
    compactions: truth.compactions.map((c) => `${c.kind}@${c.afterCall}`).join(' '),
    statedCost: truth.statedCostUsd?.toFixed(6),
  };
}

async function sessionSources(dbPath: string, sessionId: string): Promise<ByteSource[]> {
  const sources = [{ ...createNodeFileSource(dbPath), name: `${dbPath}#${sessionId}` }];
  if (existsSync(`${dbPath}-wal`)) sources.push(createNodeFileSource(`${dbPath}-wal`));
  return expandOpenCodeDatabases(sources, openSqlJsInNode);
}

describe.skipIf(!python)('the write-ahead log, merged as SQLite reads it', () => {
  it('the fixture: 4 messages in the database file, 11 with its log, as python3 sqlite3 reads them', async () => {
    const ours = await idsByOurs(FIXTURE_DB);
    expect(ours.integrity).toBe('ok');
    expect({ messages: ours.messages, parts: ours.parts }).toEqual(idsBySqlite(FIXTURE_DB));
    expect([ours.messages.length, ours.parts.length]).toEqual([11, 33]);
    // Without the log: what a reader that ignores it would lose.
    const alone = await idsByOurs(FIXTURE_DB, false);
    expect([alone.messages.length, alone.parts.length]).toEqual([4, 17]);
  });

  it.skipIf(!realPresent)(
    'the real database: 91 messages and 379 parts, 86 and 351 without its log',
    async () => {
      const ours = await idsByOurs(REAL_DB);
      expect(ours.integrity).toBe('ok');
      expect({ messages: ours.messages, parts: ours.parts }).toEqual(idsBySqlite(REAL_DB));
      expect([ours.messages.length, ours.parts.length]).toEqual([91, 379]);
      expect(ours.merged.framesApplied).toBe(902);
      const alone = await idsByOurs(REAL_DB, false);
      expect([alone.messages.length, alone.parts.length]).toEqual([86, 351]);
    },
  );
});

describe('a log cut or foreign is not merged', () => {
  it('a log with a broken checksum stops at the last good commit; a foreign file is left out', () => {
    const db = new Uint8Array(readFileSync(FIXTURE_DB));
    const wal = new Uint8Array(readFileSync(`${FIXTURE_DB}-wal`));
    expect(mergeWal(db, new Uint8Array(32)).skipped).toMatch(/magic/);
    const broken = wal.slice();
    broken[broken.length - 100]! ^= 0xff; // the last frame's page
    const merged = mergeWal(db, broken);
    const good = mergeWal(db, wal);
    expect(merged.framesApplied).toBeLessThan(good.framesApplied);
  });
});

describe.skipIf(!python)('the engine against the truth reader', () => {
  it('the database fixture: each step a call, shell commands and an unfinished step none', async () => {
    const truths = readOpenCodeDatabaseTruth(FIXTURE_DB);
    expect([...truths.keys()]).toEqual(['ses_1279fce82ffeZOJhNwml1w1Fu4']);
    const truth = truths.get('ses_1279fce82ffeZOJhNwml1w1Fu4')!;
    const engine = await engineFigures(await sessionSources(FIXTURE_DB, 'ses_1279fce82ffeZOJhNwml1w1Fu4'));
    expect({ ...engine, session: undefined }).toEqual({ ...truthFigures(truth), session: undefined });
    // 7 assistant messages: 4 with a step-finish (the calls), 2 `!` shell commands (zero tokens,
    // only a tool part), 1 whose step never finished (the session saved mid-request).
    expect(truth.calls.map((c) => c.contextTokens)).toEqual([7102, 8353, 9689, 8489]);
    expect(engine.session.meta.versions).toEqual(['1.17.3-aiand.1']);
    expect(engine.session.toolPairs.unmatchedUses).toBe(1); // the unfinished step's pending tool
  });

  it.skipIf(!realPresent)('the real database: every session', async () => {
    const truths = readOpenCodeDatabaseTruth(REAL_DB);
    expect(truths.size).toBe(3);
    const steps: number[] = [];
    for (const [id, truth] of truths) {
      const engine = await engineFigures(await sessionSources(REAL_DB, id));
      expect({ ...engine, session: undefined }, id).toEqual({ ...truthFigures(truth), session: undefined });
      steps.push(truth.calls.length);
    }
    // By creation: 9, 4 and 57 steps (one step per assistant message in 1.17: still a call each).
    expect(steps).toEqual([9, 4, 57]);
  });

  it('the JSON storage fixture', async () => {
    const files: { path: string; text: string }[] = [];
    const walk = (dir: string): void => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else files.push({ path: `storage/${relative(STORAGE, path)}`, text: readFileSync(path, 'utf8') });
      }
    };
    walk(STORAGE);
    const [truth] = [...readOpenCodeStorageTruth(files).values()];
    const engine = await engineFigures(files.map((f) => createMemorySource(f.path, f.text)));
    expect({ ...engine, session: undefined }).toEqual({ ...truthFigures(truth!), session: undefined });
    expect(engine.compactions).toBe('microcompact@4 compact@6');
  });
});

describe('several steps in one message, the cache rule and an implausible time', () => {
  // The fixture's session as the storage's files, its records edited in memory for what the
  // real 0.6.x session of issue 18 showed (not in our corpus): several steps in one message, an
  // OpenAI-compatible provider whose `input` held the cache read, a part with time.start 0.
  async function storageFiles(): Promise<{ path: string; text: string }[]> {
    const sources = await sessionSources(FIXTURE_DB, 'ses_1279fce82ffeZOJhNwml1w1Fu4');
    const decoder = new TextDecoder();
    return Promise.all(
      sources.map(async (s) => ({ path: s.name, text: decoder.decode(await s.read(0, s.sizeBytes)) })),
    );
  }
  const edit = (
    files: { path: string; text: string }[],
    id: string,
    change: (r: Record<string, unknown>) => void,
  ) => {
    const f = files.find((x) => x.path.endsWith(`/${id}.json`))!;
    const record = JSON.parse(f.text);
    change(record);
    f.text = JSON.stringify(record);
  };

  it('two messages merged into one of two steps: two calls, each with its own tokens', async () => {
    const files = await storageFiles();
    // The second assistant message's parts moved into the first: one message, two steps.
    const first = 'msg_ed86031dc001ddaDDUgKluEPOA';
    const second = 'msg_ed86043a7001ZUyGUIwlfZlsFB';
    const moved = files.filter((f) => f.path.includes(`/part/${second}/`));
    for (const f of moved) {
      const r = JSON.parse(f.text);
      r.messageID = first;
      f.text = JSON.stringify(r);
      f.path = f.path.replace(`/part/${second}/`, `/part/${first}/`);
    }
    const kept = files.filter((f) => !f.path.endsWith(`/${second}.json`));
    const truth = [...readOpenCodeStorageTruth(kept).values()][0]!;
    const engine = await engineFigures(kept.map((f) => createMemorySource(f.path, f.text)));
    expect(engine.contexts).toBe('7102,8353,9689,8489');
    expect(engine.contexts).toBe(truthFigures(truth).contexts);
  });

  it('input holding the cache read (no total, not Anthropic): the read is not added twice', async () => {
    const files = await storageFiles();
    const message = 'msg_ed86031dc001ddaDDUgKluEPOA';
    edit(files, message, (m) => {
      m.providerID = 'openai';
    });
    const step = files.find((f) => f.path.includes(`/part/${message}/`) && f.text.includes('"step-finish"'))!;
    const r = JSON.parse(step.text);
    r.tokens = { input: 20_049, output: 644, reasoning: 0, cache: { read: 13_184, write: 0 } };
    step.text = JSON.stringify(r);
    const truth = [...readOpenCodeStorageTruth(files).values()][0]!;
    const engine = await engineFigures(files.map((f) => createMemorySource(f.path, f.text)));
    expect(engine.contexts.split(',')[0]).toBe('20049');
    expect(engine.contexts).toBe(truthFigures(truth).contexts);
    const [call] = engine.session.apiCalls;
    expect([call!.usage.inputTokens, call!.usage.cacheReadInputTokens]).toEqual([6865, 13_184]);
  });

  it('a part with time.start 0 is an issue, not the session’s start', async () => {
    const files = await storageFiles();
    const text = files.find((f) => f.text.includes('"type":"text"') && f.text.includes('"start"'))!;
    const r = JSON.parse(text.text);
    r.time = { start: 0, end: 0 };
    text.text = JSON.stringify(r);
    const { session } = await engineFigures(files.map((f) => createMemorySource(f.path, f.text)));
    expect(
      session.entries.every((e) => e.timestampMs === undefined || e.timestampMs > Date.UTC(2020, 0)),
    ).toBe(true);
    expect(new Date(session.meta.startMs!).getUTCFullYear()).toBe(2026);
    expect(session.issues.map((i) => i.message)).toContainEqual(
      expect.stringMatching(/At time\.start: time 1970-01-01T00:00:00\.000Z is outside 2015–2099/),
    );
  });
});

describe('compactlab inspect on a database', () => {
  it('lists the sessions when none is named, reads the one named', async () => {
    const out: string[] = [];
    expect(
      await main(['inspect', `${FIXTURE_DB}#ses_1279fce82ffeZOJhNwml1w1Fu4`, '--json'], (t) => out.push(t)),
    ).toBe(0);
    const report = JSON.parse(out.join('\n'));
    expect([report.format, report.apiCalls.length]).toEqual(['opencode', 4]);
  });
});

describe("a database's sessions as the library lists them", () => {
  // Each row's size is its session's own records: every row once showed the database's file and
  // log (6.1 MB for each of the real database's three sessions, 18 MB for a 6 MB folder).
  const sized = async (dbPath: string) => {
    const db = createNodeFileSource(dbPath);
    const wal = existsSync(`${dbPath}-wal`) ? createNodeFileSource(`${dbPath}-wal`) : undefined;
    const listed = await listOpenCodeDatabaseSessions(db, wal, openSqlJsInNode);
    for (const s of listed) {
      const files = [{ ...db, name: `${dbPath}#${s.id}` }, ...(wal ? [wal] : [])];
      const read = await expandOpenCodeDatabases(files, openSqlJsInNode);
      expect(s.sizeBytes, s.id).toBe(read.reduce((sum, f) => sum + f.sizeBytes, 0));
    }
    return { listed, fileBytes: db.sizeBytes + (wal?.sizeBytes ?? 0) };
  };
  it('the fixture: its one session, the records the reader reads', async () => {
    const { listed, fileBytes } = await sized(FIXTURE_DB);
    expect(listed.map((s) => s.sizeBytes)).toEqual([25_532]);
    expect(fileBytes).toBe(78_024);
  });
  it.skipIf(!realPresent)(
    'the real database: three sessions of their own sizes, all of them less than the files',
    async () => {
      const { listed, fileBytes } = await sized(REAL_DB);
      expect(listed.map((s) => s.sizeBytes).sort((a, b) => a - b)).toEqual([25_810, 35_095, 364_142]);
      expect(listed.reduce((sum, s) => sum + s.sizeBytes, 0)).toBeLessThan(fileBytes / 10);
    },
  );
});
