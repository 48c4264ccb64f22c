import { at } from '../../src/engine/assert';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { computeReplay } from '../../src/engine/replay/compute-replay';
import { checkReplayInvariants } from '../replay/invariants';
import { prepareReplay } from '../../src/engine/replay/prepare';
import { CLAUDE_CODE_STRATEGY } from '../../src/engine/strategies/claude-code';
import { getSessionInfo } from '../../src/engine/strategies/types';
import { generateSession } from '../../src/sample/generate-session';
import type { SampleIndex } from '../../src/sample/sample-index';
import { DEFAULT_CLAUDE_CODE_VERSION } from '../../src/sample/session-sim';

// The bundled sample replayed at its own knobs (the knobs the app picks for it) must reproduce
// its own compactions: the generator applies the replay model's rules (src/sample/compaction-model.ts).
// Version label: 2.1.19, the one version whose knobs have everything the sample shows —
// microcompact (seen only in 2.1.9–2.1.19), the 2.1.x pending estimate, auto and manual compaction.

const dir = join(resolve(import.meta.dirname, '../..'), 'public', 'samples');
const index = JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8')) as SampleIndex;

async function replaySample() {
  const session = await parseSession(
    index.files.map((f) =>
      createMemorySource(f.path.split('/').at(-1) as string, readFileSync(join(dir, f.path))),
    ),
  );
  const prepared = prepareReplay(session);
  const { knobs, notes } = CLAUDE_CODE_STRATEGY.getSessionKnobs(getSessionInfo(prepared));
  const result = computeReplay(prepared, 'claude-code', knobs);
  return { session, prepared, knobs, notes, result };
}

describe('the bundled sample under the replay model', () => {
  it('is labelled 2.1.19 and gets the v2.0 profile with microcompact and the pending estimate', async () => {
    const { session, knobs } = await replaySample();
    expect(DEFAULT_CLAUDE_CODE_VERSION).toBe('2.1.19');
    expect(session.meta.versions).toEqual(['2.1.19']);
    expect(knobs.profile).toBe('v2.0');
    expect(knobs.microcompactEnabled).toBe(true);
    expect(knobs.countPendingMessages).toBe(true);
    expect(knobs.autoCompactEnabled).toBe(true);
  });

  it('reproduces the auto-compaction and the microcompaction at the same call, and resets at the manual one', async () => {
    const { prepared, result } = await replaySample();
    expect(checkReplayInvariants(prepared, result)).toEqual([]);
    const outcomes = result.comparison.outcomes;
    expect(outcomes.map((o) => `${o.kind}/${o.trigger}`).sort()).toEqual([
      'compact/auto',
      'compact/manual',
      'microcompact/auto',
    ]);
    for (const o of outcomes) {
      if (o.trigger === 'manual') {
        expect(o.status).toBe('manual');
        continue;
      }
      expect(o.status, `${o.kind} after call ${o.afterApiCall}`).toBe('matched');
      expect(o.delta).toBe(0);
    }
    expect(result.comparison.extraEventIndices).toEqual([]);
    // Exactly one event per real compaction: nothing fires anywhere else.
    expect(result.events.map((e) => e.kind)).toEqual(
      prepared.real.map((r) => (r.kind === 'compact' && r.trigger !== 'auto' ? 'reset' : r.kind)),
    );
    expect(result.comparison).toMatchObject({ expected: 1, reproduced: 1 });
  });

  it('fires the auto-compaction at the threshold with the log’s own count as preTokens', async () => {
    const { prepared, result } = await replaySample();
    const real = prepared.real.find((r) => r.kind === 'compact' && r.trigger === 'auto');
    const event = result.events.find((e) => e.kind === 'compact' && e.trigger === 'auto');
    expect(real && event).toBeTruthy();
    const k = real!.afterCall;
    const count = at(prepared.recorded, k) + at(prepared.output, k) + at(prepared.pendingEstimate, k);
    expect(event!.checkTokens).toBe(count);
    expect(real!.preTokens).toBe(count);
    expect(count).toBeGreaterThanOrEqual(155_000);
    // The call before it stayed under both thresholds.
    const before =
      at(prepared.recorded, k - 1) + at(prepared.output, k - 1) + at(prepared.pendingEstimate, k - 1);
    expect(before).toBeLessThan(155_000);
  });

  it('clears exactly the tool results the model clears, with the model’s estimate as tokensSaved', async () => {
    const { session, prepared, result } = await replaySample();
    const real = prepared.real.find((r) => r.kind === 'microcompact')!;
    const event = result.events.find((e) => e.kind === 'microcompact')!;
    const meta = at(session.entries, real.entryIndex).microcompact!;
    expect([...event.clearedToolIds!].sort()).toEqual([...meta.compactedToolIds].sort());
    expect(real.cleared).toHaveLength(meta.compactedToolIds.length);
    expect(event.estimatedSavedTokens).toBe(meta.tokensSaved);
    expect(meta.tokensSaved).toBeGreaterThan(20_000);
    // The usage of the call before it crossed the warning threshold (135,000 in the v2.0 profile).
    const k = real.afterCall;
    expect(at(prepared.recorded, k) + at(prepared.output, k)).toBe(meta.preTokens);
    expect(meta.preTokens).toBeGreaterThanOrEqual(135_000);
    // The replay's history equals the log's after the clearing: no divergence before the auto-compaction.
    expect(result.diverged[k + 1]).toBe(0);
    expect(result.simulatedTokens[k + 1]).toBe(result.recordedTokens[k + 1]);
  });
});

describe('a long generated session under the replay model', () => {
  it('has its auto-compaction and microcompactions where the replay puts them', async () => {
    const generated = generateSession({ seed: 3, targetBytes: 6_000_000 });
    const session = await parseSession(generated.files.map((f) => createMemorySource(f.name, f.text)));
    const prepared = prepareReplay(session);
    const { knobs } = CLAUDE_CODE_STRATEGY.getSessionKnobs(getSessionInfo(prepared));
    const result = computeReplay(prepared, 'claude-code', knobs);
    expect(checkReplayInvariants(prepared, result)).toEqual([]);
    expect(result.comparison.extraEventIndices).toEqual([]);
    const boundaries = (generated.files[0]?.text ?? '')
      .split('\n')
      .filter((line) => /"subtype":"(micro)?compact_boundary"/.test(line));
    const outcomes = result.comparison.outcomes;
    expect(outcomes).toHaveLength(boundaries.length);
    expect(outcomes.filter((o) => o.kind === 'microcompact').length).toBeGreaterThanOrEqual(3);
    // A microcompaction that clears the pasted image names it in clearedAttachmentUUIDs, which the
    // replay does not read: from there on the replay's history differs from the log's. Every
    // compaction up to that one is reproduced at its call.
    const imageCleared = boundaries.findIndex((line) => !line.includes('"clearedAttachmentUUIDs":[]'));
    const upTo = imageCleared < 0 ? outcomes.length : imageCleared + 1;
    for (const o of outcomes.slice(0, upTo)) {
      expect(o.status, `${o.kind} after call ${o.afterApiCall}`).toBe(
        o.trigger === 'manual' ? 'manual' : 'matched',
      );
    }
  });
});
