// The benchmark transcript: a generated Claude Code session of about 100 MB in .bench/, written
// as a stream and reused while the generator version, seed and size stay the same.

import { once } from 'node:events';
import { createWriteStream, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GENERATOR_VERSION, generateSessionLines } from '../sample/generate-session';

export const BENCH_SEED = 100;
const BENCH_TARGET_BYTES = 100 * 1024 * 1024;

interface BenchMeta {
  generatorVersion: number;
  seed: number;
  targetBytes: number;
  bytes: number;
}

/** Writes only the main transcript: the benchmark parses one file. */
async function writeBenchFile(path: string, seed: number, targetBytes: number): Promise<number> {
  const out = createWriteStream(path);
  let batch: string[] = [];
  let batchChars = 0;
  let bytes = 0;
  const flush = async (): Promise<void> => {
    const chunk = `${batch.join('\n')}\n`;
    batch = [];
    batchChars = 0;
    bytes += Buffer.byteLength(chunk);
    if (!out.write(chunk)) await once(out, 'drain');
  };
  for (const { file, line } of generateSessionLines({ seed, targetBytes })) {
    if (file.includes('/')) continue;
    batch.push(line);
    batchChars += line.length;
    // 1 MiB batches keep write() calls few without holding the file in memory.
    if (batchChars >= 1 << 20) await flush();
  }
  if (batch.length > 0) await flush();
  out.end();
  await once(out, 'finish');
  return bytes;
}

/** The path of the benchmark file, generating it when missing or stale. */
export async function ensureBenchFile(
  dir: string,
  log: (text: string) => void,
  targetBytes = BENCH_TARGET_BYTES,
): Promise<string> {
  mkdirSync(dir, { recursive: true });
  const name = `session-${Math.round(targetBytes / (1024 * 1024))}mb`;
  const path = join(dir, `${name}.jsonl`);
  const metaPath = join(dir, `${name}.meta.json`);
  const wanted = { generatorVersion: GENERATOR_VERSION, seed: BENCH_SEED, targetBytes };
  if (existsSync(path) && existsSync(metaPath)) {
    const meta = JSON.parse(readFileSync(metaPath, 'utf8')) as BenchMeta;
    const same =
      meta.generatorVersion === wanted.generatorVersion &&
      meta.seed === wanted.seed &&
      meta.targetBytes === wanted.targetBytes &&
      meta.bytes === statSync(path).size;
    if (same) {
      log(`reusing ${path} (${(meta.bytes / 1e6).toFixed(1)} MB, generator v${meta.generatorVersion})`);
      return path;
    }
  }
  const started = performance.now();
  const bytes = await writeBenchFile(path, BENCH_SEED, targetBytes);
  writeFileSync(metaPath, `${JSON.stringify({ ...wanted, bytes } satisfies BenchMeta, null, 2)}\n`);
  log(
    `generated ${path}: ${(bytes / 1e6).toFixed(1)} MB in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  return path;
}
