import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readCodexThreadNames } from '../../src/engine/parse/dialects/codex-cli/session-index';
import {
  findSessionNamesFile,
  readSessionNamesFile,
  withListedName,
} from '../../src/engine/library/session-names';
import { CORPUS, corpusOrSkip } from '../helpers/corpus';
import { runCli } from '../helpers/run-cli';

// Codex's thread names live in `~/.codex/session_index.jsonl` ({"id","thread_name","updated_at"} a
// line per rename, the newest of an id winning: openai/codex codex-rs/core/src/rollout/session_index.rs);
// an older Codex writes a rename there only, not in the rollout, so the library listed such
// sessions without their names. The library (engine/library/session-names.ts) and `stats` now
// take the name from the nearest index above a session. Checked on the corpus's real Codex
// rollouts (copied into a ~/.codex layout) with an index written in Codex's own line shape.

const line = (id: string, name: string, at: string) =>
  JSON.stringify({ id, thread_name: name, updated_at: at });

describe('readCodexThreadNames', () => {
  it('the newest line of an id wins; a line that does not parse is skipped; "" takes the name back', () => {
    const text = [
      line('a', 'first', '2026-01-01T00:00:00Z'),
      '{"id":"b","thread_name":',
      line('b', 'kept', '2026-01-02T00:00:00Z'),
      line('a', 'second', '2026-01-03T00:00:00Z'),
      line('c', 'named', '2026-01-04T00:00:00Z'),
      line('c', '', '2026-01-05T00:00:00Z'),
      '',
    ].join('\n');
    expect(readCodexThreadNames(text)).toEqual(
      new Map([
        ['b', 'kept'],
        ['a', 'second'],
        ['c', ''],
      ]),
    );
  });

  it('a session takes the nearest index above it, and only for its agent and id', () => {
    const outer = readSessionNamesFile('home/.codex/session_index.jsonl', line('x', 'outer', 't'))!;
    const inner = readSessionNamesFile('home/.codex/sessions/session_index.jsonl', line('x', 'inner', 't'))!;
    const files = new Map([outer, inner].map((f) => [f.path, f]));
    expect(findSessionNamesFile('home/.codex/sessions/2026/05/01/rollout-x.jsonl', files)).toBe(inner);
    expect(findSessionNamesFile('home/.codex/archived_sessions/rollout-x.jsonl', files)).toBe(outer);
    expect(findSessionNamesFile('elsewhere/rollout-x.jsonl', files)).toBeUndefined();
    const row = { agent: 'Codex CLI', sessionId: 'x', title: 'from the log' };
    expect(withListedName(row, outer).title).toBe('outer');
    expect(withListedName({ ...row, agent: 'Claude Code' }, outer)).toEqual({ ...row, agent: 'Claude Code' });
    expect(withListedName({ ...row, sessionId: 'y' }, outer)).toEqual({ ...row, sessionId: 'y' });
    const takenBack = readSessionNamesFile('s/session_index.jsonl', line('x', '', 't'))!;
    expect(withListedName(row, takenBack)).toEqual({ agent: 'Codex CLI', sessionId: 'x' });
  });
});

const present = corpusOrSkip('Codex session names test');
const FOLDER = join(CORPUS, 'LAF-US__IDAHO-VAULT');
const tree = mkdtempSync(join(tmpdir(), 'compactlab-codex-names-'));
afterAll(() => rmSync(tree, { recursive: true, force: true }));

describe.skipIf(!present)('stats: Codex sessions under their index names (real rollouts)', () => {
  /** The corpus flattens `codex/sessions/2026/04/15/rollout-….jsonl` to `codex__sessions__…`: put back. */
  function restore(): { home: string; ids: { id: string; file: string }[] } {
    const home = join(tree, '.codex');
    const ids: { id: string; file: string }[] = [];
    for (const name of readdirSync(FOLDER).filter((n) => n.startsWith('codex__'))) {
      const rel = name.slice('codex__'.length).split('__');
      const to = join(home, ...rel);
      mkdirSync(join(to, '..'), { recursive: true });
      cpSync(join(FOLDER, name), to);
      const meta = JSON.parse(readFileSync(to, 'utf8').split('\n')[0]!) as { payload: { id: string } };
      ids.push({ id: meta.payload.id, file: to });
    }
    return { home, ids };
  }

  it('names the sessions the index names, from ~/.codex/sessions, ~/.codex or above; the others keep their logs’', async () => {
    const { home, ids } = restore();
    expect(ids.length).toBeGreaterThanOrEqual(4);
    // The rollouts state no name of their own (no thread_name_updated): the index is the only one.
    for (const { file } of ids) expect(readFileSync(file, 'utf8')).not.toContain('"thread_name_updated"');
    const [a, b, c] = ids;
    writeFileSync(
      join(home, 'session_index.jsonl'),
      `${[
        line(a!.id, 'first name', '2026-04-01T00:00:00Z'),
        line(b!.id, 'audit the vault', '2026-04-02T00:00:00Z'),
        line(a!.id, 'renamed', '2026-04-03T00:00:00Z'),
        line(c!.id, 'was named', '2026-04-04T00:00:00Z'),
        line(c!.id, '', '2026-04-05T00:00:00Z'),
      ].join('\n')}\n`,
    );
    const want = new Map([
      [a!.file, 'renamed'],
      [b!.file, 'audit the vault'],
    ]);
    for (const root of [join(home, 'sessions'), home, tree]) {
      const r = await runCli(['stats', root, '--jobs', '0']);
      expect(r.code, r.err).toBe(0);
      const rows = r.lines.map((l) => JSON.parse(l) as { file: string; title: string; agent: string });
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) {
        expect(row.agent).toBe('Codex CLI');
        expect({ file: row.file, title: row.title }).toEqual({
          file: row.file,
          title: want.get(row.file) ?? '',
        });
      }
      expect(rows.filter((row) => row.title !== '').length).toBe(
        rows.filter((row) => want.has(row.file)).length,
      );
    }
  });
});
