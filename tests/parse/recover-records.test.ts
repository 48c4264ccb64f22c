import { at } from '../../src/engine/assert';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recoverRecords } from '../../src/engine/parse/recover-records';
import { generateSession } from '../../sample/generate-session';
import { CORPUS, corpusOrSkip } from '../helpers/corpus';
import { cpuMs } from '../helpers/cpu-time';

const a = { type: 'summary', summary: 'first {"not":"a record"} \\"quoted\\"', leafUuid: 'x' };
const b = { type: 'last-prompt', lastPrompt: 'second', leafUuid: 'x' };
const c = { type: 'user', message: { role: 'user', content: [{ type: 'text', text: '}{' }] } };
const json = JSON.stringify;

/** `depth` objects nested in one another: `{"a":{"a":…1…}}`. */
const nested = (depth: number): string => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

/** CPU time, not wall time: other jobs on the machine do not stretch it (helpers/cpu-time.ts). */
const timeMs = (run: () => void): number => cpuMs(run);

describe('recoverRecords', () => {
  it('recovers records glued without a newline, in order', () => {
    expect(recoverRecords(`${json(a)}${json(b)}`)).toEqual({ records: [a, b], headLost: false });
    expect(recoverRecords(`${json(a)}${json(b)} ${json(c)} `)).toEqual({
      records: [a, b, c],
      headLost: false,
    });
  });

  it('names the cut-off head as lost and keeps the records after it', () => {
    const cut = json(a).slice(0, 30);
    expect(recoverRecords(`${cut}${json(b)}`)).toEqual({ records: [b], headLost: true });
    // Cut inside an escape: the backslash before the next record's quote is not the record's.
    const escaped = json(a).indexOf('\\');
    expect(recoverRecords(`${json(a).slice(0, escaped + 1)}${json(b)}`)).toEqual({
      records: [b],
      headLost: true,
    });
  });

  it('returns undefined when no whole record ends the line', () => {
    expect(recoverRecords('this is not json')).toBeUndefined();
    expect(recoverRecords(`${json(a)}garbage`)).toBeUndefined();
    expect(recoverRecords(json(a).slice(0, -1))).toBeUndefined();
    expect(recoverRecords(`${json(a)}${json(b).slice(0, 20)}`)).toBeUndefined();
    expect(recoverRecords('')).toBeUndefined();
  });

  it('stays linear on lines of 10,000 nested objects', () => {
    const deep = nested(10_000);
    const variants = [
      deep.slice(0, -1), // unclosed
      `${deep.slice(0, 5_000)}X${deep.slice(5_001)}`, // a flipped byte in the middle
      `${deep.slice(0, 40_000)}${json(b)}`, // cut, with the next record appended
      `${deep}${deep}`, // two whole deep records
      `${'{"'.repeat(10_000)}${json(b)}`, // every prefix a `{"` candidate
    ];
    const elapsed = timeMs(() => {
      for (const line of variants) recoverRecords(line);
    });
    expect(elapsed).toBeLessThan(500);
    expect(recoverRecords(at(variants, 2))).toEqual({ records: [b], headLost: true });
    expect(recoverRecords(at(variants, 3))?.records).toHaveLength(2);
    expect(recoverRecords(at(variants, 4))).toEqual({ records: [b], headLost: true });
  });

  it('recovers the next record after a real assistant record cut at every length', () => {
    const lines = at(generateSession({ seed: 11, apiCalls: 6 }).files, 0)
      .text.trimEnd()
      .split('\n');
    const record = lines.find((l) => l.includes('"type":"assistant"') && l.length > 1_000);
    const next = at(lines, lines.length - 1);
    expect(record).toBeDefined();
    if (!record) return;
    const expected = JSON.parse(next);
    let wrong = 0;
    const elapsed = timeMs(() => {
      for (let cut = 1; cut < record.length; cut++) {
        const got = recoverRecords(record.slice(0, cut) + next);
        if (!got?.headLost || json(got.records.at(-1)) !== json(expected)) wrong++;
      }
    });
    expect(wrong).toBe(0);
    const whole = recoverRecords(record + next);
    expect(whole).toEqual({ records: [JSON.parse(record), expected], headLost: false });
    // record.length cuts of a ~1-10 kB record: quadratic in total, linear per cut.
    expect(elapsed / record.length).toBeLessThan(2);
  });

  it('takes time proportional to the line, not to its nesting', () => {
    const line = (depth: number) => `${nested(depth).slice(0, -3)}${json(b)}`;
    recoverRecords(line(1_000)); // warm-up
    const small = timeMs(() => recoverRecords(line(20_000)));
    const large = timeMs(() => recoverRecords(line(80_000)));
    // 4× the input: allow generous noise on a shared machine, far below the 2^k of the old code.
    expect(large).toBeLessThan(Math.max(small, 1) * 40);
  });
});

const hasCorpus = corpusOrSkip('recover-records: real cut records');

/** Real assistant records (and the line after each), one per corpus source folder. */
function realAssistantPairs(): [string, string][] {
  const pairs: [string, string][] = [];
  for (const dir of readdirSync(CORPUS).sort()) {
    const path = join(CORPUS, dir);
    if (!statSync(path).isDirectory()) continue;
    const file = readdirSync(path)
      .sort()
      .find((f) => f.endsWith('.jsonl') && !f.includes('rollout-'));
    if (!file) continue;
    const lines = readFileSync(join(path, file), 'utf8').split('\n');
    const k = lines.findIndex(
      (l, i) => l.includes('"type":"assistant"') && l.length < 50_000 && lines[i + 1]?.startsWith('{'),
    );
    if (k >= 0) pairs.push([at(lines, k), at(lines, k + 1)]);
  }
  return pairs;
}

describe.skipIf(!hasCorpus)('recoverRecords on real cut records', () => {
  it('recovers the next record after real assistant records cut at every size', () => {
    const pairs = realAssistantPairs();
    expect(pairs.length).toBeGreaterThan(3);
    const wrong: string[] = [];
    for (const [record, next] of pairs) {
      const expected = JSON.stringify(JSON.parse(next));
      // Up to ~200 cut sizes per record, spread over its whole length.
      const step = Math.max(1, Math.floor(record.length / 200));
      const start = process.cpuUsage();
      for (let cut = 1; cut < record.length; cut += step) {
        const got = recoverRecords(record.slice(0, cut) + next);
        if (!got?.headLost || JSON.stringify(got.records.at(-1)) !== expected)
          wrong.push(`${cut}/${record.length}`);
      }
      // CPU time, not wall time (a loaded machine stretches only the latter).
      const used = process.cpuUsage(start);
      expect((used.user + used.system) / 1000).toBeLessThan(2_000);
    }
    expect(wrong).toEqual([]);
  });
});
