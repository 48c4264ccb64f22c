import Dexie from 'dexie';
import { IDBKeyRange, indexedDB } from 'fake-indexeddb';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  deleteRuns,
  importRuns,
  listRuns,
  parseRunsFile,
  openRunsDatabase,
  type RunsDatabase,
  renameRun,
  type SummaryRun,
  saveExactTokensOfMatchingRuns,
  saveRun,
  serializeRuns,
  setRunStarred,
} from '../../src/ui/summaries/runs-db';

let n = 0;
function makeRun(overrides: Partial<SummaryRun> = {}): SummaryRun {
  n++;
  return {
    id: `run-${n}`,
    schemaVersion: 1,
    createdAt: 1_767_000_000_000 + n,
    name: `Run ${n}`,
    starred: false,
    transcript: { contentHash: 'ab'.repeat(32), name: 'session.jsonl' },
    point: { kind: 'api-call', apiCallIndex: 4, label: 'after API call 4' },
    settings: {
      presetId: 'claude-code-full',
      prompt: 'Summarize.',
      customInstructions: 'Keep SQL.',
      systemPrompt: 'You summarize.',
      model: 'claude-sonnet-4-6',
      maxOutputTokens: 20_000,
      temperature: 0.2,
    },
    summarizer: { kind: 'anthropic', model: 'claude-sonnet-4-6', baseUrl: 'http://127.0.0.1:8787' },
    summary: 'Summary:\nthe work',
    rawSummary: '<summary>the work</summary>',
    tokensIn: 1200,
    tokensOut: 80,
    summaryTokens: 80,
    summaryTokensSource: 'api',
    requestEstimatedTokens: 1300,
    requestExactTokens: 1210,
    durationMs: 812,
    costUsd: 0.0048,
    stopReason: 'end_turn',
    retention: {
      total: 2,
      kept: 1,
      ratio: 0.5,
      byCategory: {
        path: { total: 1, kept: 1, ratio: 1 },
        command: { total: 1, kept: 0, ratio: 0 },
        identifier: { total: 0, kept: 0, ratio: 1 },
        error: { total: 0, kept: 0, ratio: 1 },
        instruction: { total: 0, kept: 0, ratio: 1 },
        'last-request': { total: 0, kept: 0, ratio: 1 },
      },
      missed: [{ category: 'command', text: 'npm test' }],
    },
    ...overrides,
  };
}

// The unit project shares modules between test files (vitest `isolate: false`): Dexie may have been
// imported by an earlier file, when it read the (then absent) IndexedDB globals. Hand it the fake
// explicitly, whatever ran before (this file failed in CI in some orders of the files).
beforeAll(() => {
  Dexie.dependencies.indexedDB = indexedDB;
  Dexie.dependencies.IDBKeyRange = IDBKeyRange;
});

const dbs: RunsDatabase[] = [];
async function freshDb(): Promise<RunsDatabase> {
  const db = await openRunsDatabase(`test-${Math.random()}`);
  dbs.push(db);
  return db;
}
afterEach(async () => {
  for (const db of dbs.splice(0)) await db.delete();
});

