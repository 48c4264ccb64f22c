import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createNodeFileSource } from '../../src/cli/node-source';
import { computeStatsRow } from '../../src/cli/stats/stats-row';
import { computeInspectReport } from '../../src/engine/inspect/report';
import { scanSession } from '../../src/engine/library/scan-session';
import { parseSession } from '../../src/engine/parse/parse-session';
import { LIBRARY_COLUMNS } from '../../src/ui/library/library-columns';
import { corpusOrSkip, FOREIGN, REAL_LOGS } from '../helpers/corpus';
import { runCli } from '../helpers/run-cli';

// Issue 18 item 10: Gemini CLI's `logs.json` (the prompts typed in a project, beside its `chats/`)
// was reported "not a transcript" and dropped by `stats`. On the real one (../shared/corpus/foreign,
// brexp/infra: 141 prompts over several sessions) it is named, read as user entries with no API
// call, and listed by stats beside its three chats.

const present = corpusOrSkip('Gemini prompt-log test');
const PROJECT = 'brexp__infra/.gemini/tmp/95ab8478b5fc136a91eda9228bafb63a3c8fa4b561663162a9579f8add166c22';

describe.skipIf(!present)('Gemini CLI prompt log (logs.json)', () => {
  it('is read as the project prompts it holds, with no API calls and no issues', async () => {
    const path = join(FOREIGN, PROJECT, 'logs.json');
    const raw = JSON.parse(readFileSync(path, 'utf8')) as { type: string }[];
    const session = await parseSession([createNodeFileSource(path)]);
    expect(session.format).toBe('gemini-cli-logs');
    expect(session.meta.agent).toBe('Gemini CLI');
    expect(session.entries.filter((e) => e.kind === 'user')).toHaveLength(
      raw.filter((r) => r.type === 'user').length,
    );
    expect(session.entries).toHaveLength(raw.length);
    expect(session.apiCalls).toHaveLength(0);
    expect(session.issues.filter((i) => i.severity !== 'info')).toEqual([]);
  });

  it('stats lists it beside the chats, named as a prompt log', async () => {
    const path = join(FOREIGN, PROJECT, 'logs.json');
    const row = await computeStatsRow(path, [createNodeFileSource(path)]);
    expect(row).toMatchObject({
      agent: 'Gemini CLI',
      format: 'gemini-cli-logs',
      apiCalls: 0,
      userTurns: 141,
    });
  });
});

// The list named a real 122-day prompt log (998 prompts typed over 60 sessions) by its first prompt,
// "q", as one session: it is said as a prompt log with its plain counts, in the list's row, the
// page's header (e2e/formats.spec.ts), `inspect` and `stats`.
const LONG_LOG = join(REAL_LOGS, 'fabien-lessirard__dotfiles/.gemini/tmp/dashboard-mictlan/logs.json');
const longPresent = existsSync(LONG_LOG);
if (!longPresent)
  console.warn(`Gemini prompt-log counts skipped: ${LONG_LOG} not restored (scripts/restore-real-logs.mjs)`);

describe.skipIf(!longPresent)('a real 122-day prompt log, said as one', () => {
  const raw = () => JSON.parse(readFileSync(LONG_LOG, 'utf8')) as { sessionId: string; type: string }[];
  const expected = () => {
    const prompts = raw().filter((r) => r.type === 'user');
    return { prompts: prompts.length, sessions: new Set(prompts.map((r) => r.sessionId)).size };
  };
  const words = (c: { prompts: number; sessions: number }) =>
    `Prompt log: ${c.prompts} prompts over ${c.sessions} sessions, no model calls`;

  it('its row and report count the raw records, not a session named "q"', async () => {
    const counts = expected();
    expect(counts).toEqual({ prompts: 998, sessions: 60 });
    const row = await scanSession([createNodeFileSource(LONG_LOG)]);
    expect(row.promptLog).toEqual(counts);
    // The list's Session cell: the prompt log's counts, its first prompt ("q") in the hint.
    const cell = LIBRARY_COLUMNS.find((c) => c.key === 'prompt')!;
    const listed = { key: LONG_LOG, root: 'tmp', sizeBytes: 1, fileCount: 1, row };
    expect(row.firstPrompt).toBe('q');
    expect(cell.text(listed, row)).toBe(words(counts));
    expect(cell.hint?.(listed, row)).toMatch(/not one session\. First prompt: q$/);
    const session = await parseSession([createNodeFileSource(LONG_LOG)]);
    expect(computeInspectReport(session).promptLog).toEqual(counts);
    const stats = await computeStatsRow(LONG_LOG, [createNodeFileSource(LONG_LOG)]);
    expect(stats.title).toBe(words(counts));
  });

  it('inspect says it', async () => {
    const out = await runCli(['inspect', LONG_LOG]);
    expect(out.text.split('\n')[1]).toBe(`  ${words(expected())}`);
  });

  it('a chat is no prompt log', async () => {
    const chats = join(LONG_LOG, '../chats/session-2026-01-26T14-29-aa70d223.json');
    expect((await parseSession([createNodeFileSource(chats)])).meta.promptLog).toBeUndefined();
  });
});
