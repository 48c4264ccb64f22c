import { main } from '../../src/cli/main';

/** What `compactlab` printed in-process: exit code, stdout lines (and joined), stderr. */
export interface CliRun {
  code: number;
  lines: string[];
  text: string;
  err: string;
}

/** Runs `compactlab <args>` in this process, stderr captured (and put back after). */
export async function runCli(args: string[]): Promise<CliRun> {
  const lines: string[] = [];
  const err: string[] = [];
  const write = process.stderr.write;
  process.stderr.write = ((t: string) => {
    err.push(String(t));
    return true;
  }) as typeof process.stderr.write;
  try {
    const code = await main(args, (t) => lines.push(t));
    return { code, lines, text: lines.join('\n'), err: err.join('') };
  } finally {
    process.stderr.write = write;
  }
}
