// What a summarizer call is waiting for, on stderr: a server that accepts the connection and never
// answers (before its first token or mid-answer) left `compactlab summarize` silent for as long as
// it held on, where the page says "Waiting for the server's first token · N s (Cancel stops it)".
// There is no time limit (a local server may take minutes over a long prompt): Ctrl-C stops it.
// On a terminal one line is rewritten every second; elsewhere (a pipe, a log file) plain lines, no
// control sequence, each after twice the wait of the one before.

/** Seconds before the first line off a terminal (ours: past a model's usual wait for its first token on a long prompt). */
const FIRST_LINE_S = 5;
/** Seconds without a new piece of the answer after which a line says so (the page's STALL_NOTICE_S). */
const STALL_S = 5;
/** How often the line is looked at. */
const TICK_MS = 1_000;

interface WaitNotice {
  /** Give this to the summarizer's `onText`: each piece of the answer as it comes. */
  onText: (delta: string) => void;
  /** The call is over (answered, failed or stopped): the timer stops, a terminal's line is cleared. */
  end: () => void;
}

/**
 * Starts saying on `write` (stderr) what the call waits for, each line after `prefix`
 * ("compactlab summarize: "). `tty`: rewrite one line in place (`\r`, erase to its end).
 */
export function startWaitNotice(
  prefix: string,
  options: { tty: boolean; write: (text: string) => void; now?: () => number },
): WaitNotice {
  const now = options.now ?? (() => performance.now());
  const sentAt = now();
  let textAt: number | undefined;
  let chars = 0;
  let shown = false;
  /** Off a terminal: the seconds of waiting (or of quiet) at which the next line is written. */
  let nextLineAt = FIRST_LINE_S;
  const describe = (): string | undefined => {
    const waited = Math.floor((now() - sentAt) / 1000);
    if (chars === 0)
      return waited >= 1 ? `waiting for the server's first token · ${waited} s (Ctrl-C stops it)` : undefined;
    const quiet = Math.floor((now() - (textAt ?? sentAt)) / 1000);
    return quiet >= STALL_S
      ? `summarizing… ${chars.toLocaleString('en-US')} characters · ${waited} s · nothing new for ${quiet} s (Ctrl-C stops it)`
      : undefined;
  };
  const tick = () => {
    const line = describe();
    if (options.tty) {
      if (line !== undefined) options.write(`\r${prefix}${line}\u001b[K`);
      else if (shown) options.write('\r\u001b[K');
      shown = line !== undefined;
      return;
    }
    if (line === undefined) return;
    const seconds = Math.floor((now() - (chars === 0 ? sentAt : (textAt ?? sentAt))) / 1000);
    if (seconds < nextLineAt) return;
    options.write(`${prefix}${line}\n`);
    nextLineAt = seconds * 2;
  };
  const timer = setInterval(tick, TICK_MS);
  // The notice never keeps the process alive on its own.
  timer.unref?.();
  return {
    onText(delta) {
      chars += delta.length;
      textAt = now();
      // Quiet again later: the next line off a terminal comes after the stall's own wait.
      nextLineAt = STALL_S;
      if (options.tty && shown) {
        options.write('\r\u001b[K');
        shown = false;
      }
    },
    end() {
      clearInterval(timer);
      if (options.tty && shown) options.write('\r\u001b[K');
      shown = false;
    },
  };
}
