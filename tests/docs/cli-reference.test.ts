import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CLI_DOCS_PATH, REGENERATE_COMMAND, renderCliDocs } from '../../scripts/gen-cli-docs';
import { STRATEGIES } from '../../src/engine/strategies/registry';

// docs/cli.md is generated from what `compactlab --help` and `replay --strategy <id> --help`
// print. A changed usage text or knob spec without a regenerated page fails here.

describe('docs/cli.md', () => {
  it('is what the command prints today', async () => {
    const expected = await renderCliDocs();
    const current = readFileSync(CLI_DOCS_PATH, 'utf8');
    expect(current === expected, `docs/cli.md is out of date: run ${REGENERATE_COMMAND}`).toBe(true);
  });

  it('has a section per command and per strategy', async () => {
    const text = await renderCliDocs();
    for (const name of ['inspect', 'replay', 'summarize', 'statusline', 'watch', 'stats', 'export'])
      expect(text).toContain(`### compactlab ${name}\n`);
    for (const strategy of STRATEGIES) expect(text).toContain(`### ${strategy.id}\n`);
  });

  it('lists each command once, under a heading and an anchor of its own', async () => {
    const text = await renderCliDocs();
    const listed = [...text.matchAll(/^- \[`([^`]+)`\]\(#([^)]+)\)$/gm)].map((m) => ({
      name: m[1]!,
      anchor: m[2]!,
    }));
    const headings = [...text.matchAll(/^### compactlab (\S+)$/gm)].map((m) => m[1]!);
    // `stats` has three forms in --help; each command is one entry and one section all the same.
    expect(listed.map((c) => c.name)).toEqual(headings);
    expect(new Set(headings).size).toBe(headings.length);
    for (const { name, anchor } of listed) expect(anchor).toBe(`compactlab-${name}`);
    const stats = text.slice(text.indexOf('### compactlab stats\n'), text.indexOf('### compactlab search\n'));
    expect(stats.match(/^ {2}compactlab stats /gm)).toHaveLength(3);
  });

  it("names in each strategy's section only that strategy's knobs", async () => {
    const text = await renderCliDocs();
    const knobsAt = text.indexOf('## Strategy knobs\n');
    for (const [i, strategy] of STRATEGIES.entries()) {
      const start = text.indexOf(`### ${strategy.id}\n`, knobsAt);
      const next = STRATEGIES[i + 1];
      const section = text.slice(start, next ? text.indexOf(`### ${next.id}\n`, knobsAt) : undefined);
      const named = [...section.matchAll(/Knobs of (\S+?)[ :]/g)].map((m) => m[1]);
      expect(named, strategy.id).toEqual([strategy.id]);
      // The replay command's usage is the replay section's, not each strategy's.
      expect(section, strategy.id).not.toContain('compactlab replay <session.jsonl>');
      expect(section, strategy.id).not.toContain('--compact-at N');
    }
  });

  it('documents the exit codes the commands give, from --help', async () => {
    const text = await renderCliDocs();
    const at = text.indexOf('### Exit codes\n');
    expect(at).toBeGreaterThan(text.indexOf('### Options\n'));
    const section = text.slice(at, text.indexOf('## Strategy knobs'));
    for (const code of ['0', '1', '2']) expect(section).toMatch(new RegExp(`^ {2}${code} {2}\\S`, 'm'));
    expect(section).toContain('usage error');
  });
});
