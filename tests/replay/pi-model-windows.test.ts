import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { prepareReplay } from '../../src/engine/replay/prepare';
import type { ReplayEvent } from '../../src/engine/replay/types';
import { getPiTurnWindows } from '../../src/engine/strategies/pi/model-windows';
import { PI_STRATEGY } from '../../src/engine/strategies/pi';
import { corpusOrSkip, FOREIGN } from '../helpers/corpus';
import { fieldsOf } from './events';
import { type PiTurnSpec, parsePiSession } from './pi-session';
import { logKnobsOf, runStrategy } from './strategy-variants';

// pi checks each turn against the window of the model selected at the check (agent-session.ts
// `this.model.contextWindow`, strategies/pi/model-windows), not the largest window of the log's
// models: a session that switches models compacts on its smaller model's window, and a run that
// ends just before a switch to a smaller model is checked against that one's before the next
// prompt. A model pi's registry does not list takes the session's window, and the notes say so.

const compacts = (events: readonly ReplayEvent[]) => events.filter((e) => e.kind === 'compact');

/** A turn whose one tool call reads `resultChars` of a file, then an answer. */
const turn = (resultChars: number, switchTo?: PiTurnSpec['switchTo']): PiTurnSpec => ({
  promptChars: 400,
  calls: [{ tools: [{ name: 'read', path: 'src/a.ts', resultChars }] }, {}],
  ...(switchTo ? { switchTo } : {}),
});

const SONNET = { provider: 'anthropic', model: 'claude-sonnet-4-5' }; // 200,000 in pi's registry
const OPUS = { provider: 'anthropic', model: 'claude-opus-4-6' }; // 1,000,000

/** `n` turns of ~`tokens` each. */
const turns = (n: number, tokens: number, switchTo?: PiTurnSpec['switchTo']): PiTurnSpec[] =>
  Array.from({ length: n }, (_, i) => turn(tokens * 4, i === 0 ? switchTo : undefined));

