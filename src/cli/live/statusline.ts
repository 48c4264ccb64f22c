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

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) return '';
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
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

/** The status line for one payload (its text, already parsed). */
export async function computeStatusLine(payloadText: string): Promise<string> {
  let payload: unknown;
  try {
    payload = JSON.parse(payloadText);
  } catch {
    return 'compactlab: statusline expects the statusLine JSON on stdin';
  }
  if (!isObject(payload)) return 'compactlab: statusline expects the statusLine JSON on stdin';
  let figures: LiveFigures = createLiveFigures();
  if (typeof payload.transcript_path === 'string' && payload.transcript_path) {
    try {
      figures = await readLiveFiguresCached(payload.transcript_path);
    } catch {
      // A session not written yet: the payload alone still gives a line.
    }
    const why = whyNotFollowed(payload.transcript_path, figures);
    if (why !== undefined) return `compactlab: ${why}`;
  }
  return formatStatusLine(computeLiveStatus(figures, getPayloadOverrides(payload)));
}

export async function statuslineCommand(_args: string[], out: (text: string) => void): Promise<number> {
  out(await computeStatusLine(await readStdin()));
  return 0;
}
