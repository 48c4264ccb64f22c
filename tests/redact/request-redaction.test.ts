import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { getSecretId } from '../../src/engine/redact/find-secrets';
import { requirePreset } from '../../src/engine/strategies/prompt-presets';
import type { PromptSettings } from '../../src/engine/summarize/prepare';
import { prepareSummaryAt } from '../../src/engine/summarize/session-ops';
import { PLANTED_SECRETS } from './planted-secrets';

describe('the summarizer request with redaction', () => {
  it('masks every planted secret in the request, its facts and the recorded summary; unmasks by id', async () => {
    const text = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'secrets.jsonl'), 'utf8');
    const sources = [createMemorySource('secrets.jsonl', text)];
    const session = await parseSession(sources);
    const preset = requirePreset('claude-code-full');
    const settings: PromptSettings = {
      presetId: preset.id,
      prompt: preset.prompt,
      customInstructions: 'Mention fake.person@example.test',
      systemPrompt: 'sys',
      model: 'm',
      maxOutputTokens: 1000,
    };
    const point = { kind: 'compaction' as const, compactionIndex: 0 };
    const plain = JSON.stringify(await prepareSummaryAt(session, sources, point, settings));
    for (const p of PLANTED_SECRETS) expect(plain, p.kind).toContain(JSON.stringify(p.secret).slice(1, -1));
    const masked = JSON.stringify(
      await prepareSummaryAt(session, sources, point, { ...settings, redact: { unmasked: [] } }),
    );
    for (const p of PLANTED_SECRETS) expect(masked.includes(p.secret), p.kind).toBe(false);
    for (const fragment of ['FAKEFAKEFAKE', 'fakeS3cretPw', 'hunter2', 'fakeuser', 'fake.person'])
      expect(masked.includes(fragment), fragment).toBe(false);
    expect(masked).toContain('[REDACTED:jwt]');
    const unmasked = JSON.stringify(
      await prepareSummaryAt(session, sources, point, {
        ...settings,
        redact: { unmasked: [getSecretId('aws-key', 'AKIAFAKEFAKEFAKE1234')] },
      }),
    );
    expect(unmasked).toContain('AKIAFAKEFAKEFAKE1234');
    expect(unmasked).not.toContain(PLANTED_SECRETS[0]!.secret);
  });
});
