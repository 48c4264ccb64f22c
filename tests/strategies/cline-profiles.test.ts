import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { computeReplay } from '../../src/engine/replay/compute-replay';
import { type PreparedReplay, prepareReplay } from '../../src/engine/replay/prepare';
import type { ReplayResult } from '../../src/engine/replay/types';
import { CLINE_STRATEGY, type ClineKnobs } from '../../src/engine/strategies/cline';
import { getClineMaxAllowed, getClineSdkTrigger } from '../../src/engine/strategies/cline/knobs';
import { getDefaultStrategyId } from '../../src/engine/strategies/descriptors';
import { CLINE_PROFILES, type ClineProfileId } from '../../src/engine/strategies/cline/profiles';
import { getSessionInfo } from '../../src/engine/strategies/types';
import { generateSession } from '../../sample/generate-session';
import { CORPUS, corpusOrSkip, FOREIGN } from '../helpers/corpus';
import { checkReplayInvariants } from '../replay/invariants';

// Cline's release profiles (issue 19, item 4): which profile each real Cline task gets, the trigger
// each profile compacts at, and the SDK path (Cline 4.x) on a generated session.

const knobsOf = (profile: ClineProfileId, more: Partial<ClineKnobs> = {}) =>
  CLINE_STRATEGY.normalizeKnobs({ profile, contextWindow: 200_000, ...more });

function run(prepared: PreparedReplay, knobs: ClineKnobs): ReplayResult {
  const result = computeReplay(prepared, 'cline', knobs);
  expect(checkReplayInvariants(prepared, result)).toEqual([]);
  return result;
}

