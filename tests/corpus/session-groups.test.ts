import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createNodeFileSource } from '../../src/cli/node-source';
import { parseSession } from '../../src/engine/parse/parse-session';

// A main transcript dropped together with its subagent files (the corpus flattens
// `<session>/subagents/agent-*.jsonl` to `<session>__subagents__agent-*.jsonl`).

const CORPUS = resolve(__dirname, '../../../shared/corpus');
const present = existsSync(CORPUS);
if (!present)
  console.warn(`session-group corpus tests skipped: ${CORPUS} is absent (a fresh clone without ../shared)`);

function groups(): { main: string; subagents: string[] }[] {
  if (!present) return [];
  const out: { main: string; subagents: string[] }[] = [];
  for (const dir of readdirSync(CORPUS)) {
    const path = join(CORPUS, dir);
    if (!statSync(path).isDirectory()) continue;
    const names = readdirSync(path);
    for (const name of names) {
      if (!name.endsWith('.jsonl') || name.includes('__subagents__')) continue;
      const stem = name.slice(0, -'.jsonl'.length);
      const subagents = names
        .filter((n) => n.startsWith(`${stem}__subagents__agent-`) && n.endsWith('.jsonl'))
        .map((n) => join(path, n));
      if (subagents.length) out.push({ main: join(path, name), subagents });
    }
  }
  return out;
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

describe.skipIf(!present)('corpus: sessions opened with their subagent files', () => {
  const all = groups();
  it('has sessions with subagents to test', () => expect(all.length).toBeGreaterThanOrEqual(3));
  afterAll(() => {
    // The linking check below must not pass vacuously.
    expect(linked).toBeGreaterThan(5);
  });

  it.each(all.map((g) => [basename(g.main), g] as const))('%s', async (_name, { main, subagents }) => {
    const alone = await parseSession([createNodeFileSource(main)]);
    // Dropped in any order: subagents first, main last.
    const together = await parseSession([...subagents, main].map((p) => createNodeFileSource(p)));
    const mainIndex = subagents.length;

    expect(together.files[mainIndex].role).toBe('main');
    expect(together.entries.length).toBe([main, ...subagents].reduce((n, p) => n + nonEmptyLines(p), 0));
    // The main thread's context is the main file's alone: subagent calls are not mixed in.
    expect(together.apiCalls.map((c) => c.contextTokens)).toEqual(alone.apiCalls.map((c) => c.contextTokens));
    // Compaction calls' logs copy earlier boundaries; they must not count as compactions.
    const mainCompactions = together.compactions.filter((c) => c.fileIndex === mainIndex);
    expect(mainCompactions.length).toBe(alone.compactions.length);
    for (const c of together.compactions)
      expect(together.files[c.fileIndex].role).not.toBe('compaction-call');

    const spawned = spawnedAgentIds(main);
    for (const sidechain of together.sidechains) {
      const role = together.files[sidechain.fileIndex].role;
      if (role === 'subagent' && sidechain.agentId && spawned.has(sidechain.agentId)) {
        expect(sidechain.spawnedBy, `agent ${sidechain.agentId}`).toBeDefined();
        expect(together.toolUseEntry.has(sidechain.spawnedBy!)).toBe(true);
        linked++;
      }
    }
  });
});
