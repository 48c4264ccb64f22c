import { isMainThreadCompaction } from '../parse/main-thread';
import { parseSession } from '../parse/parse-session';
import type { ByteSource } from '../parse/source';
import { computeReplay } from '../replay/compute-replay';
import { prepareReplay } from '../replay/prepare';
import { computeSubagentReplays } from '../replay/subagent-replays';
import type { ReplayResult } from '../replay/types';
import { getStrategy } from '../strategies/registry';
import { getDefaultStrategyId } from '../strategies/descriptors';
import { getSessionInfo } from '../strategies/types';

// Fidelity (issue 18 item 12): each transcript of a session replayed with the log's own strategy
// at the log's own knobs, its real compactions against the replay's (replay/compare.ts): the same
// call, within ±1 call, farther, missing; and the replay's compactions the log does not have.
// A session's subagent files are transcripts of their own (replay/subagent-replays.ts: their own
// context, the sub-agent rules). Totals per agent and per agent version.

/** How a replay at the log's knobs matches one transcript's real compactions. */
export interface FidelityRow {
  /** The session's main file (the group's key). */
  session: string;
  /** The transcript replayed: the session's main file or one of its subagent files. */
  file: string;
  role: 'main' | 'subagent';
  agent: string;
  format: string;
  /** The last agent version the transcript names ('' when it names none). */
  version: string;
  strategyId: string;
  apiCalls: number;
  peakContextTokens: number;
  /** Real automatic compactions and truncations (what the replay should reproduce). */
  real: number;
  /** Of those, reproduced at the same call; one call early or late; farther; not at all. */
  exact: number;
  within1: number;
  farther: number;
  missing: number;
  /** Real compactions done by hand (the replay adopts them; not expected). */
  manual: number;
  /** The replay's automatic compactions and truncations with no real one near. */
  extra: number;
  /**
   * Real compactions and truncations (automatic or manual) on a branch the replay does not follow
   * (a resume or a rewind from before them: replay/off-branch.ts): in no figure above, counted here
   * so none drops silently (c76ab3a5's line 209).
   */
  offBranch: number;
  /** Real automatic microcompactions (Claude Code's cleared tool results), and those reproduced at the same call or ±1. */
  micro: number;
  microExact: number;
  microWithin1: number;
  /**
   * The transcript's own API calls and compactions (and truncations) over every branch, a rewind's
   * abandoned one too: what its truth reader counts. The replay follows one branch path, so
   * `apiCalls` and `real` + `manual` can be fewer on a forked session.
   */
  loggedApiCalls: number;
  loggedCompactions: number;
}

/** Figures summed over rows. */
export type FidelityTotals = Pick<
  FidelityRow,
  | 'apiCalls'
  | 'real'
  | 'exact'
  | 'within1'
  | 'farther'
  | 'missing'
  | 'manual'
  | 'extra'
  | 'offBranch'
  | 'micro'
  | 'microExact'
  | 'microWithin1'
> & { agent: string; version?: string; sessions: number; transcripts: number };

/** The row of one replay: the comparison's outcomes by how far from their real compaction. */
function toRow(
  base: Pick<FidelityRow, 'session' | 'file' | 'role' | 'agent' | 'format' | 'version'>,
  result: ReplayResult,
  apiCalls: number,
  peakContextTokens: number,
  logged?: { apiCalls: number; compactions: number },
): FidelityRow {
  const row: FidelityRow = {
    ...base,
    strategyId: result.strategyId,
    apiCalls,
    peakContextTokens,
    loggedApiCalls: logged?.apiCalls ?? apiCalls,
    loggedCompactions: logged?.compactions ?? 0,
    real: 0,
    exact: 0,
    within1: 0,
    farther: 0,
    missing: 0,
    manual: 0,
    extra: result.comparison.extraEventIndices.length,
    offBranch: result.comparison.leftOut.filter((l) => l.kind === 'compact' || l.kind === 'truncate').length,
    micro: 0,
    microExact: 0,
    microWithin1: 0,
  };
  // Compactions and truncations, as compare.ts counts them; microcompactions apart.
  for (const o of result.comparison.outcomes) {
    if (o.kind === 'microcompact') {
      if (o.trigger !== 'auto') continue;
      row.micro++;
      if (o.delta === 0) row.microExact++;
      else if (o.delta !== undefined && Math.abs(o.delta) <= 1) row.microWithin1++;
      continue;
    }
    if (o.kind !== 'compact' && o.kind !== 'truncate') continue;
    if (o.status === 'manual') {
      row.manual++;
      continue;
    }
    row.real++;
    if (o.delta === undefined) row.missing++;
    else if (o.delta === 0) row.exact++;
    else if (Math.abs(o.delta) <= 1) row.within1++;
    else row.farther++;
  }
  if (!logged) row.loggedCompactions = row.real + row.manual;
  return row;
}

