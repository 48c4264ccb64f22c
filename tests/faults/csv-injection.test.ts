import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main';
import { formatCsvRecord } from '../../src/engine/stats/records';
import { CONTENT_SECURITY_POLICY, DEV_HEADERS, PREVIEW_HEADERS } from '../../vite.config';

// Text from a transcript written into a CSV must not become a formula in a spreadsheet (OWASP's
// CSV injection): a field beginning with = + - @, a tab or CR gets a leading ' inside quotes.

describe('stats --csv against formula injection', () => {
  it('neutralises each formula-starting text field and leaves numbers and plain text alone', () => {
    expect(
      formatCsvRecord(['=HYPERLINK("http://x","y")', '+1', '-2+3', '@SUM(A1)', '\tx', '\rx', 'plain', -5, 7]),
    ).toBe(`"'=HYPERLINK(""http://x"",""y"")","'+1","'-2+3","'@SUM(A1)","'\tx","'\rx",plain,-5,7`);
  });

  it('writes a session id =HYPERLINK(…) from a real-shaped session as inert text', async () => {
    const text = readFileSync(join(__dirname, '../fixtures/tiny.jsonl'), 'utf8').replaceAll(
      '00fb8673-8b42-4835-a84f-3e32248c1e89',
      '=HYPERLINK(\\"http://evil.example\\",\\"open\\")',
    );
    const dir = mkdtempSync(join(tmpdir(), 'compactlab-csv-'));
    writeFileSync(join(dir, 'session.jsonl'), text);
    const out: string[] = [];
    expect(await main(['stats', dir, '--csv', '--jobs', '1'], (t) => out.push(t))).toBe(0);
    const row = out.join('\n').split('\n')[1] ?? '';
    expect(row).toContain(`"'=HYPERLINK(""http://evil.example"",""open"")"`);
    expect(row.split(',').some((field) => /^[=+@]/.test(field))).toBe(false);
  });
});

describe('the dev server’s Content-Security-Policy', () => {
  const directives = (policy: string) => new Map(policy.split('; ').map((d) => [d.split(' ')[0], d]));
  it('is the build’s, but for the inline scripts and the hot-reload WebSocket Vite needs', () => {
    const dev = directives(DEV_HEADERS['Content-Security-Policy']);
    const build = directives(CONTENT_SECURITY_POLICY);
    for (const [name, directive] of build) {
      if (name === 'script-src') expect(dev.get(name)).toBe(`${directive} 'unsafe-inline'`);
      else if (name === 'connect-src')
        expect(dev.get(name)).toBe(`${directive} ws://127.0.0.1:* ws://localhost:*`);
      else expect(dev.get(name)).toBe(directive);
    }
    // No other host than the build's: ?follow= cannot reach any.
    expect(dev.get('connect-src')).not.toMatch(/https?:\/\/(?!127\.0\.0\.1|localhost|api\.anthropic\.com)/);
    expect(dev.get('frame-ancestors')).toBe(
      directives(PREVIEW_HEADERS['Content-Security-Policy']).get('frame-ancestors'),
    );
  });
});