describe('Cline profiles', () => {
  it('are declared oldest first, each release after the one before', () => {
    const dates = CLINE_PROFILES.slice(1).map((p) => p.from.date!);
    expect([...dates].sort()).toEqual(dates);
    expect(CLINE_PROFILES.map((p) => p.id)).toEqual([
      'classic',
      'classic-v3.25',
      'classic-v3.28',
      'classic-v3.31',
      'classic-v3.34',
      'classic-v3.66',
      'sdk-v4.0',
      'sdk-v4.1',
      'sdk-v4.1.8',
    ]);
  });

  it('pick by the task’s start date (Cline logs state no version), else its version', () => {
    const pick = (startedAt: string, versions: string[] = []) =>
      CLINE_STRATEGY.getSessionKnobs({
        ...baseInfo,
        startedAt,
        versions,
      }).knobs.profile;
    expect(pick('2025-07-01T00:00:00Z')).toBe('classic');
    expect(pick('2025-08-20T00:00:00Z')).toBe('classic-v3.25');
    expect(pick('2025-10-15T00:00:00Z')).toBe('classic-v3.31');
    expect(pick('2026-02-08T00:00:00Z')).toBe('classic-v3.34');
    expect(pick('2026-05-01T00:00:00Z')).toBe('classic-v3.66');
    expect(pick('2026-07-10T00:00:00Z')).toBe('sdk-v4.0');
    expect(pick('2026-08-05T00:00:00Z')).toBe('sdk-v4.1');
    expect(pick('2026-09-01T00:00:00Z')).toBe('sdk-v4.1.8');
    // A stated version wins over the date.
    expect(pick('2026-09-01T00:00:00Z', ['4.1.7'])).toBe('sdk-v4.1');
    expect(pick('2025-01-01T00:00:00Z', ['3.34.2'])).toBe('classic-v3.34');
  });

  it('compact where each release does (a 200k Claude model)', () => {
    const at = (profile: ClineProfileId, more: Partial<ClineKnobs> = {}) =>
      CLINE_STRATEGY.thresholds(knobsOf(profile, more)).find((t) => t.kind === 'trigger')?.tokens;
    // Classic: maxAllowedSize (window − 40k); with auto-condense, 75% of the window from 3.31 to 3.65.
    expect(at('classic')).toBe(160_000);
    expect(at('classic', { useAutoCondense: true })).toBe(160_000);
    expect(at('classic-v3.25', { useAutoCondense: true, autoCondensePercent: 100 })).toBe(160_000);
    expect(at('classic-v3.34', { useAutoCondense: true, autoCondensePercent: 75 })).toBe(150_000);
    // SDK 4.0: off by default; on, min(max input − 16,384, 90%) = 180,000.
    expect(at('sdk-v4.0')).toBeUndefined();
    expect(at('sdk-v4.0', { useAutoCondense: true })).toBe(180_000);
    // SDK 4.1+: 90% of the usable input: the catalog's input limit (Claude: the window), else 90% of the window.
    expect(at('sdk-v4.1', { useAutoCondense: true, sdkMaxInputTokens: 200_000 })).toBe(180_000);
    expect(at('sdk-v4.1', { useAutoCondense: true })).toBe(162_000);
    expect(getClineSdkTrigger(knobsOf('sdk-v4.1', { sdkMaxInputTokens: 1_000_000 }), 'usable')).toBe(180_000);
  });

  it('set the SDK defaults a log opens with: auto-compact on from 4.1, the summary cap 1,024 then 4,096', () => {
    const open = (startedAt: string) =>
      CLINE_STRATEGY.getSessionKnobs({ ...baseInfo, startedAt, models: ['claude-sonnet-4-5'] });
    const v40 = open('2026-07-10T00:00:00Z');
    expect(v40.knobs.useAutoCondense).toBe(false);
    expect(v40.notes.join(' ')).toMatch(/auto-condense off \(the default\): no automatic compaction/);
    const v41 = open('2026-08-05T00:00:00Z');
    expect([v41.knobs.useAutoCondense, v41.knobs.summaryMaxTokens, v41.knobs.sdkMaxInputTokens]).toEqual([
      true,
      1_024,
      200_000,
    ]);
    expect(v41.notes.join(' ')).toMatch(/compacts at 180,000/);
    expect(open('2026-09-01T00:00:00Z').knobs.summaryMaxTokens).toBe(4_096);
  });

  it("take the OpenAI-compatible provider's window (128,000 unless set) whatever the model id names", () => {
    const open = (providers: string[]) =>
      CLINE_STRATEGY.getSessionKnobs({
        ...baseInfo,
        contextWindow: undefined,
        startedAt: '2026-04-24T00:00:00Z',
        models: ['claude_4_5_opus'],
        providers,
      });
    const viaOpenAi = open(['openai']);
    expect(viaOpenAi.knobs.contextWindow).toBe(128_000);
    expect(getClineMaxAllowed(viaOpenAi.knobs)).toBe(98_000);
    expect(viaOpenAi.notes.join(' ')).toMatch(/OpenAI-compatible provider.*src\/shared\/api\.ts:1324-1326/);
    expect(open(['anthropic']).knobs.contextWindow).toBe(200_000);
    expect(open([]).knobs.contextWindow).toBe(200_000);
    // A Cline history opens with Cline's strategy (it opened with Claude Code's).
    expect(getDefaultStrategyId('cline')).toBe('cline');
    expect(getDefaultStrategyId('cline-task-metadata')).toBe('cline');
  });
});

const baseInfo = {
  versions: [] as string[],
  models: [] as string[],
  format: 'cline-ui' as const,
  startedAt: undefined as string | undefined,
  contextWindow: 200_000,
} as unknown as Parameters<typeof CLINE_STRATEGY.getSessionKnobs>[0];

