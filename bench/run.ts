// `npm run bench`: parse throughput and memory on a generated ~100 MB Claude Code transcript.
//   (a) baseline: read the file, split lines, JSON.parse each line
//   (b) compactlab: parseSession([createNodeFileSource(path)])
// Best of 3 each, interleaved in one process; then peak memory of each in a fresh child
// process; then the wall time of `compactlab inspect <file> --json`. Ends with a markdown table
// for the README.

import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import os from 'node:os';
import { join, resolve } from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { ensureBenchFile } from './bench-file';
import { type ParserId, runParser } from './parsers';

/** Goals from the project brief: parse at ≥ 80 % of the baseline's speed, peak RSS ≤ 2.5 × file size. */
const THROUGHPUT_GOAL = 0.8;
const MEMORY_GOAL = 2.5;
const RUNS = 3;

const root = resolve(import.meta.dirname, '..');
// A full GC before every timed run, so one parser's garbage is not collected on the other's clock
// (`npm run bench` cannot pass --expose-gc, so enable it at runtime).
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
const log = (text: string): void => {
  process.stderr.write(`${text}\n`);
};
const mb = (bytes: number): string =>
  `${(bytes / 1e6).toLocaleString('en-US', { maximumFractionDigits: 1 })} MB`;

interface Memory {
  records: number;
  startRssBytes: number;
  heapAfterBytes: number;
  peakRssBytes: number;
}

function measureMemory(id: ParserId, file: string): Memory | string {
  const child = spawnSync(
    process.execPath,
    ['--expose-gc', join(root, 'bin', 'run-ts.mjs'), join(root, 'bench', 'memory-probe.ts'), id, file],
    { encoding: 'utf8', maxBuffer: 1 << 20 },
  );
  if (child.status !== 0) return (child.stderr.trim().split('\n').at(-1) ?? 'failed').slice(0, 120);
  return JSON.parse(child.stdout.trim().split('\n').at(-1) ?? '{}') as Memory;
}

function measureCli(file: string): { ms: number; outputBytes: number } | string {
  const started = performance.now();
  const child = spawnSync(
    process.execPath,
    [join(root, 'bin', 'compactlab.cjs'), 'inspect', file, '--json'],
    {
      encoding: 'utf8',
      maxBuffer: 1 << 30,
    },
  );
  const ms = performance.now() - started;
  if (child.status !== 0)
    return `exit ${child.status}: ${(child.stderr.trim().split('\n').at(-1) ?? '').slice(0, 120)}`;
  return { ms, outputBytes: Buffer.byteLength(child.stdout) };
}

const file = await ensureBenchFile(join(root, '.bench'), log);
const sizeBytes = statSync(file).size;

const best: Record<ParserId, number> = {
  baseline: Number.POSITIVE_INFINITY,
  compactlab: Number.POSITIVE_INFINITY,
};
const records: Record<ParserId, number> = { baseline: 0, compactlab: 0 };
let parseError: string | undefined;
for (let run = 1; run <= RUNS; run++) {
  for (const id of ['baseline', 'compactlab'] as const) {
    if (id === 'compactlab' && parseError) continue;
    gc();
    const started = performance.now();
    try {
      records[id] = (await runParser(id, file)).records;
    } catch (error) {
      parseError = error instanceof Error ? error.message : String(error);
      log(`compactlab parse failed: ${parseError}`);
      continue;
    }
    const ms = performance.now() - started;
    best[id] = Math.min(best[id], ms);
    log(
      `run ${run} ${id.padEnd(10)} ${(ms / 1000).toFixed(2)} s  ${((sizeBytes / 1e6 / ms) * 1000).toFixed(0)} MB/s`,
    );
  }
}

log('measuring memory in child processes…');
const memory = { baseline: measureMemory('baseline', file), compactlab: measureMemory('compactlab', file) };
log('timing compactlab inspect --json…');
const cli = measureCli(file);

const throughput = (id: ParserId): number => sizeBytes / 1e6 / (best[id] / 1000);
const ratio = parseError ? undefined : throughput('compactlab') / throughput('baseline');
const memCell = (m: Memory | string, pick: (m: Memory) => number): string =>
  typeof m === 'string' ? `n/a (${m})` : `${mb(pick(m))} (${(pick(m) / sizeBytes).toFixed(2)}×)`;
const ours = memory.compactlab;
const cpu = os.cpus()[0]?.model.trim() ?? 'unknown CPU';

const table = [
  `### Parse benchmark: ${mb(sizeBytes)} generated Claude Code transcript (${records.baseline.toLocaleString('en-US')} lines)`,
  '',
  `Machine: ${cpu}, ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB RAM, Node ${process.version}, ${os.platform()} ${os.arch()}`,
  '',
  '| measure | baseline (read + split + `JSON.parse`) | compactlab `parseSession` | compactlab / baseline | goal |',
  '|---|---:|---:|---:|---|',
  `| throughput, best of ${RUNS} | ${throughput('baseline').toFixed(0)} MB/s | ${parseError ? `n/a (${parseError.slice(0, 60)})` : `${throughput('compactlab').toFixed(0)} MB/s`} | ${ratio === undefined ? 'n/a' : ratio.toFixed(2)} | ≥ ${THROUGHPUT_GOAL} ${ratio === undefined ? '' : ratio >= THROUGHPUT_GOAL ? '(met)' : '(missed)'} |`,
  `| peak RSS (× file size) | ${memCell(memory.baseline, (m) => m.peakRssBytes)} | ${memCell(ours, (m) => m.peakRssBytes)} | ${typeof ours === 'string' || typeof memory.baseline === 'string' ? 'n/a' : (ours.peakRssBytes / memory.baseline.peakRssBytes).toFixed(2)} | ≤ ${MEMORY_GOAL}× ${typeof ours === 'string' ? '' : ours.peakRssBytes / sizeBytes <= MEMORY_GOAL ? '(met)' : '(missed)'} |`,
  `| peak RSS above the process's start | ${memCell(memory.baseline, (m) => m.peakRssBytes - m.startRssBytes)} | ${memCell(ours, (m) => m.peakRssBytes - m.startRssBytes)} | | |`,
  `| heap after parse, result alive | ${memCell(memory.baseline, (m) => m.heapAfterBytes)} | ${memCell(ours, (m) => m.heapAfterBytes)} | ${typeof ours === 'string' || typeof memory.baseline === 'string' ? 'n/a' : (ours.heapAfterBytes / memory.baseline.heapAfterBytes).toFixed(2)} | |`,
  `| \`compactlab inspect <file> --json\`, wall time | | ${typeof cli === 'string' ? `n/a (${cli})` : `${(cli.ms / 1000).toFixed(2)} s`} | | |`,
  '',
  `Peak RSS includes Node and the tsx loader (${typeof ours === 'string' ? '?' : mb(ours.startRssBytes)} before the parse starts). Records: baseline ${records.baseline.toLocaleString('en-US')} lines, compactlab ${records.compactlab.toLocaleString('en-US')} entries.`,
];
process.stdout.write(`\n${table.join('\n')}\n`);
