import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main';
import type { ErosionChain } from '../../src/engine/erosion/erosion';
import { makeErosionChain, PLANTED_PATH } from '../erosion/chain-fixture';

describe('compactlab erosion', () => {
  const dir = mkdtempSync(join(tmpdir(), 'compactlab-erosion-'));
  const file = join(dir, 'chain.jsonl');
  writeFileSync(file, makeErosionChain());
  const run = async (...args: string[]) => {
    const lines: string[] = [];
    const code = await main(['erosion', file, ...args], (t) => lines.push(t));
    return { code, text: lines.join('\n') };
  };

  it('prints each step and the facts it lost, with the line that held them', async () => {
    const { code, text } = await run();
    expect(code).toBe(0);
    const third = text.slice(text.indexOf('\n3. '), text.indexOf('\n4. '));
    expect(third).toContain(`path: ${PLANTED_PATH}  (chain.jsonl:`);
    expect(text.slice(0, text.indexOf('\n3. '))).not.toContain(`path: ${PLANTED_PATH}`);
  });

  it('--json is the chain; --replay scores the replay', async () => {
    const log = JSON.parse((await run('--json')).text) as ErosionChain;
    expect(log.source).toBe('log');
    expect(log.steps).toHaveLength(4);
    const replay = JSON.parse((await run('--replay', '--json')).text) as ErosionChain;
    expect(replay).toMatchObject({ source: 'replay', strategyId: 'claude-code' });
  });

  it('without a file prints its usage', async () => {
    const lines: string[] = [];
    expect(await main(['erosion'], (t) => lines.push(t))).toBe(2);
    expect(lines.join('\n')).toContain('compactlab erosion <session.jsonl>');
  });
});
