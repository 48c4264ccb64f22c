// One worker of `bench/library.ts`: takes a session's files, runs the baseline (read + split +
// JSON.parse every line) or the library scan on them, answers with what it counted.

import { readFileSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { createNodeFileSource } from '../src/cli/node-source';
import { scanSession } from '../src/engine/library/scan-session';

export interface BenchJob {
  mode: 'baseline' | 'scan';
  paths: string[];
}

parentPort!.on('message', async (job: BenchJob) => {
  if (job.mode === 'baseline') {
    let records = 0;
    for (const path of job.paths) {
      for (const line of readFileSync(path, 'utf8').split('\n')) {
        if (line === '') continue;
        try {
          JSON.parse(line);
          records++;
        } catch {
          // counted as not a record, as the scan counts a broken line
        }
      }
    }
    parentPort!.postMessage({ records });
    return;
  }
  const row = await scanSession(job.paths.map((p) => createNodeFileSource(p)));
  parentPort!.postMessage({ records: row.apiCalls + row.sidechainCalls });
});