describe('Cline SDK compaction on a generated session', () => {
  const prepared = (async () => {
    const g = generateSession({ seed: 5, apiCalls: 400 });
    return prepareReplay(await parseSession(g.files.map((f) => createMemorySource(f.name, f.text))));
  })();
  // A 120k model whose catalog states its input limit as its window: 4.1 compacts at 108,000.
  const sdk = (profile: ClineProfileId, more: Partial<ClineKnobs> = {}) =>
    knobsOf(profile, { contextWindow: 120_000, sdkMaxInputTokens: 120_000, useAutoCondense: true, ...more });
  /** The replay's own events (not the log's compactions it adopts). */
  const own = (r: ReplayResult) => r.events.filter((e) => e.trigger !== 'log' && e.kind !== 'blocked');

  it('4.1: at 90% of the usable input, all but the newest ≥ 20,000 tokens summarized by the SDK prompt', async () => {
    const p = await prepared;
    const result = run(p, sdk('sdk-v4.1', { summaryMaxTokens: 1_024 }));
    const compacts = own(result).filter((e) => e.kind === 'compact');
    expect(compacts.length).toBeGreaterThanOrEqual(2);
    for (const e of compacts) {
      if (e.kind !== 'compact') continue;
      expect(e.checkTokens).toBeGreaterThanOrEqual(108_000);
      expect(e.thresholdTokens).toBe(108_000);
      expect(e.request.promptPresetId).toBe('cline-sdk-summary');
      // The summary: the size model's, cut to the cap; a recorded one where the log compacted too.
      if (e.summarySource === 'model') {
        expect(e.summaryTokens).toBeLessThanOrEqual(1_024);
        expect(e.keptTokens ?? 0).toBeGreaterThanOrEqual(20_000);
      }
    }
    expect(result.events.some((e) => e.kind === 'blocked')).toBe(false);
    // The cap: the same compactions with a 512-token max_tokens cut every modelled summary to it.
    const capped = own(run(p, sdk('sdk-v4.1', { summaryMaxTokens: 512 })));
    const modelled = capped.flatMap((e) => (e.kind === 'compact' && e.summarySource === 'model' ? [e] : []));
    expect(modelled.length).toBeGreaterThan(0);
    for (const e of modelled) expect(e.summaryTokens).toBe(512);
  });

  it('4.0: nothing by default; with auto-condense, tool results cut to 2,000 characters, then the oldest messages trimmed', async () => {
    const p = await prepared;
    expect(own(run(p, sdk('sdk-v4.0', { useAutoCondense: false })))).toEqual([]);
    const trimmed = own(run(p, sdk('sdk-v4.0')));
    expect(trimmed.some((e) => e.kind === 'replace')).toBe(true);
    expect(trimmed.some((e) => e.kind === 'truncate')).toBe(true);
    // min(120,000 − 16,384, 90%) = 103,616 on the messages alone.
    for (const e of trimmed) {
      expect(['replace', 'truncate']).toContain(e.kind);
      expect(e.checkTokens).toBeGreaterThan(103_616);
      expect(e.thresholdTokens).toBe(103_616);
      if (e.kind === 'truncate')
        expect(p.posOfEntry[e.droppedFromEntryIndex!]!).toBeGreaterThanOrEqual(p.callPos[0]!);
    }
  });

  it('classic profiles truncate as before whatever their prompt', async () => {
    const p = await prepared;
    const a = run(p, knobsOf('classic-v3.25', { contextWindow: 120_000 }));
    const b = run(p, knobsOf('classic-v3.66', { contextWindow: 120_000 }));
    expect(own(a).some((e) => e.kind === 'truncate')).toBe(true);
    expect(Array.from(a.simulatedTokens)).toEqual(Array.from(b.simulatedTokens));
    // With auto-condense each sends its release's summarize_task.
    const c = run(p, knobsOf('classic-v3.28', { contextWindow: 120_000, useAutoCondense: true }));
    const compact = own(c).find((e) => e.kind === 'compact');
    expect(compact?.kind === 'compact' && compact.request.promptPresetId).toBe('cline-summarize-task-v3.28');
  });
});

