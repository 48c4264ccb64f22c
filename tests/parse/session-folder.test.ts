import { at } from '../../src/engine/assert';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { computeInspectReport } from '../../src/engine/inspect/report';
import { parseSession } from '../../src/engine/parse/parse-session';
import { createMemorySource } from '../../src/engine/parse/source';
import { isPartialOutput } from '../../src/engine/parse/compaction-cost';
import { getCompactionDetail } from '../../src/engine/query/compaction-detail';
import { getDisplayOrder } from '../../src/engine/query/display-order';
import { buildFolderFixtures, FOLDER_FILES } from '../fixtures/make-folder-fixtures';

// A whole Claude Code session folder (tests/fixtures/folder, written by make-folder-fixtures.ts):
// side-question and compaction-call logs that copy the main thread, two subagents labelled and
// linked only by their .meta.json files, and two compaction-call logs of different shapes.

const DIR = resolve(__dirname, '../fixtures/folder');
const fixtures = buildFolderFixtures();
const ALL = Object.values(FOLDER_FILES);

type Raw = Record<string, unknown>;
const records = (name: string): Raw[] =>
  fixtures[name]!.split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Raw);

const open = (names: readonly string[]) =>
  parseSession(names.map((n) => createMemorySource(n, readFileSync(join(DIR, n), 'utf8'))));

describe('tests/fixtures/folder', () => {
  it('equals a fresh build (regenerate with tests/fixtures/make-folder-fixtures.ts)', () => {
    expect(Object.keys(fixtures).sort()).toEqual([...ALL].sort());
    for (const [name, text] of Object.entries(fixtures))
      expect(readFileSync(join(DIR, name), 'utf8') === text, name).toBe(true);
  });

  it('has the shapes it claims: copies share uuids with the main file, boundaries included', () => {
    const mainUuids = new Set(records(FOLDER_FILES.main).map((r) => r.uuid));
    const copied = (name: string) => records(name).filter((r) => mainUuids.has(r.uuid));
    expect(copied(FOLDER_FILES.aside).filter((r) => r.subtype === 'compact_boundary')).toHaveLength(2);
    expect(copied(FOLDER_FILES.compactCopy).filter((r) => r.subtype === 'compact_boundary')).toHaveLength(1);
    expect(copied(FOLDER_FILES.compactRetry)).toHaveLength(0);
  });
});

