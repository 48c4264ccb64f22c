import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { createNodeFileSource } from '../../src/cli/node-source';
import { compileStrategySource } from '../../src/cli/strategy-file';
import { parseSession } from '../../src/engine/parse/parse-session';
import { computeReplay } from '../../src/engine/replay/compute-replay';
import { type PreparedReplay, prepareReplay } from '../../src/engine/replay/prepare';
import { registerCustomStrategy } from '../../src/engine/strategies/registry';
import { getSourceLine } from '../../src/engine/strategies/source-map-line';

// A strategy that throws, never returns, answers too much or answers nonsense is an error that
// says why, naming the file's line where it threw: the replay never runs on with a broken answer,
// and an endless loop is stopped by the time limit.

const SAMPLE_DIR = join(__dirname, '../../public/samples');
const SAMPLE = join(SAMPLE_DIR, readdirSync(SAMPLE_DIR).find((f) => f.endsWith('.jsonl')) ?? 'missing');

let p: PreparedReplay;
beforeAll(async () => {
  p = prepareReplay(await parseSession([createNodeFileSource(SAMPLE)]));
});

/** A strategy file whose step body is `body` (typed, as a user writes it), run over the sample. */
async function replayWith(id: string, body: string, timeLimitMs = 2_000): Promise<unknown> {
  const source = `import type { Strategy } from 'compactlab/strategy';

interface State { n: number }

export default {
  id: '${id}',
  label: 'Under test',
  init: (): State => ({ n: 0 }),
  step(view, knobs, state: State) {
${body}
  },
} satisfies Strategy<{ contextWindow: number }, State>;
`;
  registerCustomStrategy(await compileStrategySource(source, `${id}.ts`, timeLimitMs));
  return computeReplay(p, id, {});
}

describe('errors name the reason and the line', () => {
  it('a throw names the file, the line of the throw and the call', async () => {
    // Line 10 is the body's first line.
    await expect(
      replayWith('throws', "    if (view.call === 5) throw new Error('no more');\n    return [];"),
    ).rejects.toThrow(/^throws\.ts:10: step at call 6 threw Error: no more$/);
  });

  it('a TypeError from a typo names its line', async () => {
    await expect(
      replayWith('typo', '    const r = view.results();\n    return r[100000].id > 0 ? [] : [];'),
    ).rejects.toThrow(/^typo\.ts:11: step at call 1 threw TypeError: .*undefined/);
  });

  it('an endless loop is stopped by the time limit and said so', async () => {
    const t0 = performance.now();
    await expect(replayWith('endless', '    while (true) state.n++;', 300)).rejects.toThrow(
      /endless\.ts: step at call 1 was stopped: the strategy's code ran past its time limit \(0\.3 s a replay; an endless loop\?\)/,
    );
    expect(performance.now() - t0).toBeLessThan(5_000);
  });

  it('the limit is over the whole replay: slow steps add up to it, and the next replay starts afresh', async () => {
    await expect(
      replayWith(
        'slow',
        '    const t = Date.now(); while (Date.now() - t < 5) state.n++;\n    return [];',
        200,
      ),
    ).rejects.toThrow(/ran past its time limit/);
  });

  it('a huge answer is refused, saying how much and the limit', async () => {
    await expect(
      replayWith(
        'huge',
        "    return Array.from({ length: 100000 }, () => ({ kind: 'clear', results: [] }));",
      ),
    ).rejects.toThrow(/step at call 1: step returned 100,000 actions: the limit is 100 a step/);
    await expect(
      replayWith('long-note', "    return [{ kind: 'clear', results: [], note: 'x'.repeat(1e6) }];"),
    ).rejects.toThrow(/action 1: note of 1,000,000 characters/);
  });

  it('an unsafe truncation or a made-up result id is refused with the rule', async () => {
    await expect(
      replayWith('bad-id', "    return [{ kind: 'clear', results: [123456789] }];"),
    ).rejects.toThrow(/action 1 \(clear\): 123456789 is not the id of a result the history holds/);
    await expect(
      replayWith(
        'bad-cut',
        "    return view.call === 40 ? [{ kind: 'truncate', from: view.liveFrom, to: view.boundary + 5 }] : [];",
      ),
    ).rejects.toThrow(/action 1 \(truncate\) to: \d+ is not a position of the history/);
  });

  it('an import is refused at load, naming it', async () => {
    await expect(
      compileStrategySource(
        "import fs from 'node:fs';\nexport default { id: 'imp', label: 'I', step: () => fs };",
        'imp.ts',
      ),
    ).rejects.toThrow(/imp\.ts:1: loading the file threw Error: imports are not available .*"node:fs"/);
  });

  it('a syntax error names its line and column', async () => {
    await expect(compileStrategySource('export default {\n  id: "x",,\n};', 'syntax.ts')).rejects.toThrow(
      /^syntax\.ts:2:\d+: /,
    );
  });

  it('no Node, no network: process, fetch, timers and eval are absent, require answers nothing', async () => {
    const result = (await replayWith(
      'globals',
      "    const seen = [typeof process, typeof fetch, typeof XMLHttpRequest, typeof WebSocket, typeof setTimeout, typeof globalThis.require].join(',');\n    if (seen !== 'undefined,undefined,undefined,undefined,undefined,undefined') throw new Error(seen);\n    try { require('node:fs'); throw new Error('fs loaded'); } catch (e) { if (String(e).includes('fs loaded')) throw e; }\n    try { eval('1'); } catch { return []; }\n    throw new Error('eval ran');",
    )) as { events: { kind: string }[] };
    // The replay ran to its end: nothing of the strategy's, only what the log and the window make.
    expect(result.events.filter((e) => e.kind !== 'blocked' && e.kind !== 'reset')).toEqual([]);
  });
});

