import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main';
import { getPrintableUrl } from '../../src/engine/redact/printable-url';
import { createFixtureText } from '../summarize/fixture';

// Issue 22, item 5: what goes to a model. `compactlab summarize` masks the span's secrets by
// default (--send-unmasked sends it as is) and never prints a base URL's credentials or query.

const SECRET = 'glpat-Xq7mWz2LkP9vTb4nRc8s';

describe('compactlab summarize masking', () => {
  const dir = mkdtempSync(join(tmpdir(), 'compactlab-sum-mask-'));
  const file = join(dir, 'session.jsonl');
  // The fixture's first user text gets a GitLab token: the request must not carry it.
  const lines = createFixtureText().split('\n');
  const i = lines.findIndex((l) => l.includes('"type":"user"'));
  const record = JSON.parse(lines[i]!);
  const c = record.message.content;
  record.message.content =
    typeof c === 'string' ? `${c} token ${SECRET}` : [...c, { type: 'text', text: `token ${SECRET}` }];
  lines[i] = JSON.stringify(record);
  writeFileSync(file, lines.join('\n'));

  async function run(args: string[]): Promise<string> {
    const out: string[] = [];
    expect(await main(['summarize', file, '--at', 'c0', '--json', ...args], (t) => out.push(t))).toBe(0);
    return out.join('\n');
  }

  it('masks the request by default and sends it as is with --send-unmasked', async () => {
    const masked = JSON.parse(await run([]));
    expect(JSON.stringify(masked.request)).not.toContain(SECRET);
    expect(JSON.stringify(masked.request)).toContain('[REDACTED:gitlab-pat]');
    const raw = JSON.parse(await run(['--send-unmasked']));
    expect(JSON.stringify(raw.request)).toContain(SECRET);
  });

  it('prints a base URL without its credentials or query string', () => {
    expect(getPrintableUrl('https://user:pw@proxy.example.test/v1?key=abc#x')).toBe(
      'https://proxy.example.test/v1',
    );
  });
});
