import { runParser } from '../parsers';
const f = '/work/main/.bench/session-100mb.jsonl';
for (let i = 0; i < 2; i++) {
  for (const id of ['baseline', 'compactlab'] as const) {
    const t = performance.now();
    const r = await runParser(id, f);
    console.log(id, r.records, Math.round(performance.now() - t));
  }
}