// The real Cline tasks: written by Cline ≥ v3.25.0 (their UI logs hold `task_progress` messages,
// a ClineSay of the focus chain that v3.25.0 introduced:
// cline/cline@612a67ee8998e6aa48db5110ee4236543bcf7c1b:src/shared/ExtensionMessage.ts:137),
// dated before 4.0: classic profiles, picked by their start dates.
// `replayed`: the replay's own truncations where they differ from the log's: on CoreGems the replay
// after a missed truncation stays with the log's growth (issue 19 item 9), so its truncations come
// 6 calls early and 2 late, 3 in all, where a jump once gave a fourth.
const REAL: {
  path: string;
  profile: ClineProfileId;
  calls: number;
  truncations: number;
  replayed?: number;
}[] = [
  {
    path: join(CORPUS, 'CoreGems__Cline-Xray/task_sample__ui_messages.json'),
    profile: 'classic-v3.34',
    calls: 53,
    truncations: 4,
    replayed: 3,
  },
  {
    path: join(CORPUS, 'mike4567__MRA04242026/api_conversation_history.json'),
    profile: 'classic-v3.66',
    // Its assistant messages' `metrics.tokens` (one all zero: a failed request); its nine
    // truncations read from the input falling (the file alone records none).
    calls: 220,
    truncations: 9,
  },
  {
    path: join(FOREIGN, 'haram-333__fineye/ui_messages.json'),
    profile: 'classic-v3.34',
    calls: 24,
    truncations: 0,
  },
  {
    path: join(FOREIGN, 'Jeehunter__mcp-vscode-server/ui_messages.json'),
    profile: 'classic-v3.31',
    calls: 60,
    truncations: 0,
  },
];

describe.skipIf(!corpusOrSkip('Cline profiles on the real Cline tasks'))(
  'Cline profiles on the real tasks',
  () => {
    it.each(REAL.map((r) => [basename(join(r.path, '..')), r] as const))('%s', async (_name, real) => {
      if (!existsSync(real.path)) return;
      const name = real.path.includes('task_sample') ? 'ui_messages.json' : basename(real.path);
      const bytes = readFileSync(real.path);
      const p = prepareReplay(await parseSession([createMemorySource(name, bytes)]));
      const { knobs, notes } = CLINE_STRATEGY.getSessionKnobs(getSessionInfo(p));
      expect(knobs.profile).toBe(real.profile);
      expect(notes[0]).toMatch(
        new RegExp(`states no version; it started .* → profile '${real.profile.replace('.', '\\.')}'`),
      );
      if (name === 'ui_messages.json') expect(bytes.toString('utf8')).toMatch(/"say":\s*"task_progress"/);
      expect(p.calls.length).toBe(real.calls);
      const result = run(p, knobs);
      expect(result.events.filter((e) => e.kind === 'truncate').length).toBe(
        real.replayed ?? real.truncations,
      );
      expect(p.real.length).toBe(real.truncations);
    });
  },
);

describe.skipIf(!corpusOrSkip('the real OpenAI-compatible Cline task'))(
  "Cline's window is its own setting through the OpenAI-compatible provider, not the API's",
  () => {
    const path = join(CORPUS, 'mike4567__MRA04242026/api_conversation_history.json');
    it('a request no larger than one the log shows answered is not refused; others are', async () => {
      if (!existsSync(path)) return;
      const p = prepareReplay(await parseSession([createMemorySource(basename(path), readFileSync(path))]));
      const { knobs } = CLINE_STRATEGY.getSessionKnobs(getSessionInfo(p));
      expect(knobs.contextWindow).toBe(128_000);
      const peak = Math.max(...p.recorded);
      // The model behind the proxy answered 177,696 tokens while Cline worked within 128,000.
      expect(peak).toBe(177_696);
      const asLogged = run(p, knobs);
      expect(asLogged.events.filter((e) => e.kind === 'blocked')).toEqual([]);
      // A smaller window set for Cline moves its truncations, not what the model accepts.
      const smaller = run(p, { ...knobs, contextWindow: 100_000 });
      expect(smaller.events.filter((e) => e.kind === 'truncate').length).toBeGreaterThan(9);
      expect(smaller.events.filter((e) => e.kind === 'blocked')).toEqual([]);
      // Without truncations the context outgrows what the log shows answered: that is refused,
      // and the event says who refuses it.
      const never = run(p, { ...knobs, maxAllowedTokens: 10_000_000 });
      expect(never.events.filter((e) => e.kind === 'truncate')).toEqual([]);
      const blocked = never.events.find((e) => e.kind === 'blocked');
      expect(blocked?.thresholdTokens).toBe(peak + 1);
      expect(blocked?.preTokens).toBeGreaterThan(peak);
      expect(blocked?.note).toMatch(
        /the API would refuse it, and Cline would truncate a quarter and retry once/,
      );
    });
  },
);
