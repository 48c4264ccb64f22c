import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { getRedactionRefusal } from '../../src/engine/redact/mask';
import { CORPUS, corpusOrSkip } from '../helpers/corpus';
import { runCli } from '../helpers/run-cli';

// A tester's report: the compacted transcript (JSONL) of a real Claude Code session, redacted, was
// refused ("a secret (email) survived redaction on output line 9") in the page and in `compactlab
// export --jsonl --redact`, though nothing in it is a secret: its text holds `\n@router.post(`
// (Python decorators after newlines), which the written JSON reads as `n@router.post`.

const REAL = join(
  CORPUS,
  'aistrad__work/claude__projects__-home-aiscend-work-vibelife__19722b8a-e1b0-467d-9bc0-4a199bfdafd7.jsonl',
);
const dir = mkdtempSync(join(tmpdir(), 'compactlab-export-escapes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(!corpusOrSkip('redacted JSONL export of a real session'))(
  'a redacted JSONL export of a real session',
  () => {
    it('is written, its escapes read as escapes, and the re-scan of what was written agrees', async () => {
      const out = join(dir, 'compacted.jsonl');
      const run = await runCli(['export', REAL, '--jsonl', '--redact', '-o', out]);
      expect(run.err).not.toMatch(/refusing/);
      expect(run.code).toBe(0);
      const written = readFileSync(out, 'utf8');
      expect(written).toContain('\\n@router.post(');
      expect(getRedactionRefusal(written, { unmasked: [] })).toBeUndefined();
    });
  },
);
