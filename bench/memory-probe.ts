// Child process of bench/run.ts: runs one parser once and prints its memory use as JSON.
//   node --expose-gc bin/run-ts.mjs bench/memory-probe.ts <baseline|compactlab> <file>
// maxRSS is the process peak (it includes Node and the tsx loader, measured separately as
// `startRssBytes`); heapUsed is measured after a full GC with the parse result still alive.

import { type ParserId, runParser } from './parsers';

const [id, path] = process.argv.slice(2) as [ParserId, string];
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');

gc();
const startRssBytes = process.memoryUsage().rss;
const startHeapBytes = process.memoryUsage().heapUsed;
const result = await runParser(id, path);
gc();
const heapAfterBytes = process.memoryUsage().heapUsed;
const peakRssBytes = process.resourceUsage().maxRSS * 1024;
process.stdout.write(
  `${JSON.stringify({ id, records: result.records, startRssBytes, startHeapBytes, heapAfterBytes, peakRssBytes })}\n`,
);
// Keep the result reachable until after the measurement.
if (result.keep === undefined) process.exitCode = 1;