describe('runs database', () => {
  it('stores an exact request count in the runs that sent that request', async () => {
    const db = await freshDb();
    const same = makeRun({ requestExactTokens: undefined });
    const counted = makeRun({ requestExactTokens: 1_111 });
    const otherPoint = makeRun({
      requestExactTokens: undefined,
      point: { kind: 'api-call', apiCallIndex: 5, label: '' },
    });
    const otherSettings = makeRun({
      requestExactTokens: undefined,
      settings: { ...same.settings, model: 'claude-haiku-4-5' },
    });
    for (const r of [same, counted, otherPoint, otherSettings]) await saveRun(r, db);
    const changed = await saveExactTokensOfMatchingRuns(
      same.transcript.contentHash,
      { kind: 'api-call', apiCallIndex: 4 },
      same.settings,
      1_234,
      db,
    );
    expect(changed).toBe(1);
    const byId = new Map((await listRuns(db)).map((r) => [r.id, r.requestExactTokens]));
    expect(byId.get(same.id)).toBe(1_234);
    expect(byId.get(counted.id)).toBe(1_111);
    expect(byId.get(otherPoint.id)).toBeUndefined();
    expect(byId.get(otherSettings.id)).toBeUndefined();
  });

  it('saves, lists newest first, renames, stars and deletes', async () => {
    const db = await freshDb();
    const a = makeRun();
    const b = makeRun({ summarizer: { kind: 'builtin', model: 'builtin' }, costUsd: undefined });
    await saveRun(a, db);
    await saveRun(b, db);
    expect((await listRuns(db)).map((r) => r.id)).toEqual([b.id, a.id]);
    await renameRun(a.id, 'Tight prompt', db);
    await setRunStarred(a.id, true, db);
    const renamed = (await listRuns(db)).find((r) => r.id === a.id)!;
    expect(renamed).toMatchObject({ name: 'Tight prompt', starred: true });
    await deleteRuns([b.id], db);
    expect((await listRuns(db)).map((r) => r.id)).toEqual([a.id]);
  });

  it('exports to JSON and imports it back unchanged (same ids, no duplicates)', async () => {
    const db = await freshDb();
    const runs = [
      makeRun(),
      makeRun({
        starred: true,
        point: { kind: 'compaction', compactionIndex: 2, label: 'compaction 2 (auto)' },
      }),
    ];
    for (const run of runs) await saveRun(run, db);
    const text = serializeRuns(await listRuns(db), new Date('2026-11-22T00:00:00Z'));
    expect(text).not.toMatch(/apiKey|sk-ant|x-api-key/i);

    const other = await freshDb();
    expect(await importRuns(text, other)).toBe(2);
    expect(await listRuns(other)).toEqual(await listRuns(db));
    await importRuns(text, other);
    expect(await listRuns(other)).toHaveLength(2);
    expect(serializeRuns(await listRuns(other), new Date('2026-11-22T00:00:00Z'))).toBe(text);
  });

  it('rejects a bad file with the path of the bad value', () => {
    const good = JSON.parse(serializeRuns([makeRun()]));
    expect(() => parseRunsFile('nope')).toThrow(/At \(file\): not JSON/);
    expect(() => parseRunsFile(JSON.stringify({ format: 'other' }))).toThrow(
      /At format: expected "compactlab-summary-runs"/,
    );
    good.runs[0].summary = 42;
    expect(() => parseRunsFile(JSON.stringify(good))).toThrow(
      'At runs[0].summary: expected a string, got a number',
    );
  });

  it('drops fields it does not know, such as a key someone added by hand', () => {
    const file = JSON.parse(serializeRuns([makeRun()]));
    file.runs[0].summarizer.apiKey = 'sk-ant-secret';
    file.runs[0].extra = 1;
    const [run] = parseRunsFile(JSON.stringify(file));
    expect(JSON.stringify(run)).not.toContain('sk-ant-secret');
    expect(run).not.toHaveProperty('extra');
  });
});

describe('runs changes across tabs', () => {
  it('announces every change on the runs channel, which another tab hears', async () => {
    const db = await freshDb();
    // Another tab: its own channel object on the same name.
    const other = new BroadcastChannel('compactlab-runs');
    const heard: unknown[] = [];
    other.onmessage = (event) => heard.push(event.data);
    const heardCount = async (count: number) => {
      for (let waited = 0; heard.length < count && waited < 2_000; waited += 10) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return heard.length;
    };
    try {
      const run = makeRun();
      await saveRun(run, db);
      expect(await heardCount(1)).toBe(1);
      await renameRun(run.id, 'renamed', db);
      await setRunStarred(run.id, true, db);
      await importRuns(serializeRuns([makeRun()]), db);
      await deleteRuns([run.id], db);
      expect(await heardCount(5)).toBe(5);
      expect(heard.every((m) => (m as { kind: string }).kind === 'runs-changed')).toBe(true);
    } finally {
      other.close();
    }
  });
});
