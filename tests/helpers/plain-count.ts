import { readFileSync } from 'node:fs';

// Plain counts of a log's raw records, read line by line with JSON.parse and nothing of the
// engine: what the engine's figures are held to.

/** Claude Code `compact_boundary` records of a JSONL file. */
export function countCompactBoundaries(path: string): number {
  let n = 0;
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (!line.includes('compact_boundary')) continue;
    const record = JSON.parse(line) as { type?: string; subtype?: string };
    if (record.type === 'system' && record.subtype === 'compact_boundary') n++;
  }
  return n;
}