describe('a session folder opened whole', () => {
  // Dropped in a scrambled order: subagents and meta files before the main file.
  const names = [...ALL].reverse();

  it('counts each compaction once and folds the copies, saying how many', async () => {
    const alone = await open([FOLDER_FILES.main]);
    const session = await open(names);
    const report = computeInspectReport(session);
    const mainRecords = records(FOLDER_FILES.main);
    const boundaries = mainRecords.filter((r) => r.subtype === 'compact_boundary').length;
    expect(boundaries).toBe(2);
    expect(session.compactions).toHaveLength(boundaries);
    expect(session.compactions.every((c) => c.trigger === 'manual')).toBe(true);
    expect(session.apiCalls.map((c) => c.contextTokens)).toEqual(alone.apiCalls.map((c) => c.contextTokens));
    expect(session.userTurns).toBe(alone.userTurns);

    // Independently: every record of a non-main file whose uuid the main file holds is a copy.
    const mainUuids = new Set(mainRecords.map((r) => r.uuid));
    const copies = [FOLDER_FILES.aside, FOLDER_FILES.compactCopy].map(
      (n) => records(n).filter((r) => mainUuids.has(r.uuid)).length,
    );
    expect(copies.every((n) => n > 10)).toBe(true);
    expect(report.foldedCopies).toBe(at(copies, 0) + at(copies, 1));
    const totalLines = ALL.filter((n) => n.endsWith('.jsonl')).reduce((sum, n) => sum + records(n).length, 0);
    expect(session.entries).toHaveLength(totalLines - report.foldedCopies);
    const aside = session.sidechains.find((s) => at(session.files, s.fileIndex).name === FOLDER_FILES.aside)!;
    expect(aside.entryIndices).toHaveLength(2); // the question and its answer, nothing copied
    expect(aside.apiCalls).toBe(1);
    expect(session.issues).toEqual([]);
  });

  it('reads the .meta.json files: labels and links each subagent, never "not a transcript"', async () => {
    const session = await open(names);
    const metaFiles = session.files.filter((f) => f.name.endsWith('.meta.json'));
    expect(metaFiles.map((f) => f.role)).toEqual(['subagent-meta', 'subagent-meta']);
    expect(session.issues.filter((i) => i.code === 'not-a-transcript')).toEqual([]);
    const byName = (n: string) => session.sidechains.find((s) => at(session.files, s.fileIndex).name === n)!;
    // No Task result names an agentId: the links come from the meta files (toolUseId, description).
    expect(JSON.stringify(records(FOLDER_FILES.main))).not.toContain('"agentId"');
    expect(byName(FOLDER_FILES.explore).spawnedBy).toBe('toolu_01FolderExplore00000001');
    expect(byName(FOLDER_FILES.helper).spawnedBy).toBe('toolu_01FolderHelper00000001');
    const report = computeInspectReport(session);
    expect(
      report.sidechains.filter((s) => s.role === 'subagent').map((s) => [s.agentType, s.description]),
    ).toEqual([
      ['general-purpose', 'Draft a regression test'],
      ['Explore', 'Find the lexer tests'],
    ]);
    for (const i of byName(FOLDER_FILES.explore).entryIndices)
      expect(at(session.entries, i).spawnedBy).toBe('toolu_01FolderExplore00000001');
  });

  it("costs a compaction at its summary call's usage, lists the calls, marks a partial output", async () => {
    const session = await open(names);
    const [first, second] = computeInspectReport(session).compactions;
    // The retry log: two calls; the cost is the second (the summary), not their sum.
    expect(first!.compactionCall!.calls).toHaveLength(2);
    expect(first!.compactionCall!.calls.map((c) => c.summary)).toEqual([false, true]);
    expect(first!.compactionCall!.usage).toEqual(first!.compactionCall!.calls[1]!.usage);
    expect(first!.compactionCall!.usage.outputTokens).toBe(790);
    expect(first!.compactionCall!.partial).toBe(false);
    const sum = session.sidechains.find(
      (s) => s.fileIndex === at(session.compactions, 0).callFileIndex,
    )!.usage;
    expect(sum.cacheReadInputTokens).toBe(2 * first!.compactionCall!.usage.cacheReadInputTokens);

    // The 2.1.72 log: copies folded, one summary call of 42,859 in whose 2 output tokens are partial.
    const call = second!.compactionCall!;
    expect(call.file).toBe(FOLDER_FILES.compactCopy);
    expect(call.calls).toHaveLength(1);
    const u = call.usage;
    expect(u.inputTokens + u.cacheCreationInputTokens + u.cacheReadInputTokens).toBe(42_859);
    expect(u.outputTokens).toBe(2);
    expect(call.partial).toBe(true);
    expect(at(call.calls, 0).outputChars).toBe(18_000);
    // The card reads the same calls.
    expect(getCompactionDetail(session, 1).compaction.callCost?.calls).toHaveLength(1);
  });

  it('without the main file, the copies stay calls of the log and the summary call is still picked', async () => {
    const session = await open([FOLDER_FILES.compactCopy]);
    // Opened alone, the log is read as a main thread; its own conversation copies are its calls.
    expect(at(session.files, 0).openedAlone).toBe(true);
    expect(session.apiCalls.length).toBeGreaterThan(5);
    const report = computeInspectReport(session);
    expect(report.subagentTranscript).toEqual({ agentId: 'acompact-9f8e7d6c5b4a3f2e' });
    expect(report.foldedCopies).toBe(0);
  });
});

