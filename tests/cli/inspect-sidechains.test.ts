import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORPUS, corpusOrSkip } from '../helpers/corpus';
import { runCli } from '../helpers/run-cli';

// A tester's report: `inspect`'s text on a Claude Code 1.0.98 session (d-kimuson/claude-code-viewer
// fe5e1c67) said "API calls 9" and "tool pairs: 167 matched" while 156 of those tool calls are in
// its inline sidechains (`isSidechain` records), whose 161 API calls the text never named (only
// --json's `sidechains` had them). The same held for a 2.x session's subagent files. The text now
// names the sidechains and their calls, says the API calls are the main thread's, and splits the
// tool pairs by thread; the split is held to a count of the raw records' tool_use ids, read here
// without the engine.

/** The distinct tool_use ids of a file's assistant records that `keep` selects. */
function toolUseIds(path: string, keep: (record: { isSidechain?: boolean }) => boolean): Set<string> {
  const ids = new Set<string>();
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (!line.includes('"tool_use"')) continue;
    const r = JSON.parse(line);
    if (r.type !== 'assistant' || !keep(r) || !Array.isArray(r.message?.content)) continue;
    for (const b of r.message.content) if (b?.type === 'tool_use') ids.add(b.id);
  }
  return ids;
}

interface Report {
  apiCalls: unknown[];
  sidechains: { apiCalls: number; role: string }[];
  toolPairs: { matched: number };
}

async function inspect(files: string[]): Promise<{ text: string; json: Report }> {
  const text = await runCli(['inspect', ...files]);
  expect(text.code).toBe(0);
  const json = await runCli(['inspect', '--json', ...files]);
  return { text: text.text, json: JSON.parse(json.text) };
}

describe.skipIf(!corpusOrSkip('inspect on real sessions with sidechains'))(
  'inspect: sidechains in the text',
  () => {
    it('names a 1.0.x log’s inline sidechains and splits its tool pairs (fe5e1c67)', async () => {
      const file = join(
        CORPUS,
        'd-kimuson__claude-code-viewer',
        'mock-global-claude-dir__projects__sample-project__fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl',
      );
      const { text, json } = await inspect([file]);
      const inSidechains = toolUseIds(file, (r) => r.isSidechain === true).size;
      const inMain = toolUseIds(file, (r) => r.isSidechain !== true).size;
      expect([inMain, inSidechains]).toEqual([11, 156]);
      expect(json.apiCalls).toHaveLength(9);
      expect(json.sidechains).toHaveLength(5);
      const sideCalls = json.sidechains.reduce((n, s) => n + s.apiCalls, 0);
      expect(sideCalls).toBe(161);
      expect(text).toContain('API calls 9 in the main thread');
      expect(text).toContain(`sidechains: 5 inline in the main file; ${sideCalls} API calls`);
      expect(text).toContain(
        `tool pairs: 167 matched (${inMain} main thread, ${inSidechains} in sidechains)`,
      );
    });

    it('names a 2.x session’s subagent logs and splits its tool pairs (bdevz 588184d4)', async () => {
      const dir = join(CORPUS, 'bdevz__og-system');
      const files = readdirSync(dir)
        .filter((f) => f.includes('588184d4-177e-44ac-8c58-42a78448aa99') && f.endsWith('.jsonl'))
        .map((f) => join(dir, f));
      const main = files.filter((f) => !f.includes('__subagents__'));
      expect(main).toHaveLength(1);
      const { text, json } = await inspect(files);
      const mainIds = toolUseIds(main[0]!, () => true);
      const subagentIds = new Set(
        files.filter((f) => f !== main[0]).flatMap((f) => [...toolUseIds(f, () => true)]),
      );
      expect([mainIds.size, subagentIds.size]).toEqual([153, 193]);
      const subagents = json.sidechains.filter((s) => s.role === 'subagent');
      expect(subagents).toHaveLength(files.length - 1);
      const sideCalls = json.sidechains.reduce((n, s) => n + s.apiCalls, 0);
      expect(text).toContain(`API calls ${json.apiCalls.length} in the main thread`);
      expect(text).toContain(`sidechains: ${subagents.length} subagent logs; ${sideCalls} API calls`);
      expect(text).toContain(
        `tool pairs: ${json.toolPairs.matched} matched (${mainIds.size} main thread, ${subagentIds.size} in sidechains)`,
      );
    });

    it('keeps the text of a session without sidechains as it was (a subagent log opened alone)', async () => {
      const dir = join(CORPUS, 'bdevz__og-system');
      const sub = readdirSync(dir).find((f) => f.includes('588184d4') && f.endsWith('agent-a6b7094.jsonl'))!;
      const { text, json } = await inspect([join(dir, sub)]);
      expect(json.sidechains).toEqual([]);
      expect(text).toContain(`API calls ${json.apiCalls.length} · `);
      expect(text).not.toContain('sidechains');
      expect(text).toMatch(/tool pairs: \d+ matched, 0 without result, 0 results without call/);
    });
  },
);
