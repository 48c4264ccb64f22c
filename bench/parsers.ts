// The two parses the benchmark compares. The baseline is the least any JSONL viewer must do:
// read the file, split it into lines and JSON.parse every line.

import { readFile } from 'node:fs/promises';
import { createNodeFileSource } from '../src/cli/node-source';
import { parseSession } from '../src/engine/parse/parse-session';

export type ParserId = 'baseline' | 'compactlab';

/** Returns something derived from the parse, so callers can keep it alive or check it. */
export async function runParser(id: ParserId, path: string): Promise<{ records: number; keep: unknown }> {
  if (id === 'baseline') {
    const text = await readFile(path, 'utf8');
    const records: unknown[] = [];
    for (const line of text.split('\n')) if (line !== '') records.push(JSON.parse(line));
    return { records: records.length, keep: records };
  }
  const session = await parseSession([createNodeFileSource(path)]);
  return { records: session.entries.length, keep: session };
}
