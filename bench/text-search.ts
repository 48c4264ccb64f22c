// The library's search across sessions (engine/query/text-search.ts, `compactlab search`): CPU
// time and peak memory over 1×, 2× and 4× a folder of generated real-shaped Claude Code sessions,
// for a rare word and a common one. The search streams each file line by line, so its time should
// grow with the bytes and its memory should not.
//   node bin/run-ts.mjs bench/text-search.ts [sizeMB of the 1× folder, default 64]
// Goal (issue 24 item 9): CPU time per MB at 4× at most 1.25× that at 1× (after a warm-up pass);
// RSS flat (the files are never held).

import { cpuUsage, memoryUsage } from 'node:process';
import { createNodeFileSource } from '../src/cli/node-source';
import { searchSessionText } from '../src/engine/query/text-search';
import { GENERATOR_VERSION, generateSession } from '../sample/generate-session';
import { mkdirSync, existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const baseMb = Number(process.argv[2] ?? 64);
const dir = join(root, '.bench', `text-search-v${GENERATOR_VERSION}`);

/** Session files of the folder, written once: distinct generated sessions until `mb` is reached. */
function ensureFiles(mb: number): { path: string; bytes: number }[] {
  mkdirSync(dir, { recursive: true });
  const out: { path: string; bytes: number }[] = [];
  let total = 0;
  for (let i = 0; total < mb * 1024 * 1024; i++) {
    const path = join(dir, `s${i}.jsonl`);
    if (!existsSync(path)) {
      const s = generateSession({ seed: 900 + i, apiCalls: 400, features: { specials: true } });
      writeFileSync(path, s.files[0]!.text);
    }
    const bytes = createNodeFileSource(path).sizeBytes;
    out.push({ path, bytes });
    total += bytes;
  }
  return out;
}

async function measure(files: { path: string }[], query: string) {
  const before = cpuUsage();
  let matches = 0;
  for (const f of files) matches += (await searchSessionText([createNodeFileSource(f.path)], query)).matches;
  const used = cpuUsage(before);
  return { cpuMs: (used.user + used.system) / 1000, matches };
}

const all = ensureFiles(4 * baseMb);
const mbOf = (files: { bytes: number }[]) => files.reduce((s, f) => s + f.bytes, 0) / 1024 / 1024;
// One pass first, so the 1× figure is not the JIT's warm-up.
await measure(all.slice(0, 4), 'the');
// A non-ASCII word too: its line test also looks for the \uXXXX escapes a writer may use (text-search.ts).
for (const query of ['zzqx-nowhere', 'the', 'café']) {
  const rows: string[] = [];
  let perMb1 = 0;
  for (const scale of [1, 2, 4]) {
    const files = [];
    let mb = 0;
    for (const f of all) {
      if (mb >= scale * baseMb) break;
      files.push(f);
      mb += f.bytes / 1024 / 1024;
    }
    const { cpuMs, matches } = await measure(files, query);
    const perMb = cpuMs / mbOf(files);
    if (scale === 1) perMb1 = perMb;
    rows.push(
      `${scale}×: ${mbOf(files).toFixed(0)} MB, ${files.length} files, ${matches} matches, ${cpuMs.toFixed(0)} ms CPU, ${perMb.toFixed(1)} ms/MB (${(perMb / perMb1).toFixed(2)}× of 1×), RSS ${(memoryUsage().rss / 1024 / 1024).toFixed(0)} MB`,
    );
  }
  process.stdout.write(`"${query}":\n  ${rows.join('\n  ')}\n`);
}
