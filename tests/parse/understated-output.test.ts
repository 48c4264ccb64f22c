import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { getAnswerOutputs } from '../../src/engine/parse/understated-output';
import { cpuMs } from '../helpers/cpu-time';

const always = () => 'the cause';
import { generateSession } from '../../sample/generate-session';
import { CORPUS, corpusOrSkip, foreignFiles } from '../helpers/corpus';

// Calls whose recorded output cannot hold their answer (parse/understated-output.ts): a real
// Claude Code 2.1.12 session records 1 output token on nearly every answer; a 2.1.97 one records
// its answers whole. Checked against a plain count of the raw records: every answer whose lines
// all record at most 2 output tokens, with more than 400 characters of content, is flagged.

const AFFECTED = join(
  CORPUS,
  'aistrad__work/claude__projects__-home-aiscend-work-vibelife__120e3499-cd68-46de-a639-d9ef55d094fc.jsonl',
);
const WHOLE = join(
  CORPUS,
  '4thehalibit__omarchy-backup/claude__projects__-home-vwestberg-Claude__1fb5e404-604d-4a2b-baf1-3beb42a67371.jsonl',
);

/** Answers (by message id) whose every line records ≤ 2 output tokens, their content over 400 characters. */
function plainCount(text: string): { stubs: number; answers: number } {
  const byId = new Map<string, { out: number; chars: number }>();
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const r = JSON.parse(line);
    if (r.type !== 'assistant' || r.message?.model === '<synthetic>') continue;
    const a = byId.get(r.message.id) ?? { out: 0, chars: 0 };
    a.out = Math.max(a.out, r.message.usage?.output_tokens ?? 0);
    a.chars += JSON.stringify(r.message.content).length;
    byId.set(r.message.id, a);
  }
  let stubs = 0;
  for (const a of byId.values()) if (a.out <= 2 && a.chars > 400) stubs++;
  return { stubs, answers: byId.size };
}

describe.skipIf(!corpusOrSkip('understated output on real logs'))(
  'output recorded at the stream start',
  () => {
    it('a Claude Code 2.1.12 session: its stub answers flagged, with their count and the first line', async () => {
      const text = readFileSync(AFFECTED, 'utf8');
      const session = await parseSession([createMemorySource(basename(AFFECTED), text)]);
      const notes = session.issues.filter((i) => i.code === 'understated-output');
      expect(notes).toHaveLength(1);
      const note = notes[0]!;
      expect(note.severity).toBe('info');
      const [, flagged, of] = note.message.match(/^(\d+) of (\d+) API calls/)!.map(Number);
      const plain = plainCount(text);
      expect(of).toBe(plain.answers);
      expect(plain.stubs).toBeGreaterThan(60);
      expect(flagged).toBeGreaterThanOrEqual(plain.stubs);
      expect(flagged).toBeLessThanOrEqual(of!);
      // The first flagged call's line is an assistant record of that message.
      const first = session.apiCalls.find((c) => c.line === note.line);
      expect(first?.usage.outputTokens).toBeLessThanOrEqual(2);
      // The figures stay the log's: the recorded output, summed, is what the records say.
      expect(session.apiCalls.reduce((a, c) => a + c.usage.outputTokens, 0)).toBe(309);
    });

    it('a Claude Code 2.1.97 session records its answers whole: no note', async () => {
      const text = readFileSync(WHOLE, 'utf8');
      const session = await parseSession([createMemorySource(basename(WHOLE), text)]);
      expect(plainCount(text).stubs).toBe(0);
      expect(session.issues.filter((i) => i.code === 'understated-output')).toEqual([]);
    });
  },
);

describe('a generated session', () => {
  it('whose usage counts each answer: no note', async () => {
    const main = generateSession({ seed: 5, targetBytes: 2 * 1024 * 1024 }).files[0]!;
    const session = await parseSession([createMemorySource(main.name, main.text)]);
    expect(session.apiCalls.length).toBeGreaterThan(50);
    expect(session.issues.filter((i) => i.code === 'understated-output')).toEqual([]);
  });
});

