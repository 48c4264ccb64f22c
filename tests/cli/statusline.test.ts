import { copyFileSync, mkdtempSync, readdirSync, readFileSync, appendFileSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeStatusLine } from '../../src/cli/live/statusline';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { CORPUS, corpusOrSkip } from '../helpers/corpus';

// The status line against the recorded stdin payloads of tests/fixtures/statusline/ (written from
// Claude Code's statusLine documentation), over a copy of tests/fixtures/tiny.jsonl.

const FIXTURES = join(__dirname, '../fixtures');
const dir = mkdtempSync(join(tmpdir(), 'compactlab-statusline-'));
const transcript = join(dir, 'session.jsonl');
const previousCacheDir = process.env.COMPACTLAB_CACHE_DIR;

/**
 * The figures, not the 1 s budget (statusline-budget.test.ts times that): a deadline a loaded
 * machine cannot miss, so a slow first read never turns a figure into "not read in time".
 */
const FIGURES_ONLY = { deadline: performance.now() + 3_600_000 };

function payload(name: string, path = transcript): string {
  const json = JSON.parse(readFileSync(join(FIXTURES, 'statusline', name), 'utf8'));
  json.transcript_path = path;
  return JSON.stringify(json);
}

/** The last (main-thread) call of a transcript, as the parser sees it: context and output tokens. */
async function lastCallOf(path: string) {
  const session = await parseSession([createMemorySource('s.jsonl', readFileSync(path))]);
  const call = session.apiCalls.at(-1)!;
  return { context: call.contextTokens, output: call.usage.outputTokens };
}

const k = (n: number) => `${Number((n / 1000).toFixed(1))}k`;

describe('compactlab statusline', () => {
  beforeAll(() => {
    process.env.COMPACTLAB_CACHE_DIR = join(dir, 'cache');
    copyFileSync(join(FIXTURES, 'tiny.jsonl'), transcript);
  });
  afterAll(() => {
    if (previousCacheDir === undefined) delete process.env.COMPACTLAB_CACHE_DIR;
    else process.env.COMPACTLAB_CACHE_DIR = previousCacheDir;
  });

  it('takes the context from the payload’s context_window when present', async () => {
    const line = await computeStatusLine(payload('context-window.json'), FIGURES_ONLY);
    // 8 + 2,400 + 120,400 context + 112 output = 122,920; 2.1.68: 200,000 − 20,000 − 13,000 = 167,000.
    // The calls left come from the transcript's pace (live-figures.test.ts checks that sum).
    expect(line).toMatch(
      /^ctx 122\.9k\/200k \(61%\) · compact at 167k \(v2\.1\.68\) · 44\.1k left ≈\d+ calls · 1 compacted$/,
    );
  });

  it('falls back to the transcript without context_window, with the threshold of that version', async () => {
    const { context, output } = await lastCallOf(transcript);
    const used = context + output;
    const line = await computeStatusLine(payload('no-context-window.json'), FIGURES_ONLY);
    // 2.0.76 is the v2.0 profile: 200,000 − 32,000 − 13,000 = 155,000.
    expect(line).toContain(`ctx ${k(used)}/200k (${Math.round((used / 200_000) * 100)}%)`);
    expect(line).toContain('compact at 155k (v2.0.76)');
    expect(line).toContain(`${k(155_000 - used)} left`);
  });

  it('uses the transcript when current_usage is null, and the window the payload gives', async () => {
    const { context, output } = await lastCallOf(transcript);
    const line = await computeStatusLine(payload('current-usage-null.json'), FIGURES_ONLY);
    expect(line).toContain(`ctx ${k(context + output)}/1M`);
    // 1M window: 1,000,000 − 20,000 − 13,000.
    expect(line).toContain('compact at 967k (v2.1.68)');
  });

  it('caches the offset and figures between calls, never the transcript’s text', async () => {
    await computeStatusLine(payload('no-context-window.json'), FIGURES_ONLY);
    const cacheDir = process.env.COMPACTLAB_CACHE_DIR!;
    const [cacheName] = readdirSync(cacheDir).filter((f) => f.endsWith('.json'));
    const cache = JSON.parse(readFileSync(join(cacheDir, cacheName!), 'utf8'));
    expect(cache.reader.offsetBytes).toBe(readFileSync(transcript).byteLength);
    expect(cache.figures.apiCalls).toBe(6);
    const text = readFileSync(join(cacheDir, cacheName!), 'utf8');
    expect(text).not.toMatch(/"(content|text|summary)"/);
    expect(text).not.toContain('This session is being continued');
  });

  it('reads only what was appended: a new call moves the line, a cut line waits', async () => {
    const call = (id: string, cacheRead: number) =>
      JSON.stringify({
        type: 'assistant',
        version: '2.1.68',
        isSidechain: false,
        message: {
          id,
          model: 'claude-opus-4-6',
          role: 'assistant',
          content: [{ type: 'text', text: 'ok' }],
          usage: {
            input_tokens: 10,
            cache_creation_input_tokens: 0,
            cache_read_input_tokens: cacheRead,
            output_tokens: 90,
          },
        },
      });
    const added = call('msg_appended_1', 99_900);
    appendFileSync(transcript, `${added}\n${call('msg_appended_2', 149_900).slice(0, 40)}`);
    expect(await computeStatusLine(payload('no-context-window.json'), FIGURES_ONLY)).toContain(
      'ctx 100k/200k (50%)',
    );
    appendFileSync(transcript, `${call('msg_appended_2', 149_900).slice(40)}\n`);
    expect(await computeStatusLine(payload('no-context-window.json'), FIGURES_ONLY)).toContain(
      'ctx 150k/200k (75%)',
    );
  });

  it('reads a transcript replaced under the same path from the start', async () => {
    const other = join(dir, 'other.jsonl');
    copyFileSync(join(FIXTURES, 'broken.jsonl'), other);
    renameSync(other, transcript);
    const { context, output } = await lastCallOf(transcript);
    const line = await computeStatusLine(payload('no-context-window.json'), FIGURES_ONLY);
    expect(line).toContain(`ctx ${k(context + output)}/200k`);
    expect(line).not.toContain('compacted');
  });

  // A transcript path with no file there printed `ctx 0/200k (0%) …` for a payload without figures,
  // and the payload's line unmarked otherwise, with no word anywhere. Claude Code writes a session's
  // transcript after its first exchange (jarrodwatts/claude-hud#549), so the line says which case
  // it is, never a made-up context; the path goes to stderr; the command still prints its line.
  describe('a transcript path with no file there', () => {
    const missing = join(dir, 'missing.jsonl');
    const warned = async (text: string) => {
      const warnings: string[] = [];
      const line = await computeStatusLine(text, { warn: (t) => warnings.push(t) });
      return { line, warnings };
    };
    const warning = `compactlab statusline: no file at ${missing} (a new session's transcript is written after its first exchange): the line has the payload's figures alone\n`;

    it('after a call (the payload has its usage): the payload’s line, the transcript said not found', async () => {
      const { line, warnings } = await warned(payload('context-window.json', missing));
      expect(line).toBe(
        'ctx 122.9k/200k (61%) · compact at 167k (v2.1.68) · 44.1k left · transcript not found',
      );
      expect(warnings).toEqual([warning]);
    });

    it('before the first call (current_usage null): the payload’s line, no transcript yet', async () => {
      const { line, warnings } = await warned(payload('current-usage-null.json', missing));
      expect(line).toBe('ctx 0/1M (0%) · compact at 967k (v2.1.68) · 967k left · no transcript yet');
      expect(warnings).toEqual([warning]);
    });

    it('a payload without figures: the words, not ctx 0/200k', async () => {
      const { line, warnings } = await warned(JSON.stringify({ transcript_path: missing }));
      expect(line).toBe('compactlab: transcript not found (missing.jsonl)');
      expect(warnings).toEqual([warning]);
    });

    it('an existing transcript warns of nothing', async () => {
      expect((await warned(payload('context-window.json'))).warnings).toEqual([]);
    });
  });

  it('says what it expects on stdin that is not a payload', async () => {
    expect(await computeStatusLine('not json')).toMatch(/expects the statusLine JSON/);
  });
});

