import { parseArgs } from '../cli-args';
import { INITIAL_READER_STATE, readAppendedLines } from '../../engine/parse/incremental-reader';
import { statSync } from 'node:fs';
import {
  addLiveLine,
  createLiveFigures,
  type LiveCompactionScore,
  whyNotFollowed,
} from '../../engine/live/live-figures';
import { computeLiveStatus, recordLivePrediction } from '../../engine/live/live-status';
import { WATCH_USAGE } from '../command-usage';
import { escapeTerminalText } from '../terminal-text';
import { formatStatusLine, formatTokensShort } from './format-status';
import { createGrowingFileSource } from './growing-file';

// `compactlab watch <session.jsonl>`: the status line in a terminal, for a session being written.
// Every second it reads only the appended bytes (a partial last line waits for its newline),
// updates the context, the threshold of the log's version and the calls left at the recent pace,
// and when a real compaction lands, scores the prediction made before it.

const DEFAULT_INTERVAL_MS = 1000;

/** One line scoring a real compaction against what was predicted before it. */
export function formatCompactionScore(s: LiveCompactionScore): string {
  const parts = [`compaction (${s.trigger}) at line ${s.line}`];
  if (s.preTokens !== undefined) parts.push(`fired at ${formatTokensShort(s.preTokens)}`);
  if (s.preTokens !== undefined && s.thresholdTokens !== undefined) {
    const miss = s.preTokens - s.thresholdTokens;
    parts.push(
      `predicted ${formatTokensShort(s.thresholdTokens)} (${miss >= 0 ? '+' : '−'}${formatTokensShort(Math.abs(miss))})`,
    );
  }
  if (s.callsPredicted !== undefined && s.callsTaken !== undefined)
    parts.push(`calls: predicted ${s.callsPredicted}, took ${s.callsTaken}`);
  return parts.join(' · ');
}

/** Runs until Ctrl-C, or until `stop` aborts (tests: a real SIGINT would end the test runner too). */
export async function watchCommand(
  args: string[],
  out: (text: string) => void,
  stop?: AbortSignal,
): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      json: { type: 'boolean' },
      once: { type: 'boolean' },
      'interval-ms': { type: 'string' },
    },
  });
  const path = positionals[0];
  if (!path) {
    out(`Usage:\n${WATCH_USAGE}`);
    return 2;
  }
  const intervalMs = Number(values['interval-ms'] ?? DEFAULT_INTERVAL_MS);
  if (!Number.isFinite(intervalMs) || intervalMs < 50) {
    process.stderr.write(
      `compactlab watch: --interval-ms expects a number ≥ 50, got "${values['interval-ms']}"\n`,
    );
    return 2;
  }
  const say = (text: string) => process.stderr.write(`compactlab watch: ${escapeTerminalText(text)}\n`);
  let isFolder = false;
  try {
    isFolder = statSync(path).isDirectory();
  } catch {
    // Not there yet: a session about to be written is waited for.
  }
  if (isFolder) {
    say(`${path} is a folder: watch follows one session file (its .jsonl transcript)`);
    return 2;
  }
  const tty = !values.json && process.stdout.isTTY === true;
  const source = createGrowingFileSource(path);
  let figures = createLiveFigures();
  let state = INITIAL_READER_STATE;
  let lastText = '';
  let scoredCompactions = 0;
  const tick = async () => {
    const read = await readAppendedLines(
      source,
      state,
      (text, line) => {
        addLiveLine(figures, text, line);
        // A compaction scored as soon as its line is read, before later calls move the figures.
        if (figures.compactions > scoredCompactions && figures.lastCompaction) {
          scoredCompactions = figures.compactions;
          const score = figures.lastCompaction;
          if (values.json) out(JSON.stringify({ kind: 'compaction', ...score }));
          else {
            if (tty) process.stdout.write('\r\x1b[2K');
            out(formatCompactionScore(score));
          }
        }
      },
      () => {
        figures = createLiveFigures();
        scoredCompactions = 0;
      },
    );
    state = read.state;
    const why = whyNotFollowed(path, figures);
    if (why !== undefined) throw new NotFollowed(why);
    const status = computeLiveStatus(figures);
    recordLivePrediction(figures, status);
    const text = values.json
      ? JSON.stringify({ kind: 'status', line: state.nextLine - 1, apiCalls: figures.apiCalls, ...status })
      : formatStatusLine(status);
    if (text === lastText) return;
    lastText = text;
    if (tty) process.stdout.write(`\r\x1b[2K${escapeTerminalText(text)}`);
    else out(text);
  };
  try {
    await tick();
    if (values.once) {
      if (figures.apiCalls > 0 || figures.compactions > 0) return 0;
      say(`no API call or compaction read in ${path} yet (${state.nextLine - 1} lines)`);
      return 1;
    }
    await new Promise<void>((resolve, reject) => {
      let busy = false;
      const timer = setInterval(() => {
        if (busy) return;
        busy = true;
        tick()
          .catch((error) => {
            clearInterval(timer);
            reject(error);
          })
          .finally(() => {
            busy = false;
          });
      }, intervalMs);
      const end = () => {
        clearInterval(timer);
        process.off('SIGINT', end);
        if (tty) process.stdout.write('\n');
        resolve();
      };
      if (stop) stop.addEventListener('abort', end, { once: true });
      else process.once('SIGINT', end);
    });
    return 0;
  } catch (error) {
    if (!(error instanceof NotFollowed)) throw error;
    say(error.message);
    return 1;
  } finally {
    source.close();
  }
}

/** A log no live reader follows: said once, and watch ends. */
class NotFollowed extends Error {}
