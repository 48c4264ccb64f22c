import { describe, expect, it } from 'vitest';
import {
  compareVersions,
  getProfile,
  pickProfile,
  profileKnobSpec,
  type VersionProfile,
} from '../../src/engine/strategies/version-profile';

// The Gemini CLI masking releases (/docs/sources.md#gemini-cli; google-gemini/gemini-cli tags).
const PROFILES: VersionProfile<'before' | 'opt-in' | 'default-on' | 'always'>[] = [
  { id: 'before', label: 'no masking', from: {}, source: 'ours (before 8ec176e0)' },
  { id: 'opt-in', label: 'opt-in', from: { version: '0.29.0', date: '2026-02-10' }, source: 'a@1:x:1' },
  {
    id: 'default-on',
    label: 'on by default',
    from: { version: '0.30.0', date: '2026-02-17' },
    source: 'a@2:x:1',
  },
  { id: 'always', label: 'always on', from: { version: '0.37.0', date: '2026-04-01' }, source: 'a@3:x:1' },
];

describe('compareVersions', () => {
  it('orders numerically, not as text', () => {
    expect(compareVersions('0.10.0', '0.9.9')).toBeGreaterThan(0);
    expect(compareVersions('2.1.68', '2.1.7')).toBeGreaterThan(0);
    expect(compareVersions('1.0', '1.0.0')).toBe(0);
  });
  it('counts a prerelease as its release (the change ships in the preview)', () => {
    expect(compareVersions('0.30.0-preview.1', '0.30.0')).toBe(0);
    expect(compareVersions('v0.30.0', '0.30.0')).toBe(0);
  });
});

describe('pickProfile', () => {
  it('picks by the version: the latest profile whose first release is ≤ it', () => {
    const at = (v: string) => pickProfile(PROFILES, { versions: [v] }, 'Gemini CLI').profile.id;
    expect(at('0.28.3')).toBe('before');
    expect(at('0.29.0')).toBe('opt-in');
    expect(at('0.31.2')).toBe('default-on');
    expect(at('0.30.0-preview.0')).toBe('default-on');
    expect(at('0.44.1')).toBe('always');
  });
  it('says which version, which profile and the source', () => {
    const pick = pickProfile(PROFILES, { versions: ['0.31.2'] }, 'Gemini CLI');
    expect(pick.basis).toBe('version');
    expect(pick.note).toBe(
      "Gemini CLI 0.31.2 → profile 'default-on' (on by default, from 0.30.0, from 2026-02-17; a@2:x:1).",
    );
  });
  it('takes the newest of several versions and says the log spans profiles', () => {
    const pick = pickProfile(PROFILES, { versions: ['0.36.0', '0.29.1'] }, 'Gemini CLI');
    expect(pick.profile.id).toBe('default-on');
    expect(pick.note).toContain('spans versions 0.29.1, 0.36.0');
  });
  it('falls back to the start date when no version is logged', () => {
    const at = (d: string) => pickProfile(PROFILES, { versions: [], startedAt: d }, 'G');
    expect(at('2026-01-20T10:00:00.000Z').profile.id).toBe('before');
    expect(at('2026-02-17T00:00:00.000Z').profile.id).toBe('default-on');
    expect(at('2026-05-01T00:00:00.000Z').basis).toBe('date');
    expect(at('2026-05-01T00:00:00.000Z').note).toContain('started 2026-05-01');
  });
  it('ignores a version that is not one ("unknown") and takes the newest profile with nothing to go on', () => {
    const pick = pickProfile(PROFILES, { versions: ['unknown'] }, 'G');
    expect(pick.basis).toBe('default');
    expect(pick.profile.id).toBe('always');
  });
  it('builds the select knob and resolves ids', () => {
    const spec = profileKnobSpec(PROFILES, 'Gemini CLI');
    expect(spec.options?.map((o) => o.value)).toEqual(['before', 'opt-in', 'default-on', 'always']);
    expect(getProfile(PROFILES, 'opt-in').id).toBe('opt-in');
    expect(getProfile(PROFILES, 'nope').id).toBe('always');
  });
});

describe('pickProfile on another agent’s log', () => {
  it('ignores the versions of another dialect and goes by the date', () => {
    const info = {
      versions: ['2.1.68'],
      startedAt: '2026-03-01T00:00:00.000Z',
      format: 'claude-code' as const,
    };
    const pick = pickProfile(PROFILES, info, 'Gemini CLI', ['gemini-cli']);
    expect(pick.basis).toBe('date');
    expect(pick.profile.id).toBe('default-on');
    expect(pick.note).toContain("the log is not Gemini CLI's");
    expect(pickProfile(PROFILES, { ...info, format: 'gemini-cli' as never }, 'G', ['gemini-cli']).basis).toBe(
      'version',
    );
  });
});

describe('pickProfile with dated profiles only', () => {
  it('goes by the date even when the log states a version', () => {
    const dated: VersionProfile[] = [
      { id: 'a', label: 'A', from: {}, source: 'ours (x)' },
      { id: 'b', label: 'B', from: { date: '2025-10-17' }, source: 'ours (y)' },
    ];
    const pick = pickProfile(dated, { versions: ['0.47.0'], startedAt: '2025-10-19T19:26:51Z' }, 'Codex CLI');
    expect(pick.basis).toBe('date');
    expect(pick.profile.id).toBe('b');
    expect(pick.note).toContain('its profiles are dated, not versioned');
  });
});
