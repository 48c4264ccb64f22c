import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { prepareReplay } from '../../src/engine/replay/prepare';
import { buildTranscript, growingSpec } from '../replay/transcript-fixture';

// `compactlab replay --compact-at N [--partial up-to|from --pivot M]`: Claude Code's /compact,
// full or partial in both directions (claude-code-compaction-v2.1.68.txt "Prompt 2"), at any call.

describe('compactlab replay --compact-at', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'compactlab-manual-'));
  const file = join(dir, 'session.jsonl');
  const text = `${buildTranscript(growingSpec(30)).join('\n')}\n`;
  writeFileSync(file, text);
  const prepared = prepareReplay(await parseSession([createMemorySource('session.jsonl', text)]));
  const run = async (...args: string[]) => {
    const { code, text, err } = await runCli(['replay', file, '--no-auto-compact', ...args]);
    return { code, text, error: err };
  };
  /** The 1-based number of the first entry of main call k (0-based), as the app shows it. */
  const entryOfCall = (k: number) => prepared.ctxEntry[prepared.callPos[k]!]! + 1;

  it('compacts in full after the call the dump numbers N, several times', async () => {
    const { code, text } = await run('--compact-at', '10', '--compact-at', '25');
    expect(code).toBe(0);
    expect(text).toMatch(/^event 1 after API call 10 \(main call 10\) compact manual full/m);
    expect(text).toMatch(/^event 2 after API call 25 \(main call 25\) compact manual full/m);
    const json = JSON.parse((await run('--compact-at', '10', '--json')).text);
    expect(json.events).toHaveLength(1);
    expect(json.events[0]).toMatchObject({ afterApiCall: 9, trigger: 'manual', mechanism: 'full' });
    expect(json.events[0].request.variant).toBe('full');
  });

  it('partial up-to keeps the pivot onward; from keeps what precedes it and uses Prompt 2', async () => {
    const pivot = entryOfCall(15);
    const upTo = JSON.parse(
      (await run('--compact-at', '20', '--partial', 'up-to', '--pivot', String(pivot), '--json')).text,
    ).events[0];
    expect(upTo).toMatchObject({ mechanism: 'partial', trigger: 'manual', afterApiCall: 19 });
    expect(upTo.keptFromEntryIndex).toBe(pivot - 1);
    expect(upTo.request.variant).toBe('full');
    expect(upTo.spanToEntryIndex).toBeLessThan(pivot - 1);
    const from = JSON.parse(
      (await run('--compact-at', '20', '--partial', 'from', '--pivot', String(pivot), '--json')).text,
    ).events[0];
    expect(from).toMatchObject({ mechanism: 'partial', afterApiCall: 19 });
    expect(from.request.variant).toBe('partial');
    expect(from.spanFromEntryIndex).toBe(pivot - 1);
    expect(from.keptFromEntryIndex).toBe(0);
    // Each keeps the other side: the two kept parts and the two spans add up to the same history.
    expect(from.keptTokens + from.spanTokens).toBeCloseTo(upTo.keptTokens + upTo.spanTokens, 0);
    // A pivot given by uuid is the same entry.
    const uuid = prepared.session.entries[pivot - 1]!.uuid!;
    const byUuid = JSON.parse(
      (await run('--compact-at', '20', '--partial', 'from', '--pivot', uuid, '--json')).text,
    ).events[0];
    expect(byUuid.spanFromEntryIndex).toBe(pivot - 1);
  });

  it('a pivot and a direction go with the --compact-at before them', async () => {
    const { text } = await run(
      '--compact-at',
      '8',
      '--compact-at',
      '24',
      '--partial',
      'from',
      '--pivot',
      String(entryOfCall(20)),
    );
    expect(text).toMatch(/^event 1 after API call 8 .* compact manual full/m);
    expect(text).toMatch(/^event 2 after API call 24 .* compact manual partial/m);
  });

  it('a pivot with nothing on one side compacts in full and says why', async () => {
    const json = JSON.parse(
      (
        await run(
          '--compact-at',
          '20',
          '--partial',
          'up-to',
          '--pivot',
          String(prepared.ctxEntry[0]! + 1),
          '--json',
        )
      ).text,
    );
    expect(json.events[0].mechanism).toBe('full');
    expect(json.events[0].note).toMatch(/leaves nothing on one side.*compacted in full/);
  });

  it('rejects what it cannot do, naming the flag and why', async () => {
    expect((await run('--compact-at', '0')).error).toMatch(/--compact-at expects an API call number/);
    expect((await run('--compact-at', '99')).error).toMatch(/has 30 API calls/);
    expect((await run('--partial', 'from')).error).toMatch(/goes after the --compact-at/);
    expect((await run('--compact-at', '5', '--partial', 'sideways')).error).toMatch(/up-to or from/);
    expect((await run('--compact-at', '5', '--partial', 'from')).error).toMatch(/needs --pivot/);
    const late = await run('--compact-at', '5', '--pivot', String(entryOfCall(10)));
    expect(late.code).toBe(2);
    expect(late.error).toMatch(/comes after API call 5/);
    expect((await run('--compact-at', '5', '--pivot', 'no-such-uuid')).error).toMatch(/no entry/);
  });
});
