import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createNodeFileSource } from '../../src/cli/node-source';
import { computeBranches } from '../../src/engine/parse/branches';
import { parseSession } from '../../src/engine/parse/parse-session';
import { REAL_LOGS } from '../helpers/corpus';

// A progress record stamped before the entry it names as parent continues the file (branches.ts).
// A real Claude Code 2.1.68 session of fabien-lessirard/dotfiles (restored by
// scripts/restore-real-logs.mjs): hook progress of 15:33 hangs on an answer of 15:45 (line 160),
// written after a prompt of 15:50 (line 166) and its call (line 167), and the next prompt hangs on
// that progress. Read as a fork, the main line left out the call at line 167 (158 of 159 calls
// replayed) while the next request held its turn: a plain count of the raw usage is the reference.

const FILE = join(
  REAL_LOGS,
  'fabien-lessirard__dotfiles/.claude/projects/C--Users-acodu-dev-dashboard-mictlan/e739b244-acba-4c61-bb7c-897bf3a86747.jsonl',
);
const present = existsSync(FILE);
if (!present) console.warn(`the stale-progress-parent test is skipped: ${FILE} is not restored`);

interface Line {
  type?: string;
  timestamp?: string;
  message?: { id?: string; usage?: Record<string, number> };
}

describe.skipIf(!present)('Claude Code: progress written late under an earlier answer', () => {
  it('is no fork: every call of the file is on the main line', async () => {
    const lines = readFileSync(FILE, 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as Line);
    // Plainly: the calls (message ids with usage), and the contexts at lines 167 and 223.
    const ids = new Set(
      lines.filter((l) => l.type === 'assistant' && l.message?.usage).map((l) => l.message!.id),
    );
    const context = (n: number) => {
      const u = lines[n - 1]!.message!.usage!;
      return (u.input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0);
    };
    expect(ids.size).toBe(159);
    expect([context(167), context(223)]).toEqual([61_066, 62_319]);
    expect(Date.parse(lines[171]!.timestamp!)).toBeLessThan(Date.parse(lines[159]!.timestamp!));

    const session = await parseSession([createNodeFileSource(FILE)]);
    expect(session.apiCalls.length).toBe(159);
    expect(computeBranches(session)).toBeUndefined();
  });
});
