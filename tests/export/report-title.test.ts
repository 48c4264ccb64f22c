import { describe, expect, it } from 'vitest';
import { computeReportHtml } from '../../src/engine/export/report-html';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';

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
