import { computeLiveStatus, type LiveOverrides } from '../../engine/live/live-status';
import { createLiveFigures, type LiveFigures, whyNotFollowed } from '../../engine/live/live-figures';
import { formatStatusLine } from './format-status';
import { readLiveFiguresCached } from './live-cache';

// `compactlab statusline`: Claude Code's `statusLine` command. Claude Code runs it (at most every
// 300 ms) with a JSON object on stdin and shows the first line it prints. The fields used, as
// the Claude Code docs give them (https://code.claude.com/docs/en/statusline, "JSON input"):
// `transcript_path`, `session_id`, `version`, `model.{id,display_name}`, and, in newer versions,
// `context_window.{context_window_size, current_usage{input_tokens, output_tokens,
// cache_creation_input_tokens, cache_read_input_tokens}}` (`current_usage` is null before the
// first call). Those win over the transcript; the transcript gives the rest (pace, compactions).

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
/** A count from the payload: a number from 0 to 1e10 (the parse's bound); else left out, not shown. */
const numOrUndefined = (v: unknown) => (typeof v === 'number' && v >= 0 && v <= 1e10 ? v : undefined);

/**
 * The status line's time budget, from when the command starts to its line: it never waits longer
 * on stdin, the disk or a big transcript. Ours: Claude Code runs the command again on each update
 * (at most every 300 ms, the docs above), so a line later than a second shows a stale context;
 * the first read of a big transcript goes on over the next calls (live-cache.ts).
 */
export const STATUSLINE_BUDGET_MS = 1_000;

/**
 * A transcript's read stops this long before the deadline, at the end of a chunk (its lines are
 * counted in well under this on the project's 2-core machine), so the read's figures and place
 * are kept for the next call; the deadline itself still holds whatever the disk does. Ours.
 */
const READ_MARGIN_MS = 300;

const NO_PAYLOAD = 'compactlab: statusline expects the statusLine JSON on stdin';

/**
 * The line for a transcript path with no file there. Claude Code writes a session's transcript
 * only after its first exchange (jarrodwatts/claude-hud#549: the status line runs before it), so
 * a payload that says no call was made yet (`current_usage: null`) keeps its own line, marked; one
 * with a call made has a transcript somewhere else (a wrong or deleted path), said so; a payload
 * without figures gives no made-up `ctx 0/200k` but the words. A status line must not break the
 * prompt: the line is still printed and the command exits 0; the path goes to stderr (ours).
 */
function describeMissingTranscript(path: string, payload: Json, warn: (text: string) => void): string {
  const cw = isObject(payload.context_window) ? payload.context_window : undefined;
  const name = path.split(/[\\/]/).pop() ?? path;
  warn(
    `compactlab statusline: no file at ${path} (a new session's transcript is written after its first exchange): the line has the payload's figures alone\n`,
  );
  if (!cw) return `compactlab: transcript not found (${name})`;
  const line = formatStatusLine(computeLiveStatus(createLiveFigures(), getPayloadOverrides(payload)));
  return `${line} · ${isObject(cw.current_usage) ? 'transcript not found' : 'no transcript yet'}`;
}

/** What `within` gives when the deadline came first. */
const LATE = Symbol('late');

/** Resolves `LATE` at `deadline` (a `performance.now()` time) unless `work` settled first. */
function within<T>(work: Promise<T>, deadline: number): Promise<T | typeof LATE> {
  if (deadline === Number.POSITIVE_INFINITY) return work;
  let cancel = () => {};
  const late = new Promise<typeof LATE>((resolve) => {
    const timer = setTimeout(() => resolve(LATE), Math.max(0, deadline - performance.now()));
    cancel = () => clearTimeout(timer);
  });
  return Promise.race([work, late]).finally(cancel);
}

/** stdin's text, or what had come by `deadline` (a writer that never closes it does not hold us). */
async function readStdin(deadline: number): Promise<{ text: string; complete: boolean }> {
  if (process.stdin.isTTY) return { text: '', complete: true };
  const chunks: Buffer[] = [];
  const all = (async () => {
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return true;
  })();
  const complete = (await within(all, deadline)) === true;
  if (!complete) process.stdin.destroy();
  return { text: Buffer.concat(chunks).toString('utf8'), complete };
}

