import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main';
import { listProviderRules } from '../../src/engine/redact/gitleaks-rules';
import { getRedactionRefusal } from '../../src/engine/redact/mask';
import { findSession, findSurvivors, writePlantedSession } from './planted-session';

// Issue 22, item 6, the CLI: every planted value (planted-session.ts: each kept gitleaks rule's,
// unprefixed tokens, item 4's shapes, in every place) is masked in every redacted export.

const session = findSession();

describe.skipIf(!session)('planted secrets (issue 22): none survives any redacted export of the CLI', () => {
  it(`masks all of them in the JSONL, Markdown, JSON and HTML exports of ${session?.split('/').at(-2)}`, async () => {
    const planted = writePlantedSession(session!, mkdtempSync(join(tmpdir(), 'compactlab-planted-')));
    // Every kept rule has a planted value (the count the docs state).
    expect(planted.plants.length).toBeGreaterThanOrEqual(listProviderRules().length + 15);
    const outputs: Record<string, string> = {};
    for (const [name, args] of [
      ['jsonl', ['export', planted.main, planted.subagent, '--jsonl', '--redact']],
      ['md', ['export', planted.main, planted.subagent, '--md', '--redact']],
      ['json', ['export', planted.main, planted.subagent, '--json', '--redact']],
      ['html', ['report', planted.main, planted.subagent, '--redact']],
    ] as const) {
      const target = join(planted.dir, `out.${name}`);
      const code = await main([...args, '-o', target], () => {});
      expect(code, name).toBe(0);
      outputs[name] = readFileSync(target, 'utf8');
    }
    expect(findSurvivors(planted, outputs)).toEqual([]);
    // The re-scan the CLI and the page run before writing: a planted line put back into an export
    // is named by its rule and line, never by its value.
    for (const [name, text] of Object.entries(outputs)) {
      const plant = planted.plants[0]!;
      const tampered = `${text}\n${plant.line}`;
      const refusal = getRedactionRefusal(tampered, { unmasked: [] });
      expect(refusal, name).toBe(
        `a secret (${plant.label}) survived redaction on output line ${tampered.split('\n').length}`,
      );
      expect(getRedactionRefusal(text, { unmasked: [] }), name).toBeUndefined();
    }
    // The same export unredacted holds them all (the plants reach the outputs checked above).
    const plain = join(planted.dir, 'plain.md');
    expect(await main(['export', planted.main, planted.subagent, '--md', '-o', plain], () => {})).toBe(0);
    const missing = planted.secrets.filter(
      (p) => !findSurvivors({ ...planted, secrets: [p] }, { md: readFileSync(plain, 'utf8') }).length,
    );
    expect(missing.map((p) => p.label)).toEqual([]);
  }, 60_000);
});