describe('a compaction-call log with copies under other uuids', () => {
  it('picks the summary call, not the largest or the sum', async () => {
    const copy = records(FOLDER_FILES.compactCopy).map((r) => ({ ...r, uuid: `copy-${String(r.uuid)}` }));
    const text = `${copy.map((r) => JSON.stringify(r)).join('\n')}\n`;
    const session = await parseSession([
      createMemorySource(FOLDER_FILES.main, fixtures[FOLDER_FILES.main]!),
      createMemorySource(FOLDER_FILES.compactCopy, text),
    ]);
    const cost = at(session.compactions, 1).callCost!;
    expect(cost.calls.length).toBeGreaterThan(5);
    expect(cost.summaryCall).toBe(cost.calls.length - 1);
    expect(at(session.compactions, 1).callUsage!.cacheReadInputTokens).toBe(42_256);
    expect(at(session.compactions, 0).callFileIndex).toBeUndefined();
  });
});

describe('isPartialOutput', () => {
  it('marks outputs far below chars/4 and leaves short or plausible ones', () => {
    expect(isPartialOutput(2, 18_000)).toBe(true);
    expect(isPartialOutput(449, 18_000)).toBe(true);
    expect(isPartialOutput(450, 18_000)).toBe(false);
    expect(isPartialOutput(4_500, 18_000)).toBe(false);
    expect(isPartialOutput(1, 300)).toBe(false);
  });
});

describe('a .meta.json that is not one', () => {
  it('is a warning on that file, not a transcript error', async () => {
    const session = await parseSession([
      createMemorySource(FOLDER_FILES.main, fixtures[FOLDER_FILES.main]!),
      createMemorySource(FOLDER_FILES.exploreMeta, '{"agentType": '),
    ]);
    expect(at(session.files, 1).role).toBe('subagent-meta');
    expect(session.issues.map((i) => [i.fileIndex, i.code, i.severity])).toEqual([
      [1, 'wrong-shape', 'warning'],
    ]);
  });
});

describe('the folder’s transcript order', () => {
  it('shows a compaction call’s and a side question’s own rows where they ran, not after the last row', async () => {
    const session = await open(ALL);
    const { order, depthByEntry } = getDisplayOrder(session);
    const rowOf = new Map<number, number>();
    order.forEach((entryIndex, row) => {
      rowOf.set(entryIndex, row);
    });
    const mainRows = [...order].filter((i) => session.files[session.entries[i]!.fileIndex]!.role === 'main');
    const lastMainRow = rowOf.get(mainRows.at(-1)!)!;
    for (const role of ['compaction-call', 'side-question'] as const) {
      const own = session.entries
        .map((e, i) => ({ e, i }))
        .filter(({ e }) => session.files[e.fileIndex]!.role === role);
      expect(own.length, role).toBeGreaterThan(0);
      for (const { e, i } of own) {
        // Nested, after the last main row before it in time and before the first one after it
        // (they were all appended after the session's last row).
        expect(depthByEntry[i]).toBeGreaterThan(0);
        const t = e.timestampMs ?? 0;
        const before = mainRows.filter((m) => (session.entries[m]!.timestampMs ?? 0) <= t);
        const after = mainRows.filter((m) => (session.entries[m]!.timestampMs ?? 0) > t);
        if (before.length > 0)
          expect(rowOf.get(i)!, `${role} entry ${i}`).toBeGreaterThan(rowOf.get(before.at(-1)!)!);
        if (after.length > 0) expect(rowOf.get(i)!, `${role} entry ${i}`).toBeLessThan(rowOf.get(after[0]!)!);
      }
      // The compaction calls ran mid-session: their rows are no longer after the last one.
      if (role === 'compaction-call') expect(own.some(({ i }) => rowOf.get(i)! < lastMainRow)).toBe(true);
    }
    // The first compaction's call ran before its boundary: its rows come right before it.
    const first = session.compactions.find((c) => c.callFileIndex !== undefined && c.kind === 'compact')!;
    const callRows = session.entries
      .map((e, i) => ({ e, i }))
      .filter(({ e }) => e.fileIndex === first.callFileIndex)
      .map(({ i }) => rowOf.get(i)!);
    expect(Math.max(...callRows)).toBeLessThan(rowOf.get(first.entryIndex)!);
  });
});
