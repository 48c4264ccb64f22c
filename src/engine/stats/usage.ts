import { USAGE_SLOT_MS, type UsageBucket } from '../cost/session-calls';
import type { TokenCount } from '../types';

// Usage and cost by day and by project, as ccusage's `daily` and claude-code-viewer's usage page
// give them, summed from each session's buckets (cost/session-calls.ts: a quarter hour of one
// model's calls, kept with the library's row): a day is a local date in any time zone, call by
// call (a session across midnight counts on both days); a project is a working directory.

export type UsageBy = 'day' | 'project';

/** A listed session as the grouping takes it. */
export interface UsageSession {
  key: string;
  /** Its working directory ('' when the log names none). */
  cwd: string;
  buckets: readonly UsageBucket[];
}

interface UsageFigures {
  calls: number;
  input: TokenCount;
  output: TokenCount;
  cacheRead: TokenCount;
  cacheWrite: TokenCount;
  costUsd: number;
  unpricedCalls: number;
}

/** One day's or one project's usage. */
export interface UsageGroup extends UsageFigures {
  /** `YYYY-MM-DD` (local date; '' for calls without a time), or the working directory ('' for none). */
  key: string;
  /** What the group is called: the date, or the project's folder name. */
  label: string;
  /** Sessions with a call in the group. */
  sessions: number;
  sessionKeys: string[];
  /** By model, most expensive first. */
  models: ({ model: string } & UsageFigures)[];
}

/** The last folder of a working directory, the project's name ("/home/mira/code/tally" → "tally"). */
function getProjectName(cwd: string): string {
  const parts = cwd.split(/[\\/]+/).filter((p) => p !== '');
  return parts.at(-1) ?? cwd;
}

/** A Windows path: a drive letter (`C:\`, `c:/`, `C:` alone) or a UNC share (`\\server\share`). */
const WINDOWS_PATH = /^(?:[A-Za-z]:(?:[\\/]|$)|[\\/]{2}[^\\/])/;

/**
 * A working directory as its project's key: one key per folder, however the log spelled it. A
 * Windows path takes either separator and any case (the drive letter's case follows the shell
 * that started the agent: real Codex and Claude Code logs of one machine hold `c:\Users\…` and `C:\Users\…` for one
 * folder), so it is written with `\`, no separator doubled or trailing, and compared folded to
 * lower case (`identity`); `display` is this spelling with its drive letter upper case (a group shows its first session's).
 * A POSIX path loses only a trailing `/`.
 */
export function getProjectKey(cwd: string): { identity: string; display: string } {
  if (!WINDOWS_PATH.test(cwd)) {
    const display = cwd.length > 1 ? cwd.replace(/\/+$/, '') : cwd;
    return { identity: display, display };
  }
  const unc = /^[\\/]{2}/.test(cwd);
  let path = cwd.replace(/[\\/]+/g, '\\');
  if (unc) path = `\\${path}`;
  // A drive's root keeps its separator (`C:\`); any other folder drops a trailing one.
  if (!/^[A-Za-z]:\\$/.test(path)) path = path.replace(/\\+$/, '');
  const display = /^[a-z]:/.test(path) ? path[0]!.toUpperCase() + path.slice(1) : path;
  return { identity: display.toLowerCase(), display };
}

/** The time zone this runtime is in (the user's, in a browser). */
export function getLocalTimeZone(): string {
  return new Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/**
 * The local date (`YYYY-MM-DD`) of a quarter-hour slot in `timeZone` (an IANA name or `UTC`);
 * throws a RangeError naming it when the runtime does not know the zone.
 */
export function createSlotDater(timeZone: string): (slot: number) => string {
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
  } catch {
    throw new RangeError(`unknown time zone "${timeZone}" (an IANA name such as Europe/Paris, or UTC)`);
  }
  const dates = new Map<number, string>();
  return (slot) => {
    let date = dates.get(slot);
    if (date === undefined) {
      const parts = Object.fromEntries(
        format.formatToParts(new Date(slot * USAGE_SLOT_MS)).map((p) => [p.type, p.value]),
      );
      date = `${parts.year}-${parts.month}-${parts.day}`;
      dates.set(slot, date);
    }
    return date;
  };
}

const emptyFigures = (): UsageFigures => ({
  calls: 0,
  input: 0,
  output: 0,
  cacheRead: 0,
  cacheWrite: 0,
  costUsd: 0,
  unpricedCalls: 0,
});

function addFigures(to: UsageFigures, b: UsageFigures): void {
  to.calls += b.calls;
  to.input += b.input;
  to.output += b.output;
  to.cacheRead += b.cacheRead;
  to.cacheWrite += b.cacheWrite;
  to.costUsd += b.costUsd;
  to.unpricedCalls += b.unpricedCalls;
}

/** The groups' sum; `sessions` counts the sessions with a call at all (one across midnight once). */
export function getUsageTotal(groups: readonly UsageGroup[]): Omit<UsageGroup, 'sessionKeys'> {
  const keys = new Set<string>();
  const models = new Map<string, { model: string } & UsageFigures>();
  const total = { key: '', label: 'total', ...emptyFigures() };
  for (const g of groups) {
    for (const k of g.sessionKeys) keys.add(k);
    addFigures(total, g);
    for (const m of g.models) {
      let t = models.get(m.model);
      if (!t) {
        t = { model: m.model, ...emptyFigures() };
        models.set(m.model, t);
      }
      addFigures(t, m);
    }
  }
  return {
    ...total,
    sessions: keys.size,
    models: [...models.values()].sort((a, b) => b.costUsd - a.costUsd),
  };
}

/**
 * The sessions' usage by local day in `timeZone` (oldest first, undated calls last) or by project
 * (working directory; most expensive first). Linear in the buckets.
 */
export function groupUsage(sessions: readonly UsageSession[], by: UsageBy, timeZone: string): UsageGroup[] {
  const dateOf = createSlotDater(timeZone);
  const groups = new Map<string, UsageGroup & { byModel: Map<string, { model: string } & UsageFigures> }>();
  for (const s of sessions) {
    const counted = new Set<string>();
    // The one place a project's key is made: a folder however its log spelled it (getProjectKey).
    const project = by === 'project' ? getProjectKey(s.cwd) : undefined;
    for (const b of s.buckets) {
      const id = project ? project.identity : b.slot === undefined ? '' : dateOf(b.slot);
      let g = groups.get(id);
      if (!g) {
        const key = project ? project.display : id;
        const label = project ? (key ? getProjectName(key) : '(no folder)') : key || '(no time)';
        g = { key, label, sessions: 0, sessionKeys: [], models: [], byModel: new Map(), ...emptyFigures() };
        groups.set(id, g);
      }
      if (!counted.has(id)) {
        counted.add(id);
        g.sessionKeys.push(s.key);
        g.sessions++;
      }
      addFigures(g, b);
      let m = g.byModel.get(b.model);
      if (!m) {
        m = { model: b.model, ...emptyFigures() };
        g.byModel.set(b.model, m);
      }
      addFigures(m, b);
    }
  }
  const out: UsageGroup[] = [...groups.values()].map(({ byModel, ...g }) => ({
    ...g,
    models: [...byModel.values()].sort((a, b) => b.costUsd - a.costUsd || b.calls - a.calls),
  }));
  if (by === 'project') return out.sort((a, b) => b.costUsd - a.costUsd || a.key.localeCompare(b.key));
  return out.sort((a, b) => (a.key === '' ? 1 : b.key === '' ? -1 : a.key.localeCompare(b.key)));
}
