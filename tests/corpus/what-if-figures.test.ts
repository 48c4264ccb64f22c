import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createNodeFileSource } from '../../src/cli/node-source';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { prepareReplay } from '../../src/engine/replay/prepare';
import { computeSettingRows } from '../../src/engine/stats/setting-rows';
import { CORPUS, corpusOrSkip, FOREIGN } from '../helpers/corpus';
import { runCli } from '../helpers/run-cli';

// What a setting costs over real sessions, as the library's What if… and `stats --strategy` count
// it: a session's figures do not depend on the folder it was read from (the page names a file by
// its path under the picked folder, the CLI by its absolute path), a session without an API call
// is said, and the totals are the sum of the session rows.

const present = corpusOrSkip('what-if figures test');
/** A Claude Code 2.1.x session whose six compaction messages name its transcript's path. */
const SESSION = join(
  CORPUS,
  'LAF-US__IDAHO-VAULT/claude__projects__c--Users-loganf-Documents-IDAHO-VAULT__05541cb5-fe43-41c9-87ef-2a6d89bba271.jsonl',
);

const ndjson = (lines: string[]) => lines.map((l) => JSON.parse(l) as Record<string, unknown>);

describe.skipIf(!present || !existsSync(SESSION))('what-if figures on real sessions', () => {
  it('a session replays to the same cost whatever folder it was read from', async () => {
    const bytes = readFileSync(SESSION);
    const spec = { strategyId: 'claude-code', overrides: { autocompactPctOverride: 60 } };
    // The page's name (under the picked folder), the CLI's (absolute), a dropped file's (alone).
    const names = [
      'cct/LAF-US__IDAHO-VAULT/.claude/projects/c--Users-loganf-Documents-IDAHO-VAULT/05541cb5-fe43-41c9-87ef-2a6d89bba271.jsonl',
      '/tmp/cctree/LAF-US__IDAHO-VAULT/.claude/projects/c--Users-loganf-Documents-IDAHO-VAULT/05541cb5-fe43-41c9-87ef-2a6d89bba271.jsonl',
      '05541cb5-fe43-41c9-87ef-2a6d89bba271.jsonl',
    ];
    const rows = await Promise.all(
      names.map(
        async (name) => (await computeSettingRows(name, [createMemorySource(name, bytes)], spec))[0]!,
      ),
    );
    // They were $18.624279, $18.624651 and less again: the continuation message's transcript hint
    // carried the name read, in every call after each compaction.
    expect(rows[0]!.compactions).toBeGreaterThan(0);
    for (const key of ['costUsd', 'cacheReadTokens', 'cacheWriteTokens', 'summarizedTokens'] as const) {
      expect(rows[1]![key], key).toBe(rows[0]![key]);
      expect(rows[2]![key], key).toBe(rows[0]![key]);
    }
  });

  it('the hint names the file without the folder it was read from', async () => {
    const session = await parseSession([createNodeFileSource(SESSION)]);
    expect(prepareReplay(session).transcriptPath).toBe(SESSION.split('/').pop());
  });
});

describe.skipIf(!present || !existsSync(FOREIGN))('stats --strategy over the foreign corpus', () => {
  it('says the sessions without an API call, and the totals are the sum of the session rows', async () => {
    const { code, lines, err } = await runCli([
      'stats',
      FOREIGN,
      '--strategy',
      'claude-code',
      '--sessions',
      '--jobs',
      '0',
    ]);
    expect(code).toBe(0);
    const rows = ndjson(lines);
    const sessions = rows.filter((r) => r.row === 'session');
    const [total] = rows.filter((r) => r.row === 'total');
    // Gemini CLI's two prompt logs (logs.json: the prompts typed, no model call) have no row; they
    // were left out of the rows and the totals without a word.
    const noCalls = err.match(
      /(\d+) sessions have no API call, nothing to replay \(no row, not in the totals\): (.*)/,
    );
    expect(noCalls?.[1]).toBe('2');
    expect(noCalls?.[2]?.split(', ').every((f) => f.endsWith('/logs.json'))).toBe(true);
    expect(sessions.some((r) => String(r.file).endsWith('logs.json'))).toBe(false);
    expect(total!.sessions).toBe(sessions.length);
    for (const key of [
      'apiCalls',
      'compactions',
      'costUsd',
      'realCostUsd',
      'loggedCostUsd',
      'unpricedCalls',
    ]) {
      const sum = sessions.reduce((s, r) => s + Number(r[key] ?? 0), 0);
      expect(Number(total![key]), key).toBeCloseTo(sum, 5);
    }
  });
});
