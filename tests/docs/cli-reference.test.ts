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
});