/** The overrides the statusLine payload carries. */
export function getPayloadOverrides(payload: Json): LiveOverrides {
  const model = isObject(payload.model) ? payload.model : {};
  const cw = isObject(payload.context_window) ? payload.context_window : {};
  const usage = isObject(cw.current_usage) ? cw.current_usage : undefined;
  const overrides: LiveOverrides = {
    version: typeof payload.version === 'string' ? payload.version : undefined,
    model: typeof model.id === 'string' ? model.id : undefined,
    contextWindowTokens: numOrUndefined(cw.context_window_size),
  };
  if (usage) {
    overrides.contextTokens =
      (numOrUndefined(usage.input_tokens) ?? 0) +
      (numOrUndefined(usage.cache_creation_input_tokens) ?? 0) +
      (numOrUndefined(usage.cache_read_input_tokens) ?? 0);
    overrides.outputTokens = numOrUndefined(usage.output_tokens) ?? 0;
  }
  return overrides;
}

/**
 * The status line for one payload (its text), within `deadline` (a `performance.now()` time): a
 * transcript not read by then gives the line of what was read, saying how much; one whose disk
 * does not answer, the payload's line alone, saying so.
 */
export async function computeStatusLine(
  payloadText: string,
  {
    deadline = performance.now() + STATUSLINE_BUDGET_MS,
    readUntil = deadline - READ_MARGIN_MS,
    readTranscript = readLiveFiguresCached,
    warn = (text) => process.stderr.write(text),
  }: {
    deadline?: number;
    /** When a transcript's read stops at the end of a chunk (before `deadline`). */
    readUntil?: number;
    /** The transcript's reader (a test gives one whose disk does not answer). */
    readTranscript?: typeof readLiveFiguresCached;
    /** Where a warning goes (stderr: Claude Code shows only the first line of stdout). */
    warn?: (text: string) => void;
  } = {},
): Promise<string> {
  let payload: unknown;
  try {
    payload = JSON.parse(payloadText);
  } catch {
    return NO_PAYLOAD;
  }
  if (!isObject(payload)) return NO_PAYLOAD;
  let figures: LiveFigures = createLiveFigures();
  let note = '';
  if (typeof payload.transcript_path === 'string' && payload.transcript_path) {
    const read = await within(
      readTranscript(payload.transcript_path, readUntil).catch(() => undefined),
      deadline,
    ).catch(() => undefined);
    if (read === LATE) note = ' · transcript not read in time (slow disk?)';
    else if (read?.missing) return describeMissingTranscript(payload.transcript_path, payload, warn);
    else if (read) {
      figures = read.figures;
      if (read.readBytes < read.sizeBytes)
        note = ` · transcript read ${Math.floor((read.readBytes / read.sizeBytes) * 100)}% (more next time)`;
    }
    // A session not written yet (no read): the payload alone still gives a line.
    const why = whyNotFollowed(payload.transcript_path, figures);
    if (why !== undefined) return `compactlab: ${why}`;
  }
  return formatStatusLine(computeLiveStatus(figures, getPayloadOverrides(payload))) + note;
}

export async function statuslineCommand(_args: string[], out: (text: string) => void): Promise<number> {
  const deadline = performance.now() + STATUSLINE_BUDGET_MS;
  const stdin = await readStdin(deadline);
  if (!stdin.complete) {
    // What came may still be the whole payload (a writer that did not close stdin).
    let parsed = true;
    try {
      JSON.parse(stdin.text);
    } catch {
      parsed = false;
    }
    if (!parsed) out(`compactlab: no statusLine JSON on stdin within ${STATUSLINE_BUDGET_MS / 1000} s`);
    else out(await computeStatusLine(stdin.text, { deadline }));
  } else out(await computeStatusLine(stdin.text, { deadline }));
  // The line is out. Past the budget, a read still stuck on a slow disk would keep the process
  // (and Claude Code waiting for it) alive: it ends once the line is written.
  // (A timer may fire a millisecond before the deadline it was set for.)
  if (performance.now() >= deadline - 5) setTimeout(() => process.exit(0), 50).unref();
  return 0;
}