describe("pi: each turn against its model's window", () => {
  it('compacts on the 200k model before the switch to a 1M one (the largest window would not)', async () => {
    // 27 turns of ~7,000 tokens on sonnet (past 183,616 at the end, under its 200,000), then 5 on opus-4-6.
    const spec = { model: SONNET.model, turns: [...turns(27, 7_000), ...turns(5, 7_000, OPUS)] };
    const prepared = prepareReplay(await parsePiSession(spec));
    const { knobs, notes } = logKnobsOf(prepared, 'pi');
    expect(knobs.windowPerModel).toBe(true);
    expect(knobs.contextWindow).toBe(1_000_000);
    const windows = [...getPiTurnWindows(prepared, PI_STRATEGY.normalizeKnobs(knobs))];
    expect(new Set(windows)).toEqual(new Set([200_000, 1_000_000]));
    expect(notes.join(' ')).toContain(
      'anthropic/claude-sonnet-4-5 200,000, anthropic/claude-opus-4-6 1,000,000',
    );
    const per = compacts(runStrategy(prepared, 'pi', knobs).events);
    expect(per.length).toBeGreaterThanOrEqual(1);
    const first = fieldsOf(per[0]!);
    expect(first.thresholdTokens).toBe(200_000 - 16_384);
    expect(windows[first.afterCallPos!]).toBe(200_000);
    // One window for every turn (the log's largest): nothing compacts.
    const one = runStrategy(prepared, 'pi', { ...knobs, windowPerModel: false });
    expect(compacts(one.events)).toEqual([]);
  });

  it('checks a run that ends before a switch to a smaller model against that model too (before the prompt)', async () => {
    // ~255k on opus-4-6 (under its 983,616), then the user switches to sonnet (200k): pi compacted
    // before the sonnet prompt, over sonnet's threshold; the log's compaction is automatic.
    const spec = {
      model: OPUS.model,
      turns: [...turns(36, 7_000), ...turns(2, 1_000, SONNET)],
      compactions: [{ afterTurn: 35, firstKeptTurn: 34, summaryChars: 8_000 }],
    };
    const prepared = prepareReplay(await parsePiSession(spec));
    const { knobs } = logKnobsOf(prepared, 'pi');
    const windows = getPiTurnWindows(prepared, PI_STRATEGY.normalizeKnobs(knobs));
    const switchAt = windows.indexOf(200_000);
    expect(switchAt).toBeGreaterThan(0);
    const result = runStrategy(prepared, 'pi', knobs);
    expect(result.comparison.outcomes.map((o) => [o.trigger, o.status])).toEqual([['auto', 'matched']]);
    const events = compacts(result.events).map(fieldsOf);
    // The first check over 183,616 is the last opus run's end: compacted before the sonnet prompt.
    expect(events[0]?.afterCallPos).toBe(switchAt - 1);
    expect(events[0]?.thresholdTokens).toBe(200_000 - 16_384);
    expect(events[0]?.note).toContain("the next prompt's model, 200,000-token window");
    // One window for every turn (the log's largest): the log's compaction reads as /compact.
    const one = runStrategy(prepared, 'pi', { ...knobs, windowPerModel: false });
    expect(one.comparison.outcomes.map((o) => o.trigger)).toEqual(['manual']);
  });

  it("gives a model pi's registry does not list the session's window, and says so", async () => {
    const spec = {
      model: 'Qwen/Qwen3-235B-A22B-Thinking-2507',
      provider: 'huggingface',
      turns: [
        ...turns(3, 2_000),
        ...turns(3, 2_000, { provider: 'huggingface', model: 'deepseek-ai/DeepSeek-V4-Pro' }),
      ],
    };
    const prepared = prepareReplay(await parsePiSession(spec));
    const { knobs, notes } = logKnobsOf(prepared, 'pi');
    expect(knobs.contextWindow).toBe(262_144);
    const text = notes.join(' ');
    expect(text).toContain("huggingface/deepseek-ai/DeepSeek-V4-Pro is not in pi's model registry");
    expect(text).toContain("checked against the session's window, 262,144");
    expect(text).toContain('deepseek-ai/DeepSeek-V4-Pro 262,144 (assumed)');
    // The knob stands for it: a smaller one moves only the unlisted model's turns.
    const windows = [
      ...getPiTurnWindows(prepared, PI_STRATEGY.normalizeKnobs({ ...knobs, contextWindow: 100_000 })),
    ];
    expect(windows.slice(0, 6)).toEqual([262_144, 262_144, 262_144, 262_144, 262_144, 262_144]);
    expect(windows.slice(6)).toEqual([100_000, 100_000, 100_000, 100_000, 100_000, 100_000]);
  });

  it("takes the session's window for a model whose calls outgrew the registry's (a user override)", async () => {
    // sonnet past 200k: the user's models.json raised its window.
    const spec = {
      model: SONNET.model,
      systemTokens: 210_000,
      turns: [...turns(2, 1_000), ...turns(2, 1_000, OPUS)],
    };
    const prepared = prepareReplay(await parsePiSession(spec));
    const { knobs, notes } = logKnobsOf(prepared, 'pi');
    expect(notes.join(' ')).toMatch(/anthropic\/claude-sonnet-4-5 used [\d,]+ tokens, more than the 200,000/);
    expect(new Set(getPiTurnWindows(prepared, PI_STRATEGY.normalizeKnobs(knobs)))).toEqual(
      new Set([1_000_000]),
    );
  });

  it('one model: the session window, the knob for every turn', async () => {
    const prepared = prepareReplay(await parsePiSession({ turns: turns(3, 2_000) }));
    const { knobs, notes } = logKnobsOf(prepared, 'pi');
    expect(knobs.windowPerModel).toBe(false);
    expect(notes.join(' ')).not.toContain('switches models');
  });
});

const present = corpusOrSkip('pi model-switch corpus test');
const SWITCH_LOG = join(
  FOREIGN,
  'timerloggedout-spec__termux-monorepo/.pi/agent/sessions/--data-data-com.termux-files-home--/2026-05-07T13-49-54-044Z_019e02b3-bbeb-74cc-ab75-076b653c68a7.jsonl',
);

describe.skipIf(!present || !existsSync(SWITCH_LOG))(
  'pi: the corpus log that switches to DeepSeek-V4-Pro',
  () => {
    it("checks the Qwen turns at 262,144 and names DeepSeek-V4-Pro as not in pi's registry", async () => {
      const session = await parseSession([
        createMemorySource(basename(SWITCH_LOG), readFileSync(SWITCH_LOG)),
      ]);
      const prepared = prepareReplay(session);
      const { knobs, notes } = logKnobsOf(prepared, 'pi');
      expect(knobs.windowPerModel).toBe(true);
      const text = notes.join(' ');
      expect(text).toContain('huggingface/Qwen/Qwen3-235B-A22B-Thinking-2507 262,144');
      expect(text).toContain("huggingface/deepseek-ai/DeepSeek-V4-Pro is not in pi's model registry");
      const calls = session.apiCalls.filter((c) => c.provider === 'huggingface');
      expect(calls.length).toBe(session.apiCalls.length);
      const windows = getPiTurnWindows(prepared, PI_STRATEGY.normalizeKnobs(knobs));
      const models = [...prepared.calls].map((i) => session.apiCalls[i]!.model);
      models.forEach((m, k) => {
        if (m.startsWith('Qwen/')) expect(windows[k]).toBe(262_144);
        else expect(windows[k]).toBe(knobs.contextWindow);
      });
    });
  },
);
