import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORPUS, corpusOrSkip } from '../helpers/corpus';
import { runCli } from '../helpers/run-cli';

// A tester's report on a real Claude Code 2.0.76 session (aistrad/work c76ab3a5, 306 lines):
// `inspect` lists 3 automatic compactions, `replay` said "2/2 auto-compactions reproduced" and
// listed only log compactions 1 and 3. Compaction 2 (line 209) lies on the branch a resume
// abandoned: line 256's parent is line 208, before it. The replay follows the main line (right);
// it now says what it left out and why, and gives the log's API call numbers beside its main
// calls ("after API call 57 of 66" in inspect is compaction 3's last call written before it, on
// the abandoned branch; on the main line it follows API call 45).

const DIR = join(CORPUS, 'aistrad__work');

describe.skipIf(!corpusOrSkip('replay of a real resumed session'))(
  'replay: a compaction on an abandoned branch',
  () => {
    const file = join(DIR, readdirSync(DIR).find((f) => f.includes('c76ab3a5-d2b2-4e46-b7c5-6f2a31a55eb0'))!);

    it('is the resume the raw records show: line 256 goes on from line 208, before the boundary at 209', () => {
      const records = readFileSync(file, 'utf8')
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(records[208]).toMatchObject({ type: 'system', subtype: 'compact_boundary' });
      expect(records[255].parentUuid).toBe(records[207].uuid);
      expect(records[258]).toMatchObject({ type: 'system', subtype: 'compact_boundary' });
    });

    it('says the compaction it left out, where the branch left and where the log went on', async () => {
      const inspect = await runCli(['inspect', file]);
      expect(inspect.text).toMatch(
        /Compaction 2 of 3 {2}line 209 {2}compact \(auto\).*after API call 45 of 66/,
      );
      expect(inspect.text).toMatch(
        /Compaction 3 of 3 {2}line 259 {2}compact \(auto\).*after API call 57 of 66/,
      );

      const replay = await runCli(['replay', file]);
      expect(replay.code).toBe(0);
      const lines = replay.lines.join('\n').split('\n');
      expect(lines).toContain(
        'log: 2/2 auto-compactions reproduced (±1) · matched 2 · early 0 · late 0 · missing 0 · manual 0 · extra 0 · left out 1 (on a branch not replayed)',
      );
      expect(lines.find((l) => l.startsWith('branches: '))).toContain(
        'the replay follows the main line: 54 of the log\'s 66 API calls, "main call N" counting them and "API call N" numbering all the log\'s, as inspect does',
      );
      const outcomes = lines.filter((l) => l.startsWith('  log compaction '));
      expect(outcomes).toEqual([
        '  log compaction 1 compact auto after API call 11 (main call 11) pre 166,599: matched (0, event 1)',
        '  log compaction 2 compact auto at line 209 after API call 45 pre 156,422: left out — on branch 1, which the log did not go on with (at line 256 it went on from line 208, before this compaction); the replay follows the main line',
        '  log compaction 3 compact auto after API call 45 (main call 45) pre 156,422: matched (0, event 2) — in the file it comes after API call 57 (inspect\'s "after"), of branch 1',
      ]);

      const json = await runCli(['replay', file, '--json']);
      expect(JSON.parse(json.text).comparison.leftOut).toEqual([
        {
          compactionIndex: 1,
          kind: 'compact',
          trigger: 'auto',
          line: 209,
          preTokens: 156_422,
          afterApiCall: 44,
          branchId: 1,
          forkLine: 208,
          continued: false,
          continuedAtLine: 256,
        },
      ]);
    });
  },
);
