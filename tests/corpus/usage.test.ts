import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPathSources } from '../../src/cli/session-files';
import { findSessions } from '../../src/cli/stats/find-sessions';
import { computeStatsRow } from '../../src/cli/stats/stats-row';
import { computeCostUsd } from '../../src/engine/cost/prices';
import { scanSession } from '../../src/engine/library/scan-session';
import { groupUsage, type UsageBy, type UsageGroup, type UsageSession } from '../../src/engine/stats/usage';
import { packUsage, unpackUsage } from '../../src/engine/stats/usage-pack';
import { corpusOrSkip, restoreCorpusTree } from '../helpers/corpus';

// Usage by day and by project over the restored corpus (other people's real Claude Code and Codex
// folders, in their original layout), as the library scans it, against a plain count of the raw
// records: every assistant line with a `message.usage`, one call per message id within a session's
// files (streamed lines of one response: input once, the largest output), its date the record's
// own `timestamp` in the zone, its project the record's `cwd`, priced call by call.

const present = corpusOrSkip('usage by day and project corpus test');
const python = spawnSync('python3', ['--version']).status === 0;
if (present && !python)
  console.warn('usage corpus test skipped: python3 (for stats.py --restore-tree) is absent');

interface PlainCall {
  model: string;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  cacheWrite1h: number;
  timestampMs?: number;
  cwd: string;
}

/** A session's calls, read line by line with JSON.parse and nothing of the engine. */
function plainCalls(paths: readonly string[]): PlainCall[] {
  const calls = new Map<string, PlainCall>();
  let sessionCwd = '';
  for (const path of paths) {
    for (const line of readFileSync(path, 'utf8').split('\n')) {
      let r: Record<string, unknown>;
      try {
        r = JSON.parse(line);
      } catch {
        continue;
      }
      if (typeof r !== 'object' || r === null) continue;
      if (!sessionCwd && typeof r.cwd === 'string') sessionCwd = r.cwd;
      const m = r.message as Record<string, unknown> | undefined;
      if (r.type !== 'assistant' || typeof m !== 'object' || m === null) continue;
      const u = m.usage as Record<string, number> | undefined;
      if (!u || m.model === '<synthetic>') continue;
      const key = String(m.id ?? r.requestId ?? r.uuid);
      const known = calls.get(key);
      if (known) {
        known.output = Math.max(known.output, u.output_tokens ?? 0);
        continue;
      }
      const cc = u.cache_creation as unknown as Record<string, number> | undefined;
      const ms = typeof r.timestamp === 'string' ? Date.parse(r.timestamp) : Number.NaN;
      calls.set(key, {
        model: String(m.model ?? ''),
        input: u.input_tokens ?? 0,
        output: u.output_tokens ?? 0,
        cacheRead: u.cache_read_input_tokens ?? 0,
        cacheWrite: u.cache_creation_input_tokens ?? 0,
        cacheWrite1h: cc?.ephemeral_1h_input_tokens ?? 0,
        timestampMs: Number.isNaN(ms) ? undefined : ms,
        cwd: sessionCwd,
      });
    }
  }
  return [...calls.values()];
}

interface PlainGroup {
  calls: number;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  costUsd: number;
  sessions: Set<string>;
}

function plainGroups(
  sessions: readonly { key: string; calls: PlainCall[] }[],
  by: UsageBy,
  timeZone: string,
): Map<string, PlainGroup> {
  const date = new Intl.DateTimeFormat('sv-SE', { timeZone, dateStyle: 'short' });
  const out = new Map<string, PlainGroup>();
  for (const s of sessions) {
    for (const c of s.calls) {
      const key =
        by === 'project' ? c.cwd : c.timestampMs === undefined ? '' : date.format(new Date(c.timestampMs));
      let g = out.get(key);
      if (!g) {
        g = { calls: 0, input: 0, output: 0, cacheRead: 0, cacheWrite: 0, costUsd: 0, sessions: new Set() };
        out.set(key, g);
      }
      g.calls++;
      g.input += c.input;
      g.output += c.output;
      g.cacheRead += c.cacheRead;
      g.cacheWrite += c.cacheWrite;
      g.costUsd +=
        computeCostUsd(c.model, {
          inputTokens: c.input,
          outputTokens: c.output,
          cacheReadInputTokens: c.cacheRead,
          cacheCreationInputTokens: c.cacheWrite,
          cacheCreation1hInputTokens: c.cacheWrite1h,
        }) ?? 0;
      g.sessions.add(s.key);
    }
  }
  return out;
}

const figures = (g: UsageGroup | PlainGroup) => ({
  calls: g.calls,
  input: g.input,
  output: g.output,
  cacheRead: g.cacheRead,
  cacheWrite: g.cacheWrite,
  sessions: g.sessions instanceof Set ? g.sessions.size : g.sessions,
});

let tree = '';
const scanned: UsageSession[] = [];
const plain: { key: string; calls: PlainCall[]; paths: string[] }[] = [];