describe('answers whose lines lie far apart', () => {
  /** `n` answers, each written as two lines, the second lines in reverse order after all the first ones. */
  function nested(n: number): string {
    const line = (i: number, part: number) =>
      JSON.stringify({
        type: 'assistant',
        uuid: `u-${i}-${part}`,
        parentUuid: null,
        timestamp: '2026-01-19T02:23:00.000Z',
        message: {
          id: `msg-${i}`,
          role: 'assistant',
          model: 'claude-opus-4-5-20251101',
          content: [{ type: 'text', text: 'x'.repeat(400) }],
          usage: { input_tokens: 3, cache_read_input_tokens: 1000, output_tokens: 1 },
        },
      });
    const lines: string[] = [];
    for (let i = 0; i < n; i++) lines.push(line(i, 0));
    for (let i = n - 1; i >= 0; i--) lines.push(line(i, 1));
    return `${lines.join('\n')}\n`;
  }

  it('are summed in one pass: linear in the entries, each answer flagged', async () => {
    const time = async (n: number) => {
      const session = await parseSession([createMemorySource('nested.jsonl', nested(n))]);
      expect(session.apiCalls).toHaveLength(n);
      const answers = getAnswerOutputs(session.entries, session.apiCalls, always);
      // Two lines of 100 characters-worth tokens each, recorded as 1.
      expect(answers.every((a) => a === 200)).toBe(true);
      return cpuMs(() => getAnswerOutputs(session.entries, session.apiCalls, always));
    };
    const small = await time(10_000);
    const large = await time(20_000);
    // Walking each call's span of lines was quadratic here (every span holds all the calls inside it).
    expect(large).toBeLessThan(4 * Math.max(small, 5));
    expect(large).toBeLessThan(2_000);
  });
});

describe.skipIf(!corpusOrSkip("understated output on other agents' logs"))("other agents' real logs", () => {
  it('get no note: their records count the whole answer (a Gemini CLI record also holds its tool results)', async () => {
    const files = foreignFiles().filter((f) => /\.jsonl?$/.test(f));
    expect(files.length).toBeGreaterThan(5);
    for (const path of files) {
      const session = await parseSession([createMemorySource(basename(path), readFileSync(path))]);
      expect(
        session.issues.filter((i) => i.code === 'understated-output'),
        path,
      ).toEqual([]);
    }
  });
});

describe("an agent whose recorded output is the API's own count", () => {
  it('gets no note when its log holds a longer answer, nor for a call that recorded no usage', async () => {
    // The shape of a real Gemini CLI chat (fabien-lessirard/dotfiles, 2026-02): a `replace` call
    // whose arguments the person edited before it ran (`modified_by_user`, `ai_proposed_content`),
    // 8,188 characters of arguments for 325 output tokens, and a call with no `tokens` at all. The
    // note read "29 of 353 API calls record fewer output tokens … (Claude Code's GitHub issue
    // 10259)" on it.
    const at = (s: number) => `2026-02-23T09:00:0${s}.000Z`;
    const chat = {
      sessionId: 'c9da8256-0000-4000-8000-000000000002',
      projectHash: 'b'.repeat(64),
      startTime: at(0),
      lastUpdated: at(5),
      messages: [
        { id: 'u1', timestamp: at(0), type: 'user', content: [{ text: 'Fix the header.' }] },
        {
          id: 'g1',
          timestamp: at(1),
          type: 'gemini',
          content: 'Replacing the header.',
          model: 'gemini-2.5-flash',
          tokens: { input: 14_531, output: 147, cached: 12_608, thoughts: 178, tool: 0, total: 14_856 },
          toolCalls: [
            {
              id: 'replace-1',
              name: 'replace',
              args: {
                file_path: '/w/a.ts',
                old_string: 'o'.repeat(2_382),
                new_string: 'n'.repeat(2_332),
                ai_proposed_content: 'n'.repeat(2_332),
                modified_by_user: true,
              },
              status: 'success',
              result: [
                { functionResponse: { id: 'replace-1', name: 'replace', response: { output: 'ok' } } },
              ],
            },
          ],
        },
        {
          id: 'g2',
          timestamp: at(2),
          type: 'gemini',
          content: 'x'.repeat(600),
          model: 'gemini-2.5-flash',
        },
      ],
    };
    const session = await parseSession([
      createMemorySource('session-2026-02-23T09-00-c9da8256.json', JSON.stringify(chat)),
    ]);
    expect(session.apiCalls).toHaveLength(2);
    expect(session.issues.filter((i) => i.code === 'understated-output')).toEqual([]);
  });
});
