import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createNodeFileSource } from '../../src/cli/node-source';
import { computeReportHtml } from '../../src/engine/export/report-html';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { CORPUS, corpusOrSkip, REAL_LOGS } from '../helpers/corpus';

// The one-file report names the session as its agent lists it (parse/session-title.ts). The name
// is the log's own text: escaped, and masked like the rest when redacting (a /rename can hold a
// token as well as a prompt can).

const TOKEN = 'ghp_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789';
const records = [
  {
    type: 'user',
    uuid: 'u1',
    parentUuid: null,
    sessionId: 's1',
    timestamp: '2026-05-01T10:00:00Z',
    message: { role: 'user', content: 'deploy it' },
  },
  { type: 'custom-title', customTitle: `deploy <b>now</b> with GITHUB_TOKEN=${TOKEN}`, sessionId: 's1' },
];

describe('the report names the session', () => {
  it('escaped, and masked when redacting', async () => {
    const text = records.map((r) => JSON.stringify(r)).join('\n');
    const source = createMemorySource('s1.jsonl', text);
    const session = await parseSession([source]);
    const plain = await computeReportHtml(session, [source], { generatedAtMs: 0 });
    expect(plain).toContain(`<dt>name</dt><dd>deploy &lt;b&gt;now&lt;/b&gt; with GITHUB_TOKEN=${TOKEN}</dd>`);
    const masked = await computeReportHtml(session, [source], {
      generatedAtMs: 0,
      redaction: { unmasked: [] },
    });
    expect(masked).toMatch(
      /<dt>name<\/dt><dd>deploy &lt;b&gt;now&lt;\/b&gt; with GITHUB_TOKEN=\[REDACTED:[\w-]+\]<\/dd>/,
    );
    expect(masked).not.toContain(TOKEN);
  });
});

// A real session whose first summary missed one fact: its report read "1 facts missed".
describe.runIf(corpusOrSkip('the report of a corpus session, its missed facts counted'))(
  'the report counts missed facts in words (the corpus)',
  () => {
    it('says "1 fact missed" and "N facts missed"', async () => {
      const file = join(
        CORPUS,
        'LAF-US__IDAHO-VAULT/claude__projects__c--Users-loganf-Documents-IDAHO-VAULT__05541cb5-fe43-41c9-87ef-2a6d89bba271.jsonl',
      );
      const source = createNodeFileSource(file);
      const session = await parseSession([source]);
      const html = await computeReportHtml(session, [source], { generatedAtMs: 0 });
      const counts = [...html.matchAll(/<summary>(\d+) (facts?) missed<\/summary>/g)].map((m) => [
        Number(m[1]),
        m[2],
      ]);
      expect(counts.length).toBeGreaterThan(0);
      expect(counts).toContainEqual([1, 'fact']);
      for (const [n, word] of counts) expect(word).toBe(n === 1 ? 'fact' : 'facts');
    });
  },
);

// A real Cline task (gmfstu/Online-Card-Architecture, restored into .real-logs) has one user turn:
// its report's size line read '1 user turns'.
const CLINE_TASK = join(REAL_LOGS, 'gmfstu__Online-Card-Architecture/exported_task_1769064454592');
if (!existsSync(CLINE_TASK))
  console.warn(`the report size-line test is skipped: ${CLINE_TASK} is not restored`);

describe.skipIf(!existsSync(CLINE_TASK))('the report’s size line says one of a thing in the singular', () => {
  it('a real Cline task of one user turn', async () => {
    const sources = ['ui_messages.json', 'api_conversation_history.json', 'task_metadata.json'].map((f) =>
      createNodeFileSource(join(CLINE_TASK, f)),
    );
    const session = await parseSession(sources);
    expect(session.userTurns).toBe(1);
    const html = await computeReportHtml(session, sources, { generatedAtMs: 0 });
    expect(html).toContain(`313 entries · 1 user turn · ${session.apiCalls.length} API calls · peak context`);
  });
});
