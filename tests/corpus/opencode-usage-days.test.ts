import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { restoredRealLogFiles } from '../helpers/corpus';
import { runCli } from '../helpers/run-cli';
import { hasPythonSqlite } from '../truth/opencode';

// The guide's Usage by day (the library's Usage, `stats --by day`) on real OpenCode databases: a
// `step-finish` part, each one API call, states no time, so every OpenCode call was "(no time)"
// and the chart showed one empty bar. A call is dated by its message's `time.created` now. Held
// to a plain count read by python3's sqlite3 (not our reader): per UTC day, the step-finish parts
// of the messages created that day, and the assistant messages without one whose tokens are not
// all zero (sst/opencode packages/opencode/src/session/message-v2.ts; tests/truth/opencode.ts).

const DATABASES = restoredRealLogFiles().filter((f) => basename(f) === 'opencode.db');

const COUNT = `
import json, sqlite3, sys, datetime
db = sqlite3.connect(sys.argv[1])
created = {}
role = {}
zero = {}
for mid, data in db.execute('SELECT id, data FROM message'):
    m = json.loads(data)
    created[mid] = m.get('time', {}).get('created')
    role[mid] = m.get('role')
    t = m.get('tokens') or {}
    zero[mid] = (t.get('input', 0) + t.get('output', 0) + (t.get('cache') or {}).get('read', 0) + (t.get('cache') or {}).get('write', 0)) == 0
steps = {}
for mid, data in db.execute('SELECT message_id, data FROM part'):
    if json.loads(data).get('type') == 'step-finish':
        steps[mid] = steps.get(mid, 0) + 1
days = {}
def day(ms):
    return datetime.datetime.fromtimestamp(ms / 1000, datetime.timezone.utc).strftime('%Y-%m-%d')
for mid, ms in created.items():
    n = steps.get(mid, 0)
    if n == 0 and role[mid] == 'assistant' and not zero[mid]:
        n = 1
    if n:
        days[day(ms)] = days.get(day(ms), 0) + n
json.dump(days, sys.stdout)
`;

function countCallsByDay(dbPath: string): Record<string, number> {
  const dir = mkdtempSync(join(tmpdir(), 'opencode-days-'));
  try {
    const copy = join(dir, 'opencode.db');
    copyFileSync(dbPath, copy);
    if (existsSync(`${dbPath}-wal`)) copyFileSync(`${dbPath}-wal`, `${copy}-wal`);
    return JSON.parse(execFileSync('python3', ['-c', COUNT, copy], { encoding: 'utf8' }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('usage by day of real OpenCode databases', () => {
  if (DATABASES.length === 0 || !hasPythonSqlite()) {
    it.skip('no restored OpenCode database in .real-logs, or no python3 sqlite3 to count it', () => {});
    return;
  }
  for (const db of DATABASES) {
    it(`${db.split('.real-logs/')[1]}: calls per UTC day as the raw records date them`, async () => {
      const expected = countCallsByDay(db);
      expect(Object.keys(expected).length, 'the database holds dated calls').toBeGreaterThan(0);
      const rows = (await runCli(['stats', db, '--by', 'day', '--json'])).text
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { row: string; day: string; apiCalls: number });
      const got = Object.fromEntries(rows.filter((r) => r.row === 'day').map((r) => [r.day, r.apiCalls]));
      expect(got).toEqual(expected);
    });
  }
});