describe('any answer is an action list or an error, never a broken replay', () => {
  it('random answers', async () => {
    const answer = fc.oneof(
      fc.constant('undefined'),
      fc.constant('null'),
      fc.constant('42'),
      fc.constant("'text'"),
      fc.constant("[{ kind: 'nope' }]"),
      fc.constant("[{ kind: 'summarize', keepFrom: -1 }]"),
      fc.constant("[{ kind: 'summarize', summaryTokens: Infinity }]"),
      fc.constant(
        "[{ kind: 'replace', results: view.results().slice(0, 2).map((r) => r.id), noticeTokens: -5 }]",
      ),
      fc.constant(
        "[{ kind: 'replace', results: view.results().slice(0, 2).map((r) => r.id), noticeTokens: 5 }]",
      ),
      fc.constant(
        "[{ kind: 'truncate', from: view.liveFrom, to: view.safeCut(Math.floor((view.liveFrom + view.boundary) / 2)) }]",
      ),
    );
    let n = 0;
    await fc.assert(
      fc.asyncProperty(answer, fc.integer({ min: 0, max: 300 }), async (expr, call) => {
        const id = `fuzz-${n++}`;
        try {
          const result = (await replayWith(id, `    return view.call === ${call} ? ${expr} : [];`)) as {
            events: { preTokens: number; postTokens: number }[];
          };
          for (const e of result.events) expect(Number.isFinite(e.postTokens)).toBe(true);
        } catch (error) {
          expect((error as Error).name).toBe('CustomStrategyError');
          expect((error as Error).message).toMatch(new RegExp(`^${id}\\.ts(:\\d+)?: `));
        }
      }),
      { numRuns: 40 },
    );
  });
});

describe('source maps', () => {
  it('maps a generated position to its source line', () => {
    // Generated line 1 from source line 1, generated line 2 col 0 from line 3, col 4 from line 4.
    expect(getSourceLine('AAAA;AAEA,IACA', 1, 1)).toBe(1);
    expect(getSourceLine('AAAA;AAEA,IACA', 2, 1)).toBe(3);
    expect(getSourceLine('AAAA;AAEA,IACA', 2, 9)).toBe(4);
    expect(getSourceLine('AAAA;!!', 2, 1)).toBeUndefined();
  });
});
