import type { KnobSpec, SessionInfo } from './types';

// Version profiles, shared by every strategy (issue 19): an agent's compaction changed between
// releases, so a strategy declares its variants as data — each from the release (or, for logs that
// do not state a version, the date) its source introduced it — and `pickProfile` chooses the one a
// log's agent version (else its start date) falls in. The choice is a `profile` select knob the
// user can change; the note says which profile was taken and why.

export interface VersionProfile<Id extends string = string> {
  id: Id;
  /** What differs, short (the select's option label). */
  label: string;
  /**
   * The first release (semver, `0.30.0`) and/or the first day (`YYYY-MM-DD`, UTC) it applies. The
   * oldest profile may leave both out (it is what came before the others).
   */
  from: { version?: string; date?: string };
  /** `owner/repo@<commit>:<path>:<line>`, or `ours (why)`. */
  source: string;
}

interface ProfilePick<Id extends string = string, P extends VersionProfile<Id> = VersionProfile<Id>> {
  /** The profile (a strategy's own profile type, with what its release does). */
  profile: P;
  /** What chose it: the log's version, its start date, or nothing (the newest profile). */
  basis: 'version' | 'date' | 'default';
  note: string;
}

/** What `pickProfile` reads from a session. */
type ProfileInput = Pick<SessionInfo, 'versions' | 'startedAt'> & Pick<Partial<SessionInfo>, 'format'>;

/**
 * Numeric semver order of `x.y.z` (missing parts 0). A prerelease (`0.30.0-preview.1`) counts as its
 * release: the agents ship a change in the preview first (gemini-cli's `v0.30.0-preview.0` carries
 * what `v0.30.0` does), so a preview log belongs with its release. ours (why: profiles are keyed by
 * the release that introduced a change).
 */
export function compareVersions(a: string, b: string): number {
  const parts = (v: string) =>
    v
      .replace(/^v/, '')
      .split('-')[0]!
      .split('.')
      .map((x) => Number.parseInt(x, 10) || 0);
  const pa = parts(a);
  const pb = parts(b);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

const isVersion = (v: string) => /^v?\d+(\.\d+)*/.test(v);

/** The latest profile (in declaration order, oldest first) whose start is ≤ `at`; else the oldest. */
function latestFrom<P extends VersionProfile>(profiles: readonly P[], starts: (p: P) => boolean): P {
  let pick = profiles[0]!;
  for (const p of profiles) if (starts(p)) pick = p;
  return pick;
}

function describeFrom(p: VersionProfile): string {
  const from = [p.from.version && `from ${p.from.version}`, p.from.date && `from ${p.from.date}`]
    .filter(Boolean)
    .join(', ');
  return `${p.label}${from ? `, ${from}` : ''}; ${p.source}`;
}

/**
 * The profile for a log: by the highest agent version it states (semver), else by its start date,
 * else the newest profile. `profiles` are declared oldest first. `agent` names the agent in the note.
 * `ownFormats`: the agent's own dialects — a log of another dialect states another agent's
 * versions, so only its date counts (what the agent did on that day).
 */
export function pickProfile<Id extends string, P extends VersionProfile<Id> = VersionProfile<Id>>(
  profiles: readonly P[],
  info: ProfileInput,
  agent: string,
  ownFormats?: readonly string[],
): ProfilePick<Id, P> {
  if (profiles.length === 0) throw new Error('pickProfile: no profiles');
  const foreign =
    ownFormats !== undefined && (info.format === undefined || !ownFormats.includes(info.format));
  // Profiles dated only (PR merge dates, no release known) go by the date even when a version is logged.
  const byVersion = profiles.some((p) => p.from.version !== undefined);
  const versions = foreign || !byVersion ? [] : info.versions.filter(isVersion).sort(compareVersions);
  const version = versions.at(-1);
  if (version !== undefined) {
    const at = (v: string) =>
      latestFrom(profiles, (p) => p.from.version !== undefined && compareVersions(p.from.version, v) <= 0);
    const profile = at(version);
    const spans = new Set(versions.map((v) => at(v).id)).size > 1;
    return {
      profile,
      basis: 'version',
      note:
        `${agent} ${version} → profile '${profile.id}' (${describeFrom(profile)})` +
        (spans ? `; the log spans versions ${versions.join(', ')}, the newest decides.` : '.'),
    };
  }
  const date = info.startedAt?.slice(0, 10);
  if (date && /^\d{4}-\d{2}-\d{2}$/.test(date)) {
    const profile = latestFrom(profiles, (p) => p.from.date !== undefined && p.from.date <= date);
    return {
      profile,
      basis: 'date',
      note: `${agent}: ${foreign ? `the log is not ${agent}'s, its versions are another agent's` : byVersion ? 'the log states no version' : 'its profiles are dated, not versioned'}; it started ${date} → profile '${profile.id}' (${describeFrom(profile)}).`,
    };
  }
  const profile = profiles.at(-1)!;
  return {
    profile,
    basis: 'default',
    note: `${agent}: the log states neither a version nor a start date → the newest profile '${profile.id}' (${describeFrom(profile)}).`,
  };
}

/** The `profile` select knob of a strategy's profiles. */
export function profileKnobSpec(
  profiles: readonly VersionProfile[],
  group: string,
  label = 'Version profile',
): KnobSpec {
  return {
    key: 'profile',
    label,
    kind: 'select',
    options: profiles.map((p) => ({ value: p.id, label: p.label })),
    source: profiles.map((p) => `${p.id}: ${p.source}`).join('; '),
    help: 'Picked from the log’s agent version (else its start date); choose another to replay under it.',
    group,
    cliFlag: 'profile',
  };
}

/** The profile of a knob value (an unknown id: the newest). */
export function getProfile<P extends VersionProfile>(profiles: readonly P[], id: string | undefined): P {
  return profiles.find((p) => p.id === id) ?? profiles.at(-1)!;
}
