import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createNodeFileSource } from '../../src/cli/node-source';
import { computeBranches } from '../../src/engine/parse/branches';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { prepareReplay } from '../../src/engine/replay/prepare';
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

// Claude Code 2.1.81 (LAF-US/IDAHO-VAULT cd12a960): a background agent's progress, stamped with the
// Agent call's answer (21:51:40), was written in one chunk at 22:13 after 53 calls of the main
// thread, under that answer; the next entry hangs on the last progress record. Read as a fork, the
// main line held 60 of the file's 113 calls. A progress record stamped before the entry the file
// wrote just ahead of it was written late: it continues the file too.
const base = { sessionId: 's', version: '2.1.81', cwd: '/w', userType: 'external', isSidechain: false };
const at = (s: number) => new Date(Date.UTC(2026, 2, 24, 21, 51, s)).toISOString();
const usage = {
  input_tokens: 10,
  cache_read_input_tokens: 1_000,
  cache_creation_input_tokens: 0,
  output_tokens: 5,
};
const user = (uuid: string, parentUuid: string | null, s: number, content: unknown) => ({
  ...base,
  type: 'user',
  uuid,
  parentUuid,
  timestamp: at(s),
  message: { role: 'user', content },
});
const answer = (uuid: string, parentUuid: string, s: number, id: string, content: unknown[]) => ({
  ...base,
  type: 'assistant',
  uuid,
  parentUuid,
  timestamp: at(s),
  message: { id, type: 'message', role: 'assistant', model: 'claude-sonnet-4-6', content, usage },
});
const progress = (uuid: string, parentUuid: string, s: number) => ({
  ...base,
  type: 'progress',
  uuid,
  parentUuid,
  timestamp: at(s),
  toolUseID: 'agent_msg_01',
  parentToolUseID: 'toolu_agent',
  data: { type: 'agent_progress', prompt: 'Look around.' },
});
const LATE_CHUNK = [
  user('u1', null, 0, 'Review the docs.'),
  answer('a1', 'u1', 1, 'm1', [
    { type: 'tool_use', id: 'toolu_agent', name: 'Agent', input: { prompt: 'Look around.' } },
  ]),
  user('r1', 'a1', 2, [
    { type: 'tool_result', tool_use_id: 'toolu_agent', content: 'Launched in the background.' },
  ]),
  answer('a2', 'r1', 3, 'm2', [{ type: 'text', text: 'Meanwhile, the docs.' }]),
  user('u2', 'a2', 20, 'Go on.'),
  answer('a3', 'u2', 21, 'm3', [{ type: 'text', text: 'Done.' }]),
  progress('p1', 'a1', 1),
  progress('p2', 'p1', 2),
  user('u3', 'p2', 40, 'And the rest?'),
  answer('a4', 'u3', 41, 'm4', [{ type: 'text', text: 'All of it.' }]),
];

describe('Claude Code: progress written late in a chunk, after later calls', () => {
  it('continues the file: every call is on the main line', async () => {
    const text = `${LATE_CHUNK.map((r) => JSON.stringify(r)).join('\n')}\n`;
    const session = await parseSession([createMemorySource('late-progress.jsonl', text)]);
    expect(session.apiCalls.length).toBe(4);
    expect(prepareReplay(session).calls.length).toBe(4);
  });

  const CD12 = join(
    REAL_LOGS,
    'LAF-US__IDAHO-VAULT/.claude/projects/c--Users-loganf-Documents-IDAHO-VAULT/cd12a960-09e7-4ae0-bacc-11eec8d87447.jsonl',
  );
  if (!existsSync(CD12)) console.warn(`the late-progress-chunk real log is skipped: ${CD12} is not restored`);
  it.skipIf(!existsSync(CD12))('holds the real session’s 113 calls on its main line', async () => {
    const lines = readFileSync(CD12, 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as Line & { isSidechain?: boolean });
    const ids = new Set(
      lines
        .filter((l) => l.type === 'assistant' && l.message?.usage && !l.isSidechain)
        .map((l) => l.message!.id),
    );
    expect(ids.size).toBe(113);
    const session = await parseSession([createNodeFileSource(CD12)]);
    expect(prepareReplay(session).calls.length).toBe(113);
  });
});
