import { parseSession } from '../parse/parse-session';
import type { ByteSource } from '../parse/source';
import type { PriceOverrides } from '../summarize/prices';
import { FIRST_PROMPT_CHARS, getLibraryRow, type LibraryRow } from './library-row';

// The scan a session list is made of: the full parse's own pipeline (detection, normalizers, the
// session builder, copy folding), but once the first user turn is known a line is `JSON.parse`d
// only when it holds one of its dialect's `listNeedles` (API calls, compactions, models); the
// others are looked at for a timestamp and skipped. A dialect without needles is parsed whole.

export interface ScanOptions {
  signal?: AbortSignal;
  chunkBytes?: number;
  onProgress?: (bytesRead: number, totalBytes: number) => void;
  prices?: PriceOverrides;
}

const TIMESTAMP_KEY = '"timestamp":"';
/** ISO 8601 with milliseconds and a zone: `2026-01-02T03:04:05.678Z` is 24 characters. */
const TIMESTAMP_MAX_CHARS = 40;

/** The change in nesting depth over `text[from, to)`, strings skipped; `from` is outside a string. */
function depthAcross(text: string, from: number, to: number): number {
  let depth = 0;
  let inString = false;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) depth++;
    else if (c === 125 || c === 93) depth--;
  }
  return depth;
}

function timestampAt(text: string, at: number): number | undefined {
  const start = at + TIMESTAMP_KEY.length;
  const end = text.indexOf('"', start);
  if (end < 0 || end - start > TIMESTAMP_MAX_CHARS) return undefined;
  const ms = Date.parse(text.slice(start, end));
  return Number.isNaN(ms) ? undefined : ms;
}

/**
 * The record's own `timestamp` (at the top level, not one nested in its payload) of a raw line,
 * without parsing it. Claude Code writes it near the end of a record and Codex first, so the last
 * occurrence is checked against the line's end and the first against its start: either walk is
 * short in the usual layout. Undefined when absent or not a date.
 */
export function getRawTimestampMs(text: string): number | undefined {
  const last = text.lastIndexOf(TIMESTAMP_KEY);
  if (last < 0) return undefined;
  const afterValue = text.indexOf('"', last + TIMESTAMP_KEY.length) + 1;
  if (afterValue > 0 && depthAcross(text, afterValue, text.length) === -1) return timestampAt(text, last);
  const first = text.indexOf(TIMESTAMP_KEY);
  if (first !== last && depthAcross(text, 0, first) === 1) return timestampAt(text, first);
  return undefined;
}

/** Scans one session (its main file first, as `parseSession` orders them) into its list row. */
export async function scanSession(sources: ByteSource[], options: ScanOptions = {}): Promise<LibraryRow> {
  let skippedStartMs: number | undefined;
  let skippedEndMs: number | undefined;
  const session = await parseSession(sources, {
    signal: options.signal,
    chunkBytes: options.chunkBytes,
    // The list shows the first prompt's start; leading blanks aside, entries need keep no more.
    previewChars: 2 * FIRST_PROMPT_CHARS,
    onProgress: options.onProgress && ((p) => options.onProgress!(p.bytesRead, p.totalBytes)),
    skipLine: (text, file, dialect) => {
      const needles = dialect.listNeedles;
      if (!needles) return false;
      for (const needle of needles) if (text.includes(needle)) return false;
      if (file.role === 'main') {
        const ms = getRawTimestampMs(text);
        if (ms !== undefined) {
          if (skippedStartMs === undefined || ms < skippedStartMs) skippedStartMs = ms;
          if (skippedEndMs === undefined || ms > skippedEndMs) skippedEndMs = ms;
        }
      }
      return true;
    },
  });
  const row = getLibraryRow(session, options.prices);
  if (skippedStartMs !== undefined && (row.startMs === undefined || skippedStartMs < row.startMs))
    row.startMs = skippedStartMs;
  if (skippedEndMs !== undefined && (row.endMs === undefined || skippedEndMs > row.endMs))
    row.endMs = skippedEndMs;
  return row;
}
