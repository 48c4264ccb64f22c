import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { computeReplay } from '../../src/engine/replay/compute-replay';
import { prepareReplay } from '../../src/engine/replay/prepare';
import { getSessionSetup, getStrategy } from '../../src/engine/strategies/registry';
import { getSessionInfo } from '../../src/engine/strategies/types';
import { REAL_LOGS } from '../helpers/corpus';

// OpenClaw runs pi's agent and writes its sessions in pi's format, under settings of its own: it
// raises pi's reserveTokens to at least 20,000 (openclaw/openclaw@013c24e7 src/agents/pi-settings.ts,
// ensurePiCompactionReserveTokens), and the deepseek provider it configures is none of pi's
// registry, so pi takes the model from models.json, 128,000 tokens when the entry states no window
// (badlogic/pi-mono@83378aad model-registry.ts:507). Read with pi's defaults (16,384 over an assumed
// 200k), the 5 compactions of the real deepseek sessions below (108,889–110,305 tokens) fell under
// the threshold and read as /compact; the sessions without one must stay without.

const DEEPSEEK = join(REAL_LOGS, 'Musk-fanX__openclaw-backup/agents/main/sessions');
const SESSIONS = [
  '027da24a-c5e8-42b3-919b-0bcc93b98ce8',
  '5ad67c7b-f9da-4e16-9bc5-00e9f8582695',
  '676ff86e-7673-4625-92e4-a7b5a6454395',
  'b4c26dcb-b630-4911-8f01-5b463210db72',
  'c0de1f86-d999-4745-a93b-2384cb5268e1',
  'c4e35825-fef1-49de-812f-d5b4b709232d',
  'd27ecd5a-45f9-41a3-bad1-ddef6a3c79fc',
].map((id) => join(DEEPSEEK, `${id}.jsonl`));
const present = SESSIONS.every((f) => existsSync(f));
if (!present) console.warn(`the OpenClaw replay tests are skipped: ${DEEPSEEK} is not restored`);

/** pi's compaction entries of a session file, by a plain read of its lines. */
function countCompactionRecords(text: string): number {
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .filter((l) => (JSON.parse(l) as { type?: string }).type === 'compaction').length;
}

async function replayOf(text: string, name: string) {
  const session = await parseSession([createMemorySource(name, Buffer.from(text))]);
  const prepared = prepareReplay(session);
  const strategy = getStrategy('pi');
  const { knobs, notes } = getSessionSetup(strategy, getSessionInfo(prepared));
  return { session, knobs, notes, result: computeReplay(prepared, 'pi', knobs) };
}

describe.skipIf(!present)('pi as OpenClaw runs it, on its real deepseek sessions', () => {
  it('puts each of their compactions at its call, and adds none', async () => {
    let compactions = 0;
    for (const file of SESSIONS) {
      const text = readFileSync(file, 'utf8');
      const { session, knobs, notes, result } = await replayOf(text, file.split('/').pop()!);
      expect(session.meta.host, file).toBe('OpenClaw');
      expect(knobs.reserveTokens).toBe(20_000);
      expect(notes.join(' ')).toMatch(
        /OpenClaw ran this session: it raises pi's reserveTokens to at least 20,000/,
      );
      const real = countCompactionRecords(text);
      compactions += real;
      const outcomes = result.comparison?.outcomes ?? [];
      expect(outcomes.filter((o) => o.trigger === 'auto' && o.status === 'matched').length, file).toBe(real);
      expect(result.events.filter((e) => e.kind === 'compact').length, file).toBe(real);
    }
    expect(compactions).toBe(5);
  });

  it('checks deepseek-chat against 128,000, and says why', async () => {
    const file = SESSIONS[6]!;
    const { result, notes } = await replayOf(readFileSync(file, 'utf8'), 'd27ecd5a.jsonl');
    expect(result.thresholds.find((t) => t.id === 'window')?.tokens).toBe(128_000);
    expect(notes.join(' ')).toMatch(
      /provider deepseek is not in pi's model registry.*128,000 \(model-registry\.ts:507\)/,
    );
  });
});

describe('a pi session no gateway wrote keeps pi defaults', () => {
  const header = (cwd: string) =>
    JSON.stringify({ type: 'session', version: 3, id: 's1', timestamp: '2026-03-05T13:54:01.942Z', cwd });
  const answer = JSON.stringify({
    type: 'message',
    id: 'a1',
    parentId: null,
    timestamp: '2026-03-05T13:54:05.000Z',
    message: {
      role: 'assistant',
      content: [{ type: 'text', text: 'hello' }],
      provider: 'anthropic',
      model: 'claude-sonnet-4-5',
      usage: { input: 1200, output: 40, cacheRead: 0, cacheWrite: 0 },
      stopReason: 'stop',
    },
  });

  it('reads OpenClaw only from its workspace or its gateway', async () => {
    for (const [cwd, host] of [
      ['/home/me/project', undefined],
      ['/home/me/.openclaw-notes/workspace', undefined],
      ['/Users/lynch/.openclaw/workspace-anuo', 'OpenClaw'],
      ['C:\\Users\\WH\\.openclaw\\workspace', 'OpenClaw'],
    ] as const) {
      const { session, knobs } = await replayOf(`${header(cwd)}\n${answer}\n`, 'pi.jsonl');
      expect(session.meta.host, cwd).toBe(host);
      expect(knobs.reserveTokens, cwd).toBe(host ? 20_000 : 16_384);
    }
  });
});