/**
 * The fidelity rows of one session: `sources[0]` its main file, the rest its other files (as
 * `parseSession` takes them). A transcript without API calls has no row.
 */
export async function computeSessionFidelity(
  sessionName: string,
  sources: readonly ByteSource[],
): Promise<FidelityRow[]> {
  const session = await parseSession([...sources]);
  const strategyId = getDefaultStrategyId(session.format, session.meta.agent);
  const strategy = getStrategy(strategyId);
  const rows: FidelityRow[] = [];
  // Subagents are counted under the session's version (their files name the same CLI).
  const version = session.meta.versions.at(-1) ?? '';
  const base = { session: sessionName, agent: session.meta.agent, format: session.format, version };
  if (session.apiCalls.length > 0) {
    const prepared = prepareReplay(session);
    const { knobs } = strategy.getSessionKnobs(getSessionInfo(prepared));
    const result = computeReplay(prepared, strategyId, knobs);
    const main = session.files.find((f) => f.role === 'main') ?? session.files[0];
    rows.push(
      toRow(
        {
          ...base,
          file: main?.name ?? sessionName,
          role: 'main',
        },
        result,
        prepared.calls.length,
        session.peakContextTokens,
        {
          apiCalls: session.apiCalls.length,
          compactions: session.compactions.filter(
            (c) => (c.kind === 'compact' || c.kind === 'truncate') && isMainThreadCompaction(session, c),
          ).length,
        },
      ),
    );
  }
  for (const sub of await computeSubagentReplays(session, sources, strategyId)) {
    rows.push(
      toRow(
        { ...base, file: sub.fileName, role: 'subagent', version },
        sub.result,
        sub.apiCalls,
        sub.peakRecordedTokens,
      ),
    );
  }
  return rows;
}

const SUMMED = [
  'apiCalls',
  'real',
  'exact',
  'within1',
  'farther',
  'missing',
  'manual',
  'extra',
  'offBranch',
  'micro',
  'microExact',
  'microWithin1',
] as const;

/** Version strings in numeric order ("2.1.101" after "2.1.92"; "0.117.0-alpha.10" before "0.117.0"). */
export function compareVersionStrings(a: string, b: string): number {
  const pa = a.split(/[.-]/);
  const pb = b.split(/[.-]/);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i];
    const y = pb[i];
    if (x === y) continue;
    // A release sorts after its pre-releases: the shorter one wins where the other goes on.
    if (x === undefined) return /^\d/.test(y ?? '') ? -1 : 1;
    if (y === undefined) return /^\d/.test(x) ? 1 : -1;
    const nx = Number(x);
    const ny = Number(y);
    if (Number.isInteger(nx) && Number.isInteger(ny)) return nx - ny;
    return x < y ? -1 : 1;
  }
  return 0;
}

/** Rows summed per agent in first-seen order (`byVersion`: per agent and version, versions in order). */
export function computeFidelityTotals(rows: readonly FidelityRow[], byVersion = false): FidelityTotals[] {
  const totals = new Map<string, FidelityTotals & { sessionNames: Set<string> }>();
  for (const r of rows) {
    const key = byVersion ? `${r.agent}\u0000${r.version}` : r.agent;
    let t = totals.get(key);
    if (!t) {
      t = {
        agent: r.agent,
        ...(byVersion ? { version: r.version } : {}),
        sessions: 0,
        transcripts: 0,
        apiCalls: 0,
        real: 0,
        exact: 0,
        within1: 0,
        farther: 0,
        missing: 0,
        manual: 0,
        extra: 0,
        offBranch: 0,
        micro: 0,
        microExact: 0,
        microWithin1: 0,
        sessionNames: new Set(),
      };
      totals.set(key, t);
    }
    t.sessionNames.add(r.session);
    t.transcripts++;
    for (const k of SUMMED) t[k] += r[k];
  }
  const out = [...totals.values()].map(({ sessionNames, ...t }) => ({ ...t, sessions: sessionNames.size }));
  if (!byVersion) return out;
  const agents = [...new Set(out.map((t) => t.agent))];
  return out.sort(
    (a, b) =>
      agents.indexOf(a.agent) - agents.indexOf(b.agent) ||
      compareVersionStrings(a.version ?? '', b.version ?? ''),
  );
}
