import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createNodeFileSource } from '../../src/cli/node-source';
import { computeInspectReport } from '../../src/engine/inspect/report';
import { parseSession } from '../../src/engine/parse/parse-session';
import { corpusFilesOf, corpusOrSkip, REAL_LOGS } from '../helpers/corpus';

// What a compaction's `summaryTokens` counts. Claude Code states the summary alone; Gemini CLI's
// notice ("compressed from N to M tokens") and Codex's count after `compacted` state the whole
// history sent on: the summary and the recent messages kept. The card said 'summary 115,614 tok'
// for the real Gemini chat of fabien-lessirard/dotfiles, where M is that history; the compaction
// now says which (`summaryScope`), and so does inspect --json.

const GEMINI_CHAT = join(
  REAL_LOGS,
  'fabien-lessirard__dotfiles/.gemini/tmp/dashboard-mictlan/chats/session-2026-02-23T08-58-c9da8256.json',
);
/** The corpus's Codex rollouts that compacted (a `compacted` record, counted plainly). */
const CODEX = corpusFilesOf('codex-cli').filter((f) =>
  readFileSync(f, 'utf8').includes('"type":"compacted"'),
);

/** The notices' counts in the raw chat, read plainly: [N, M] per notice. */
function geminiNotices(file: string): [number, number][] {
  const chat = JSON.parse(readFileSync(file, 'utf8')) as { messages: { type: string; content: unknown }[] };
  return chat.messages.flatMap((m) => {
    const hit =
      m.type === 'info' && typeof m.content === 'string'
        ? /compressed from: (\d+) to (\d+) tokens/.exec(m.content)
        : null;
    return hit ? [[Number(hit[1]), Number(hit[2])] as [number, number]] : [];
  });
}

describe.skipIf(!existsSync(GEMINI_CHAT))('a Gemini CLI compression counts the history it keeps', () => {
  it('the real chat: M is the compacted history, not a summary', async () => {
    const notices = geminiNotices(GEMINI_CHAT);
    expect(notices).toEqual([[526_049, 115_614]]);
    const session = await parseSession([createNodeFileSource(GEMINI_CHAT)]);
    expect(session.compactions).toHaveLength(1);
    expect(session.compactions[0]).toMatchObject({
      preTokens: notices[0]![0],
      summaryTokens: notices[0]![1],
      summaryScope: 'history',
    });
    const report = computeInspectReport(session);
    expect(report.compactions[0]).toMatchObject({ summaryTokens: 115_614, summaryScope: 'history' });
  });
});
if (!existsSync(GEMINI_CHAT))
  console.warn(`the Gemini compaction-scope test is skipped: ${GEMINI_CHAT} is not restored`);

const codexPresent = corpusOrSkip('the Codex compaction-scope test');
describe.skipIf(!codexPresent)('a Codex compaction counts its replacement history', () => {
  it('the corpus rollouts: the count after `compacted` is the history, not a summary', async () => {
    expect(CODEX.length).toBeGreaterThan(0);
    let counted = 0;
    for (const file of CODEX) {
      const session = await parseSession([createNodeFileSource(file)]);
      for (const c of session.compactions.filter((c) => c.summaryTokens !== undefined)) {
        expect(c.summaryScope, file).toBe('history');
        counted++;
      }
    }
    expect(counted).toBeGreaterThan(0);
  });
});
