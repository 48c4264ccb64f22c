import { parseArgs } from '../cli-args';
import {
  INITIAL_READER_STATE,
  type RestartReason,
  readAppendedLines,
} from '../../engine/parse/incremental-reader';
import { statSync } from 'node:fs';
import {
  addLiveLine,
  createLiveFigures,
  type LiveCompactionScore,
  whyNotFollowed,
} from '../../engine/live/live-figures';
import { describeCallScore } from '../../engine/live/forecast-score';
import { computeLiveStatus, type LiveStatus, recordLivePrediction } from '../../engine/live/live-status';
import { WATCH_USAGE } from '../command-usage';
import { escapeTerminalText } from '../terminal-text';
import { formatStatusLine, formatTokensShort } from './format-status';
import { createGrowingFileSource, FileMissingError } from './growing-file';

// `compactlab watch <session.jsonl>`: the status line in a terminal, for a session being written.
// Every second it reads only the appended bytes (a partial last line waits for its newline),
// updates the context, the threshold of the log's version and the calls left at the recent pace,
// and when a real compaction lands, scores the prediction made before it. A file that shrank, was
// replaced or is gone is said (as the page's live bar and the status line say it): the compactions
// of a first read or a re-read are the file's history, never scored as landing (unless the file
// was empty at the look before: then they are written while watched); a gone file keeps
// its last status, marked, never an empty session's (which would show another version's threshold).

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
  // The page's live bar says the same words (engine/live/forecast-score.ts).
  parts.push(
    describeCallScore({
      firedAfterCall: s.firedAfterCall,
      first: s.firstForecast,
      last: s.lastForecast,
    }),
  );
  return parts.join(' · ');
}

/** What happened to the followed file, said once each time it happens (`--json`: `kind: 'file'`). */
type FileEvent = RestartReason | 'gone' | 'missing' | 'back';

const FILE_EVENT_TEXT: Record<FileEvent, string> = {
  shrank: 'the file shrank: read again from its start (compactions already in it are not scored)',
  replaced:
    'the file was replaced (its first bytes changed): read again from its start (compactions already in it are not scored)',
  gone: 'file not found: the transcript is gone (deleted or moved); the figures are the last read',
  missing: 'no file there (yet): waiting for it',
  back: 'the file is back',
};

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
  const source = createGrowingFileSource(path, { missing: 'throw' });
  let figures = createLiveFigures();
  let state = INITIAL_READER_STATE;
  let lastText = '';
  let scoredCompactions = 0;
  /**
   * The file was empty at a look since the last read from its start (at watch's start, or after it
   * shrank to nothing): what it holds next is written while watched, live, not history.
   */
  let emptySeen = false;
  /** The last status read from the file (kept while it is gone). */
  let lastStatus: LiveStatus | undefined;
  /** No file at the path at the last look: 'gone' once one was read, 'missing' before. */
  let absent: 'gone' | 'missing' | undefined;
  const show = (text: string) => {
    if (text === lastText) return;
    lastText = text;
    if (tty) process.stdout.write(`\r\x1b[2K${escapeTerminalText(text)}`);
    else out(text);
  };
  /** A line of its own (a compaction, a file event), above the updating status line. */
  const event = (json: object, text: string) => {
    if (values.json) out(JSON.stringify(json));
    else {
      if (tty) process.stdout.write('\r\x1b[2K');
      out(text);
      // The status line goes under it again.
      if (tty && lastText) process.stdout.write(escapeTerminalText(lastText));
    }
  };
  const fileEvent = (what: FileEvent) => event({ kind: 'file', event: what }, FILE_EVENT_TEXT[what]);
  const tick = async () => {
    // A read from the file's start (the first one, or after it shrank or was replaced) is its
    // history: its compactions were not seen landing, no forecast was made for them.
    let history = state.offsetBytes === 0 && !emptySeen;
    /** Lines of this read that are no JSON record: skipped by the figures, said below. */
    const skipped: number[] = [];
    let read: Awaited<ReturnType<typeof readAppendedLines>>;
    try {
      read = await readAppendedLines(
        source,
        state,
        (text, line) => {
          const notRecordBefore = figures.notRecordLines ?? 0;
          addLiveLine(figures, text, line);
          if ((figures.notRecordLines ?? 0) > notRecordBefore) skipped.push(line);
          // A compaction scored as soon as its line is read, before later calls move the figures.
          if (figures.compactions > scoredCompactions && figures.lastCompaction) {
            scoredCompactions = figures.compactions;
            if (history) return;
            const score = figures.lastCompaction;
            event({ kind: 'compaction', ...score }, formatCompactionScore(score));
          }
        },
        (why) => {
          if (absent) {
            absent = undefined;
            fileEvent('back');
          }
          figures = createLiveFigures();
          skipped.length = 0;
          scoredCompactions = 0;
          history = true;
          emptySeen = false;
          fileEvent(why);
        },
      );
    } catch (error) {
      // Gone between the size check and the open is gone too.
      const gone = error instanceof FileMissingError || (error as NodeJS.ErrnoException).code === 'ENOENT';
      if (!gone) throw error;
      const now = lastStatus ? 'gone' : 'missing';
      if (absent !== now) {
        absent = now;
        if (values.json || (now === 'missing' && !values.once)) fileEvent(now);
      }
      // The last status stands, said to be the last known; --json has it already.
      if (!values.json && lastStatus)
        show(`${formatStatusLine(lastStatus)} · transcript not found (last known)`);
      return;
    }
    if (absent) {
      absent = undefined;
      fileEvent('back');
    }
    state = read.state;
    // Offset 0 with bytes pending is a first line still being written: the look before decides.
    if (state.offsetBytes === 0 && read.pendingBytes === 0) emptySeen = true;
    else if (state.offsetBytes > 0) emptySeen = false;
    const why = whyNotFollowed(path, figures);
    if (why !== undefined) throw new NotFollowed(why);
    if (skipped.length > 0) event(describeSkipped(skipped), formatSkipped(skipped));
    const status = computeLiveStatus(figures);
    recordLivePrediction(figures, status);
    lastStatus = status;
    show(
      values.json
        ? JSON.stringify({ kind: 'status', line: state.nextLine - 1, apiCalls: figures.apiCalls, ...status })
        : formatStatusLine(status),
    );
  };
  try {
    await tick();
    if (values.once) {
      if (absent) {
        say(`no file at ${path}`);
        return 1;
      }
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

/** Line numbers a message names (ours: enough to find them; the count says the rest). */
const SKIPPED_LINES_SHOWN = 5;

/** `--json`'s event for the lines of one read that are no JSON record (line numbers only, never their text). */
function describeSkipped(lines: number[]) {
  return { kind: 'skipped', count: lines.length, lines: lines.slice(0, SKIPPED_LINES_SHOWN) };
}

/**
 * Lines that are no JSON record (cut, garbled, not JSON) are skipped by the figures, as the
 * page's parse skips them with an issue each: said once per read, by line number.
 */
export function formatSkipped(lines: number[]): string {
  const shown = lines.slice(0, SKIPPED_LINES_SHOWN).join(', ');
  const more = lines.length > SKIPPED_LINES_SHOWN ? `, … (${lines.length - SKIPPED_LINES_SHOWN} more)` : '';
  return lines.length === 1
    ? `line ${shown} is not a JSON record: skipped (compactlab inspect says why)`
    : `${lines.length} lines are not JSON records: skipped (lines ${shown}${more}; compactlab inspect says why)`;
}

/** A log no live reader follows: said once, and watch ends. */
class NotFollowed extends Error {}
