import { describe, expect, it } from 'vitest';
import { getClaudeCodeSessionKnobs } from '../../src/engine/strategies/claude-code/session-knobs';
import {
  computeThresholds,
  DEFAULT_THRESHOLD_KNOBS,
  describeUncheckedVersion,
  getThresholdProfileForVersion,
} from '../../src/engine/thresholds';

const knobs = (over: Partial<typeof DEFAULT_THRESHOLD_KNOBS>) => ({ ...DEFAULT_THRESHOLD_KNOBS, ...over });

describe('computeThresholds (v2.1.68 "Threshold")', () => {
  it('reserves min(max output, 20k) and keeps 13k free', () => {
    expect(computeThresholds(knobs({ maxOutputTokens: 64_000 })).autoCompact).toBe(167_000);
    expect(computeThresholds(knobs({ maxOutputTokens: 8_192 })).autoCompact).toBe(178_808);
    expect(computeThresholds(knobs({ maxOutputTokens: 8_192 })).effectiveWindow).toBe(191_808);
  });

  it('puts warning and error 20k below, blocking at window − 3k', () => {
    const t = computeThresholds(knobs({}));
    expect(t.warning).toBe(147_000);
    expect(t.error).toBe(147_000);
    expect(t.blocking).toBe(197_000);
    expect(computeThresholds(knobs({ blockingLimitOverride: 150_000 })).blocking).toBe(150_000);
  });

  it('lets the percentage override only lower the threshold', () => {
    expect(computeThresholds(knobs({ autocompactPctOverride: 50 })).autoCompact).toBe(90_000); // floor(180k × 0.5)
    expect(computeThresholds(knobs({ autocompactPctOverride: 99 })).autoCompact).toBe(167_000);
    expect(computeThresholds(knobs({ autocompactPctOverride: 0 })).autoCompact).toBe(167_000);
    expect(computeThresholds(knobs({ autocompactPctOverride: 150 })).autoCompact).toBe(167_000);
  });

  // @anthropic-ai/claude-code@1.0.70:cli.js: vRB()*ZG8 with ZG8=0.92, vRB() = 200,000 − 32,000;
  // warning and error at 0.8 of it (docs/sources.md#cc-npm-constants).
  it('has the 1.0.x profile (92% of window − max output) and the 2.0.x one (window − 32k − 13k)', () => {
    const legacy = computeThresholds(knobs({ profile: 'legacy' }));
    expect(legacy.autoCompact).toBe(154_560);
    expect(legacy.warning).toBe(123_648);
    expect(legacy.error).toBe(123_648);
    // haiku and 3-5 models reserved 8,192: 0.92 × 191,808 = 176,463.36, a count of 176,464 fires.
    expect(computeThresholds(knobs({ profile: 'legacy', maxOutputTokens: 8_192 })).autoCompact).toBe(176_464);
    expect(computeThresholds(knobs({ profile: 'v2.0' })).autoCompact).toBe(155_000);
    expect(computeThresholds(knobs({ profile: 'v2.0', maxOutputTokens: 8_192 })).autoCompact).toBe(178_808);
  });

  it('hangs the warning from the effective window when auto-compact is off', () => {
    expect(computeThresholds(knobs({ autoCompactEnabled: false })).warning).toBe(160_000);
    expect(computeThresholds(knobs({ autoCompactEnabled: false, profile: 'v2.0' })).warning).toBe(148_000);
    expect(computeThresholds(knobs({ autoCompactEnabled: false, profile: 'legacy' })).warning).toBe(134_400);
  });
});

describe('version profiles', () => {
  it('maps versions to profiles', () => {
    // The releases where cli.js changed the formula (docs/sources.md#cc-npm-constants).
    expect(getThresholdProfileForVersion('1.0.24')).toBe('legacy');
    expect(getThresholdProfileForVersion('1.0.70')).toBe('legacy');
    expect(getThresholdProfileForVersion('1.0.71')).toBe('v2.0');
    expect(getThresholdProfileForVersion('1.0.98')).toBe('v2.0');
    expect(getThresholdProfileForVersion('2.1.20')).toBe('v2.0');
    expect(getThresholdProfileForVersion('2.1.21')).toBe('v2.1.68');
    expect(getThresholdProfileForVersion('2.0.76')).toBe('v2.0');
    expect(getThresholdProfileForVersion('2.1.19')).toBe('v2.0');
    expect(getThresholdProfileForVersion('2.1.34')).toBe('v2.1.68');
    expect(getThresholdProfileForVersion('2.1.101')).toBe('v2.1.68');
    expect(getThresholdProfileForVersion(undefined)).toBe('v2.1.68');
  });

  it('picks the log’s knobs with reasons', () => {
    const info = {
      versions: ['2.1.12'],
      models: ['claude-opus-4-5'],
      isSubagent: false,
      autoCompactions: 0,
      microcompactions: 0,
      continuedPeakTokens: 160_000,
    };
    const { knobs: k, notes } = getClaudeCodeSessionKnobs(info);
    expect(k).toMatchObject({
      profile: 'v2.0',
      microcompactEnabled: true,
      countPendingMessages: true,
      autoCompactEnabled: false,
    });
    expect(notes.join(' ')).toMatch(/Auto-compact off/);
    const v2 = getClaudeCodeSessionKnobs({ ...info, versions: ['2.0.74'], autoCompactions: 2 }).knobs;
    expect(v2).toMatchObject({
      profile: 'v2.0',
      microcompactEnabled: false,
      countPendingMessages: false,
      continuationFormat: 'legacy',
      autoCompactEnabled: true,
    });
    const big = getClaudeCodeSessionKnobs({
      ...info,
      versions: ['2.1.90'],
      models: ['claude-sonnet-4-6[1m]'],
      autoCompactions: 1,
    }).knobs;
    expect(big.contextWindow).toBe(1_000_000);
  });

  // What each release re-attaches after a compaction, read from its cli.js (docs/sources.md#cc-npm-constants).
  it('re-attaches the todo list up to 2.1.62 and cuts skills from 2.1.84', () => {
    const at = (version: string) =>
      getClaudeCodeSessionKnobs({
        versions: [version],
        models: ['claude-opus-4-5'],
        isSubagent: false,
        autoCompactions: 1,
        microcompactions: 0,
        continuedPeakTokens: 100_000,
      }).knobs;
    expect(at('2.1.62').restoreTodos).toBe(true);
    expect(at('2.1.63').restoreTodos).toBe(false);
    expect(at('2.1.83')).toMatchObject({ restoreTokensPerSkill: 100_000, restoreSkillsTotalTokens: 500_000 });
    expect(at('2.1.84')).toMatchObject({ restoreTokensPerSkill: 5_000, restoreSkillsTotalTokens: 25_000 });
    expect(at('1.0.43')).toMatchObject({ profile: 'legacy', microcompactEnabled: false });
    // The estimate of the later messages joins the count in 2.1.2 (2.1.1's cli.js counts the usage alone).
    expect(at('2.1.1').countPendingMessages).toBe(false);
    expect(at('2.1.2').countPendingMessages).toBe(true);
  });

  // 2.1.229's native binary holds the same threshold (docs/sources.md#cc-npm-constants): read, not checked on a log.
  it('says a version past the logs checked is read up to 2.1.229, assumed after', () => {
    expect(describeUncheckedVersion('2.1.111')).toBeUndefined();
    expect(describeUncheckedVersion('2.1.229')).toMatch(
      /read from the npm package up to 2\.1\.229, computes the same threshold/,
    );
    expect(describeUncheckedVersion('2.1.230')).toMatch(/assumed unchanged/);
  });
});
