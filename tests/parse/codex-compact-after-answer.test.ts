import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createNodeFileSource } from '../../src/cli/node-source';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { REAL_LOGS } from '../helpers/corpus';

// Codex 0.63/0.64 rollouts persist no task_started / task_complete, so a turn never closed for the
// reader and every compaction after the model had answered was read as automatic (inside a turn).
// Real 0.64.0 rollouts of MaksimKravchuk/brain_buddy hold 10 compactions, each after the model's
// final message (no tool call after it), before the next prompt, at 19-51% of the 258,400 window:
// /compact typed between turns. The replay counted them as 10 automatic compactions it could not
// reproduce (7 missing, 3 farther). The reference is a plain reading of the raw records: the
// response item before each `compacted` line and the last call's `input_tokens`.

const DIR = join(REAL_LOGS, 'MaksimKravchuk__brain_buddy/.codex/sessions/2025/12/03');
const FILES = [
  'rollout-2025-12-03T13-16-57-019ae424-f229-7e90-95db-5b45025b4216.jsonl',
  'rollout-2025-12-03T14-05-41-019ae451-8dcf-7c23-a8f5-5ae7fec1b642.jsonl',
  'rollout-2025-12-03T17-29-44-019ae50c-5e53-7562-b61f-ff3b8f7cf8e6.jsonl',
].map((name) => join(DIR, name));
const present = FILES.every((f) => existsSync(f));
if (!present)
  console.warn(`the Codex compact-after-answer test over real rollouts is skipped: ${DIR} is not restored`);

interface Raw {
  type?: string;
  payload?: { type?: string; role?: string; info?: { last_token_usage?: { input_tokens?: number } } };
}

/** Each `compacted` line: what the last response item before it was, and the last call's context. */
function plainRead(file: string) {
  const records = readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Raw);
  const taskEvents = records.some(
    (r) => r.type === 'event_msg' && ['task_started', 'task_complete'].includes(r.payload?.type ?? ''),
  );
  let last = '';
  let context = 0;
  const out: { after: string; context: number }[] = [];
  for (const r of records) {
    const p = r.payload;
    if (r.type === 'response_item' && p?.type !== 'ghost_snapshot')
      last = p?.type === 'message' ? `message:${p.role}` : String(p?.type);
    if (r.type === 'event_msg' && p?.type === 'token_count' && p.info?.last_token_usage?.input_tokens)
      context = p.info.last_token_usage.input_tokens;
    if (r.type === 'compacted') out.push({ after: last, context });
  }
  return { taskEvents, compactions: out };
}

describe.skipIf(!present)(
  'Codex 0.64: a compaction after the final answer, far under the limit, is /compact',
  () => {
    it.each(FILES)('%s', async (file) => {
      const raw = plainRead(file);
      expect(raw.taskEvents).toBe(false);
      expect(
        raw.compactions.every((c) => c.after === 'message:assistant' && c.context < 0.75 * 258_400),
      ).toBe(true);
      const session = await parseSession([createNodeFileSource(file)]);
      expect(session.compactions.map((c) => [c.trigger, c.preTokens])).toEqual(
        raw.compactions.map((c) => ['manual', c.context]),
      );
    });
    it('holds 10 of them', () => {
      expect(FILES.flatMap((f) => plainRead(f).compactions)).toHaveLength(10);
    });
  },
);

describe('Codex rollouts without task events: where the turn ends (written from the rollout shape)', () => {
  const line = (type: string, payload: object, s: number) =>
    JSON.stringify({ timestamp: `2025-12-03T13:00:${String(s).padStart(2, '0')}.000Z`, type, payload });
  const tokens = (input: number, s: number) =>
    line(
      'event_msg',
      {
        type: 'token_count',
        info: {
          total_token_usage: {
            input_tokens: input * s,
            output_tokens: 10 * s,
            total_tokens: input * s + 10 * s,
          },
          last_token_usage: { input_tokens: input, output_tokens: 10, total_tokens: input + 10 },
          model_context_window: 258_400,
        },
      },
      s,
    );
  const prompt = (s: number) =>
    line(
      'response_item',
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'go' }] },
      s,
    );
  const answer = (s: number) =>
    line(
      'response_item',
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Done.' }] },
      s,
    );
  const call = (s: number) =>
    line('response_item', { type: 'function_call', name: 'shell', arguments: '{}', call_id: `c${s}` }, s);
  const output = (s: number) =>
    line('response_item', { type: 'function_call_output', call_id: `c${s - 1}`, output: 'ok' }, s);
  const compacted = (s: number) => line('compacted', { message: '' }, s);
  const head = [
    line('session_meta', { id: 's', cwd: '/w', cli_version: '0.64.0' }, 0),
    line('turn_context', { model: 'gpt-5.1-codex-max', cwd: '/w' }, 0),
  ];
  const parse = (lines: string[]) =>
    parseSession([createMemorySource('rollout-2025-12-03T13-00-00-s.jsonl', [...head, ...lines].join('\n'))]);

  it('after the final answer, at 39% of the window: manual', async () => {
    const session = await parse([prompt(1), answer(2), tokens(100_000, 3), compacted(4)]);
    expect(session.compactions.map((c) => c.trigger)).toEqual(['manual']);
  });
  it('after a tool output, the turn still running: automatic', async () => {
    const session = await parse([prompt(1), call(2), tokens(100_000, 3), output(4), compacted(5)]);
    expect(session.compactions.map((c) => c.trigger)).toEqual(['auto']);
  });
  it('after a message and a tool call in the same answer: automatic', async () => {
    const session = await parse([prompt(1), answer(2), call(3), tokens(100_000, 4), compacted(5)]);
    expect(session.compactions.map((c) => c.trigger)).toEqual(['auto']);
  });
});