describe.skipIf(!present || !python)('corpus: usage by day and by project, against the raw records', () => {
  beforeAll(async () => {
    tree = restoreCorpusTree('usage');
    for (const group of await findSessions([tree])) {
      const row = await scanSession(await openPathSources(group.paths));
      // The plain count reads Claude Code's JSONL; the sessions of other formats are in the
      // grouping but not in this comparison.
      if (row.agent !== 'Claude Code' || !group.paths.every((p) => p.endsWith('.jsonl'))) continue;
      if (group.paths.some((p) => p.endsWith('audit.jsonl'))) continue;
      scanned.push({ key: group.file, cwd: row.cwd ?? '', buckets: row.usage });
      plain.push({ key: group.file, calls: plainCalls(group.paths), paths: group.paths });
    }
  }, 120_000);
  afterAll(() => {
    if (tree) rmSync(tree, { recursive: true, force: true });
  });

  it.each([
    ['day', 'UTC'],
    ['day', 'America/Los_Angeles'],
    // +05:45: a zone a quarter hour off the hour (the buckets' span).
    ['day', 'Asia/Kathmandu'],
    ['project', 'UTC'],
  ] as const)('by %s in %s: every group as the plain count has it', (by, timeZone) => {
    expect(scanned.length).toBeGreaterThan(10);
    const groups = groupUsage(scanned, by, timeZone);
    const expected = plainGroups(plain, by, timeZone);
    expect(new Set(groups.map((g) => g.key))).toEqual(new Set(expected.keys()));
    for (const g of groups) {
      const want = expected.get(g.key)!;
      expect(figures(g), `${by} ${g.key}`).toEqual(figures(want));
      // Summed in another order: equal to a millionth of a dollar.
      expect(g.costUsd, `${by} ${g.key}: cost`).toBeCloseTo(want.costUsd, 6);
    }
    const calls = groups.reduce((s, g) => s + g.calls, 0);
    expect(calls).toBe(plain.reduce((s, p) => s + p.calls.length, 0));
    expect(calls).toBeGreaterThan(1000);
    if (by === 'day') {
      // Sessions across midnight count on each of their days.
      expect(groups.reduce((s, g) => s + g.sessions, 0)).toBeGreaterThan(scanned.length);
      console.log(
        `${timeZone}: ${groups.length} days, ${calls} calls, $${groups.reduce((s, g) => s + g.costUsd, 0).toFixed(2)}`,
      );
    }
  });

  it('days oldest first, projects most expensive first; an unknown zone is named', () => {
    const days = groupUsage(scanned, 'day', 'UTC').map((g) => g.key);
    expect(days).toEqual([...days].sort());
    const costs = groupUsage(scanned, 'project', 'UTC').map((g) => g.costUsd);
    expect(costs).toEqual([...costs].sort((a, b) => b - a));
    expect(() => groupUsage(scanned, 'day', 'Mars/Base')).toThrow(/unknown time zone "Mars\/Base"/);
  });

  it('the packed form the page sends the worker gives back every bucket', () => {
    expect(unpackUsage(structuredClone(packUsage(scanned)))).toEqual(scanned);
  });

  it('a session’s cost in the list is the sum of its days', () => {
    for (const s of scanned) {
      const byDay = groupUsage([s], 'day', 'UTC');
      const plainSession = plainGroups([plain.find((p) => p.key === s.key)!], 'project', 'UTC');
      const total = [...plainSession.values()].reduce((t, g) => t + g.costUsd, 0);
      expect(byDay.reduce((t, g) => t + g.costUsd, 0)).toBeCloseTo(total, 9);
    }
  });

  // `stats` priced a session's subagent usage summed, at the main model: a real session whose
  // subagents ran on claude-haiku-4-5 cost $30.21 in its row and $26.55 in `stats --by`.
  it('a stats row: its cost and tokens are every call once at its own model, its counts the main thread', async () => {
    let withSubagents = 0;
    for (const p of plain) {
      const row = await computeStatsRow(p.key, await openPathSources(p.paths));
      const [want] = plainGroups([p], 'project', 'UTC').values();
      if (!want) {
        expect(row.costUsd, p.key).toBeUndefined();
        continue;
      }
      expect(
        {
          calls: Number(row.apiCalls) + Number(row.subagentApiCalls),
          input: row.inputTokens,
          output: row.outputTokens,
          cacheRead: row.cacheReadInputTokens,
          cacheWrite: row.cacheCreationInputTokens,
        },
        p.key,
      ).toEqual({
        calls: want.calls,
        input: want.input,
        output: want.output,
        cacheRead: want.cacheRead,
        cacheWrite: want.cacheWrite,
      });
      expect(Number(row.costUsd), p.key).toBeCloseTo(want.costUsd, 5);
      // The compactions of the main file's own records (every branch), not its subagents'.
      const main = readFileSync(p.paths[0]!, 'utf8');
      const boundaries = main.split('\n').filter((l) => /"subtype":\s*"compact_boundary"/.test(l)).length;
      expect(row.compactions, p.key).toBe(boundaries);
      // Transcripts only: a subagent's `.meta.json` is not a file of its own.
      const transcripts = p.paths.filter((f) => f.endsWith('.jsonl')).length;
      expect(row.subagentFiles, p.key).toBe(transcripts - 1);
      if (transcripts > 1) withSubagents++;
    }
    expect(withSubagents).toBeGreaterThan(3);
  }, 120_000);
});
