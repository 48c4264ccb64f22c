// The progress of a command over many sessions, on stderr: one line rewritten in place on a
// terminal. Its output goes to the same terminal when nothing redirects it, so the line is erased
// before any other text is written (`clear`): a row never starts after "… 3/55 sessions".

/** Carriage return, then erase the whole line (ECMA-48 EL 2): the cursor at column 0 of an empty line. */
const ERASE_LINE = '\r\x1b[2K';

interface Progress {
  /** One more session done. */
  tick(): void;
  /** Erases the progress line, if one is drawn: call before writing anything else to the terminal. */
  clear(): void;
  /** The last count kept on its own line (a terminal), or the last tenth's line (elsewhere). */
  end(): void;
}

interface ProgressOptions {
  /** Where the line goes (default process.stderr); its `isTTY` chooses the form. */
  stream?: { isTTY?: boolean; write(text: string): unknown };
  /** Off a terminal, a plain line per tenth of the sessions (`stats`); else nothing there. */
  plainLines?: boolean;
}

/** `<command>: <done>/<total> sessions`, on a terminal rewritten as each session ends. */
export function createProgress(command: string, total: number, options: ProgressOptions = {}): Progress {
  const stream = options.stream ?? process.stderr;
  const tty = stream.isTTY === true;
  const say = (done: number) => `compactlab ${command}: ${done}/${total} sessions`;
  let done = 0;
  let shownTenth = 0;
  let drawn = false;
  return {
    tick() {
      done++;
      if (tty) {
        stream.write(`${ERASE_LINE}${say(done)}`);
        drawn = true;
      } else if (
        options.plainLines === true &&
        (Math.floor((done * 10) / total) > shownTenth || done === total)
      ) {
        shownTenth = Math.floor((done * 10) / total);
        stream.write(`${say(done)}\n`);
      }
    },
    clear() {
      if (!drawn) return;
      stream.write(ERASE_LINE);
      drawn = false;
    },
    end() {
      if (!tty || total === 0 || done === 0) return;
      stream.write(`${ERASE_LINE}${say(done)}\n`);
      drawn = false;
    },
  };
}
