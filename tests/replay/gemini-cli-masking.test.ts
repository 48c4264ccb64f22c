import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { computeReplay } from '../../src/engine/replay/compute-replay';
import { prepareReplay } from '../../src/engine/replay/prepare';
import type { ReplayResult } from '../../src/engine/replay/types';
import { GEMINI_CLI_STRATEGY } from '../../src/engine/strategies/gemini-cli';
import type { GeminiCliKnobs } from '../../src/engine/strategies/gemini-cli/knobs';
import { isMaskingOn, MASKED_RESPONSE_TOKENS } from '../../src/engine/strategies/gemini-cli/masking';
import { getSessionInfo } from '../../src/engine/strategies/types';
import { corpusOrSkip, foreignFiles } from '../helpers/corpus';
import { checkReplayInvariants } from './invariants';
import { type CallSpec, parseFixture } from './transcript-fixture';

// Gemini CLI's tool-output masking (strategies/gemini-cli/masking.ts; google-gemini/gemini-cli
// toolOutputMaskingService.ts): its profiles by version / date, the real Gemini corpus (all four
// chats predate masking), and a generated long session where it fires.

function run(prepared: ReturnType<typeof prepareReplay>, knobs: Partial<GeminiCliKnobs>): ReplayResult {
  const result = computeReplay(prepared, 'gemini-cli', { ...GEMINI_CLI_STRATEGY.defaultKnobs, ...knobs });
  expect(checkReplayInvariants(prepared, result)).toEqual([]);
  return result;
}
const masks = (r: ReplayResult) => r.events.filter((e) => e.kind === 'replace');

describe('Gemini CLI masking profiles', () => {
  it('off before 0.29, opt-in in 0.29, on by default in 0.30–0.36, always from 0.37', () => {
    expect(isMaskingOn('compress-only', 'on')).toBe(false);
    expect(isMaskingOn('masking-opt-in', 'profile')).toBe(false);
    expect(isMaskingOn('masking-opt-in', 'on')).toBe(true);
    expect(isMaskingOn('masking-default', 'profile')).toBe(true);
    expect(isMaskingOn('masking-default', 'off')).toBe(false);
    expect(isMaskingOn('masking-always', 'off')).toBe(true);
  });
});

const present = corpusOrSkip('Gemini CLI masking on the real corpus');
const chats = foreignFiles().filter((p) => p.includes('/.gemini/') && p.includes('/chats/'));

describe.skipIf(!present)('the real Gemini CLI chats (brexp__infra, Tar-ive__brain-system)', () => {
  it('all four predate masking (2025-09-16 … 2025-11-07, no version logged): profile by date, and even with masking forced on, too little tool output to mask', async () => {
    expect(chats.length).toBe(4);
    for (const file of chats) {
      const session = await parseSession([
        createMemorySource(file.split('/').pop()!, readFileSync(file, 'utf8')),
      ]);
      const prepared = prepareReplay(session);
      const info = getSessionInfo(prepared);
      expect(info.versions).toEqual([]);
      expect(info.startedAt! < '2026-02-10').toBe(true);
      const { knobs, notes } = GEMINI_CLI_STRATEGY.getSessionKnobs(info);
      expect(knobs.profile).toBe('compress-only');
      expect(notes[0]).toMatch(/states no version; it started 2025-\d\d-\d\d → profile 'compress-only'/);
      expect(masks(run(prepared, knobs))).toEqual([]);
      // Masking starts at ≈ 80,000 tokens of tool output (50,000 protected + 30,000 prunable); the
      // largest of these chats holds ≈ 8,000.
      let toolTokens = 0;
      for (const t of prepared.clearables.estimate) toolTokens += t;
      expect(toolTokens).toBeLessThan(10_000);
      expect(masks(run(prepared, { ...knobs, profile: 'masking-default' }))).toEqual([]);
    }
  });
});

/** Sixteen calls, each reading 40,000 characters (10,000 tokens by Gemini's chars / 4). */
function longSession(): CallSpec[] {
  return Array.from({ length: 16 }, (_, t) => ({
    prompt: t === 0 ? 'Read the files one by one.' : undefined,
    context: 20_000 + t * 10_000,
    output: 100,
    tools: [{ name: 'read_file', path: `/w/src/f${t}.ts`, resultChars: 40_000 }],
  }));
}

describe('a long session where masking fires', () => {
  it('masks the responses older than the newest 50,000 tokens once 30,000 can go, again each time 30,000 more accumulate', async () => {
    const { session } = await parseFixture({ calls: longSession() });
    const prepared = prepareReplay(session);
    const off = run(prepared, { profile: 'compress-only' });
    expect(masks(off)).toEqual([]);
    const on = run(prepared, { profile: 'masking-default' });
    const events = masks(on);
    expect(events.length).toBeGreaterThan(0);
    const first = events[0]!;
    // 5 responses protected (50,000), the next ones prunable: the first batch is the first ≥ 30,000.
    expect(first.checkTokens).toBeGreaterThanOrEqual(30_000);
    expect(first.thresholdTokens).toBe(30_000);
    expect(first.clearedToolIds.length).toBe(3);
    expect(first.noticeTokens).toBe(MASKED_RESPONSE_TOKENS);
    expect(first.note).toContain('tool-output masking');
    // Never a response among the newest 50,000 tokens: each event leaves the 5 newest whole.
    const cleared = new Set(events.flatMap((e) => e.clearedToolIds));
    expect(cleared.size).toBe(events.reduce((n, e) => n + e.clearedToolIds.length, 0));
    expect(on.events.at(-1)!.postTokens).toBeLessThan(
      off.events.at(-1)?.postTokens ?? Number.POSITIVE_INFINITY,
    );
    // The responses the next request sends are not in the history `mask` sees, and the latest
    // history entry is the model's answer: protecting it changes nothing on this log.
    const unprotected = masks(run(prepared, { profile: 'masking-default', maskingProtectLatestTurn: false }));
    expect(unprotected.map((e) => e.clearedToolIds)).toEqual(events.map((e) => e.clearedToolIds));
    // The setting off in the opt-in / default-on releases: nothing.
    expect(masks(run(prepared, { profile: 'masking-default', maskingEnabled: 'off' }))).toEqual([]);
    // A higher minimum waits for a bigger batch.
    const later = masks(run(prepared, { profile: 'masking-always', maskingMinPrunableTokens: 50_000 }));
    expect(later[0]!.afterApiCall).toBeGreaterThan(first.afterApiCall);
    expect(later[0]!.clearedToolIds.length).toBe(5);
  });
});