// A real 1M session of the corpus (hannibal8856/claude_backup bdcc4d2c, claude-opus-5, context up to
// 678,975; tests/corpus/long-context.test.ts): without `context_window` in the payload and no `[1m]`
// in the model id, the window is inferred from the transcript as inspect and replay infer it (it
// said `ctx 679.7k/200k (340%)` before).
describe.skipIf(!corpusOrSkip('statusline over a real 1M session'))(
  'compactlab statusline, 1M transcript',
  () => {
    const real = join(
      CORPUS,
      'hannibal8856__claude_backup',
      'claude__projects__-home-moxa-sdc1-home-moxa-mds4xgl3-buildroot-dl__bdcc4d2c-9721-438a-afe2-8482c5b0ae9b.jsonl',
    );

    it('infers the 1M window from the transcript when the payload states none', async () => {
      process.env.COMPACTLAB_CACHE_DIR = join(dir, 'cache-1m');
      try {
        const { context, output } = await lastCallOf(real);
        const line = await computeStatusLine(payload('no-context-window.json', real), {
          deadline: Number.POSITIVE_INFINITY,
        });
        // The payload's version 2.0.76 is the v2.0 profile: 1,000,000 − 32,000 − 13,000 = 955,000.
        expect(line).toMatch(
          new RegExp(
            `^ctx ${k(context + output).replace('.', '\\.')}/1M \\(68%\\) · compact at 955k \\(v2\\.0\\.76\\)`,
          ),
        );
      } finally {
        if (previousCacheDir === undefined) delete process.env.COMPACTLAB_CACHE_DIR;
        else process.env.COMPACTLAB_CACHE_DIR = previousCacheDir;
      }
    });
  },
);
