import { at } from '../../src/engine/assert';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createNodeFileSource } from '../../src/cli/node-source';
import { computeInspectReport } from '../../src/engine/inspect/report';
import { parseSession } from '../../src/engine/parse/parse-session';
import type { Session } from '../../src/engine/types';
import { type CorpusSessionGroup, corpusOrSkip, corpusSessionGroups } from '../helpers/corpus';

// A session folder dropped whole: the main transcript with its subagent logs and their
// `.meta.json` files (the corpus flattens `<session>/subagents/agent-*` to
// `<session>__subagents__agent-*`), and folders whose main transcript is absent.

const present = corpusOrSkip('session-group corpus tests');
const folders = corpusSessionGroups;

const isLog = (path: string) => path.endsWith('.jsonl');
const isCompactionCall = (path: string) => /agent-acompact-[^/]*\.jsonl$/.test(path);

function records(path: string): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    try {
      out.push(JSON.parse(line));
    } catch {}
  }
  return out;
}

/**
 * What the folder holds, computed without the engine: (micro)compaction boundaries by distinct uuid
 * (outside compaction-call logs), and the records of later files whose uuid an earlier file
 * (main first) already holds.
 */
function expectedOf(logs: string[]): { compactions: number; copies: number } {
  const seen = new Set<string>();
  const boundaries = new Set<string>();
  let copies = 0;
  for (const path of logs) {
    const mine = new Set<string>();
    for (const r of records(path)) {
      const uuid = typeof r.uuid === 'string' ? r.uuid : undefined;
      if (uuid !== undefined && seen.has(uuid) && !mine.has(uuid)) {
        copies++;
        continue;
      }
      if (uuid !== undefined) mine.add(uuid);
      const isBoundary = r.subtype === 'compact_boundary' || r.subtype === 'microcompact_boundary';
      if (isBoundary && !isCompactionCall(path) && uuid) boundaries.add(uuid);
    }
    for (const u of mine) seen.add(u);
  }
  return { compactions: boundaries.size, copies };
}

function metaOf(path: string): { agentType?: string } {
  return JSON.parse(readFileSync(path, 'utf8'));
}

const nonEmptyLines = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim()).length;

/** agentIds named by Task/Agent results in the main file, read from the raw lines. */
function spawnedAgentIds(path: string): Set<string> {
  const ids = new Set<string>();
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (!line.includes('"agentId"')) continue;
    try {
      const r = JSON.parse(line);
      if (r.type === 'user' && typeof r.toolUseResult?.agentId === 'string') ids.add(r.toolUseResult.agentId);
    } catch {}
  }
  return ids;
}

let linked = 0;

describe.skipIf(!present)('corpus: session folders opened whole', () => {
  const everything = folders();
  const all = everything.filter((f): f is Required<CorpusSessionGroup> => f.main !== undefined);
  const headless = everything.filter((f) => f.main === undefined);
  it('has sessions with subagents to test', () => expect(all.length).toBeGreaterThanOrEqual(3));
  it('has .meta.json files and a side-question log among them', () => {
    const files = everything.flatMap((f) => f.subagents);
    expect(files.filter((p) => p.endsWith('.meta.json')).length).toBeGreaterThan(10);
    expect(files.some((p) => p.includes('agent-aside_question-'))).toBe(true);
  });
  afterAll(() => {
    // The linking check below must not pass vacuously.
    expect(linked).toBeGreaterThan(5);
  });

  it.each(headless.map((f) => [basename(at(f.subagents, 0)), f] as const))(
    'without its main file: %s',
    async (_name, { subagents }) => {
      const session = await parseSession(subagents.map((p) => createNodeFileSource(p)));
      const expected = expectedOf(subagents.filter(isLog));
      const report = computeInspectReport(session);
      expect(report.foldedCopies).toBe(expected.copies);
      expect(session.compactions.length).toBe(expected.compactions);
      // A sub-agent's log read as the main thread says so.
      expect(report.subagentTranscript).toBeDefined();
      checkMetaFiles(session, subagents);
    },
  );

  it.each(all.map((g) => [basename(g.main), g] as const))('%s', async (_name, { main, subagents }) => {
    const alone = await parseSession([createNodeFileSource(main)]);
    // Dropped in any order: subagents first, main last.
    const together = await parseSession([...subagents, main].map((p) => createNodeFileSource(p)));
    const mainIndex = subagents.length;
    const logs = [main, ...subagents.filter(isLog)];
    const expected = expectedOf(logs);
    const report = computeInspectReport(together);

    expect(at(together.files, mainIndex).role).toBe('main');
    expect(report.foldedCopies).toBe(expected.copies);
    expect(together.entries.length).toBe(logs.reduce((n, p) => n + nonEmptyLines(p), 0) - expected.copies);
    // Each compaction once: the main thread's and the subagents' own, no copy counted again.
    expect(together.compactions.length).toBe(expected.compactions);
    checkMetaFiles(together, subagents);
    // The main thread's context is the main file's alone: subagent calls are not mixed in.
    expect(together.apiCalls.map((c) => c.contextTokens)).toEqual(alone.apiCalls.map((c) => c.contextTokens));
    // Compaction calls' logs copy earlier boundaries; they must not count as compactions.
    const mainCompactions = together.compactions.filter((c) => c.fileIndex === mainIndex);
    expect(mainCompactions.length).toBe(alone.compactions.length);
    for (const c of together.compactions)
      expect(at(together.files, c.fileIndex).role).not.toBe('compaction-call');

    const spawned = spawnedAgentIds(main);
    for (const sidechain of together.sidechains) {
      const role = at(together.files, sidechain.fileIndex).role;
      if (role === 'subagent' && sidechain.agentId && spawned.has(sidechain.agentId)) {
        expect(sidechain.spawnedBy, `agent ${sidechain.agentId}`).toBeDefined();
        expect(together.toolUseEntry.has(sidechain.spawnedBy!)).toBe(true);
        linked++;
      }
    }
  });
});

function checkMetaFiles(session: Session, paths: string[]): void {
  expect(session.issues.filter((i) => i.code === 'not-a-transcript')).toEqual([]);
  for (const path of paths.filter((p) => p.endsWith('.meta.json'))) {
    const index = paths.indexOf(path);
    expect(at(session.files, index).role).toBe('subagent-meta');
    const log = session.files.find((f) => f.name === path.replace(/\.meta\.json$/, '.jsonl'));
    if (log) expect(log.agentType, basename(path)).toBe(metaOf(path).agentType);
  }
}
