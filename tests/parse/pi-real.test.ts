import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { getPiModelWindow } from '../../src/engine/parse/dialects/pi/model-window';
import { getSessionWindow } from '../../src/engine/parse/context-window';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { prepareReplay } from '../../src/engine/replay/prepare';
import { getSessionSetup, getStrategy } from '../../src/engine/strategies/registry';
import { getSessionInfo } from '../../src/engine/strategies/types';
import { corpusOrSkip, foreignFiles } from '../helpers/corpus';

// pi's real logs (../shared/corpus/foreign: a Qwen3 thinking model through Hugging Face, whose
// reasoning pi writes inline in its text as `<think>…</think>`), against a plain count of their
// records, on two points where we follow pi's own source (badlogic/pi-mono@83378aad):
// - the window is the model's in pi's registry (packages/ai/src/models.generated.ts), under the
//   provider the log names: pi compacts against `this.model.contextWindow`
//   (packages/coding-agent/src/core/agent-session.ts:1749), not 200k;
// - inline `<think>` text is text: pi neither strips nor splits it (no `<think>` handling in
//   packages/ai or packages/coding-agent); its estimate counts a text part's characters whole
//   (compaction/compaction.ts:243-246) and its summary request quotes it as "[Assistant]: …"
//   (compaction/utils.ts:123-145). So an entry's text keeps every character, and no thinking
//   block is made of it.

const present = corpusOrSkip('pi real-log test');
const PI_LOGS = foreignFiles().filter((f) => f.includes('/.pi/agent/sessions/') && f.endsWith('.jsonl'));

interface RawPart {
  type: string;
  text?: string;
}
interface RawRecord {
  type?: string;
  message?: { role?: string; provider?: string; model?: string; content?: RawPart[] };
}

const records = (path: string): RawRecord[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as RawRecord);

describe('getPiModelWindow: pi’s registry, by provider', () => {
  it('the provider the log names picks the window; without one, only where every provider agrees', () => {
    // models.generated.ts: huggingface's Qwen3-235B-A22B-Thinking-2507 262,144; claude-sonnet-4-6
    // 1,000,000 at anthropic and opencode, 200,000 at google-antigravity.
    expect(getPiModelWindow('Qwen/Qwen3-235B-A22B-Thinking-2507', ['huggingface'])?.tokens).toBe(262_144);
    expect(getPiModelWindow('claude-sonnet-4-6', ['anthropic'])?.tokens).toBe(1_000_000);
    expect(getPiModelWindow('claude-sonnet-4-6', ['google-antigravity'])?.tokens).toBe(200_000);
    expect(getPiModelWindow('claude-sonnet-4-6', [])).toBeUndefined();
    expect(getPiModelWindow('claude-opus-4-6', [])?.tokens).toBe(1_000_000);
    expect(getPiModelWindow('claude-sonnet-4-6', ['my-own-endpoint'])).toBeUndefined();
    expect(getPiModelWindow('no-such-model', ['anthropic'])).toBeUndefined();
    expect(getPiModelWindow('claude-sonnet-4-6', ['anthropic'])?.why).toMatch(
      /^pi's model registry gives anthropic\/claude-sonnet-4-6 a 1,000,000-token contextWindow \(badlogic\/pi-mono@83378aad7e74a0e2bb8f37c007a9685fb4609d8a:packages\/ai\/src\/models\.generated\.ts\)$/,
    );
  });
});

describe.skipIf(!present)('pi’s real logs', () => {
  it('has logs with inline <think> text to check', () => {
    expect(PI_LOGS.length).toBeGreaterThan(0);
    const inline = PI_LOGS.flatMap(records).filter((r) =>
      r.message?.content?.some((p) => p.type === 'text' && p.text?.includes('<think>')),
    );
    expect(inline.length).toBeGreaterThan(0);
  });

  for (const path of PI_LOGS)
    it(`${basename(path)}: the providers and window the log names, its <think> text kept as text`, async () => {
      const raw = records(path);
      const assistants = raw.filter((r) => r.type === 'message' && r.message?.role === 'assistant');
      const session = await parseSession([createMemorySource(basename(path), readFileSync(path))]);

      expect(session.meta.providers).toEqual([...new Set(assistants.map((r) => r.message!.provider))]);
      const window = getSessionWindow(session);
      expect(window.windowTokens).toBe(262_144);
      expect(window.reasons[0]).toMatch(
        /pi's model registry gives huggingface\/Qwen\/Qwen3-235B-A22B-Thinking-2507/,
      );
      const { knobs } = getSessionSetup(getStrategy('pi'), getSessionInfo(prepareReplay(session)));
      expect(knobs.contextWindow).toBe(262_144);

      // Each raw text part is one text block of its length, <think> and all; thinking blocks only
      // where the log wrote a thinking part.
      const rawText = assistants.map((r) =>
        (r.message!.content ?? []).filter((p) => p.type === 'text').map((p) => p.text!.length),
      );
      const rawThinking = assistants.map(
        (r) => (r.message!.content ?? []).filter((p) => p.type === 'thinking').length,
      );
      const entries = session.entries.filter((e) => e.kind === 'assistant');
      expect(entries.map((e) => e.blocks.flatMap((b) => (b.kind === 'text' ? [b.chars] : [])))).toEqual(
        rawText,
      );
      expect(entries.map((e) => e.blocks.filter((b) => b.kind === 'thinking').length)).toEqual(rawThinking);
    });
});
