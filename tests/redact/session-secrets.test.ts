import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { findSessionSecrets } from '../../src/engine/redact/session-secrets';
import { PLANTED_SECRETS } from './planted-secrets';

describe('findSessionSecrets', () => {
  it('lists each planted secret with where it occurs, and never the secret itself', async () => {
    const text = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'secrets.jsonl'), 'utf8');
    const sources = [createMemorySource('secrets.jsonl', text)];
    const session = await parseSession(sources);
    const { groups, total } = await findSessionSecrets(session, sources);
    const kinds = new Set(groups.map((g) => g.kind));
    for (const p of PLANTED_SECRETS) expect(kinds.has(p.kind), p.kind).toBe(true);
    expect(total).toBeGreaterThan(PLANTED_SECRETS.length);
    const aws = groups.find((g) => g.kind === 'aws-key')!;
    // Planted in the prompt, the tool result's content and its stdout: three places, one id.
    expect(aws.count).toBe(3);
    const first = aws.findings[0]!;
    expect(first).toMatchObject({ entryIndex: 0, line: 1, path: 'message.content' });
    const record = JSON.parse(text.split('\n')[0]!);
    expect(record.message.content.slice(first.offset, first.offset + first.length)).toBe(
      'AKIAFAKEFAKEFAKE1234',
    );
    const result = aws.findings.find((f) => f.blockIndex !== undefined);
    expect(result?.path).toBe('message.content[0].content');
    const json = JSON.stringify(groups);
    for (const p of PLANTED_SECRETS) expect(json.includes(p.secret), p.kind).toBe(false);
    expect(aws.preview).toContain('[REDACTED:aws-key]');
  });
});
