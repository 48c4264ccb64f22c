import type { ScannedLine } from './record-cache';
import { recoverRecords } from './recover-records';
import type { SessionBuilder } from './session-builder';

// One scanned line of a JSON-lines file: parsed once, and when it does not parse, said why
// (cut off at the end, records run together, not JSON) with what could be recovered.

export type PendingLine = ScannedLine;

/** Parses the line's JSON once (a kept line comes parsed from the `RecordCache`); false: not JSON. */
export function parseLineJson(p: PendingLine): boolean {
  if (!p.parsed) {
    try {
      p.value = JSON.parse(p.text);
    } catch (error) {
      p.error = error instanceof Error ? error.message : String(error);
    }
    p.parsed = true;
  }
  return p.error === undefined;
}

/** Blank or whitespace only (a line with a parsed value is neither; a kept one has no text). */
export function isBlankLine(p: PendingLine): boolean {
  const { text } = p;
  return !p.parsed && (text.length === 0 || (text.charCodeAt(0) <= 32 && text.trim() === ''));
}

/** True for bytes that start with `{` and end with `}` (whitespace aside): worth a skip. */
export function looksWhole(bytes: Uint8Array, start: number, end: number): boolean {
  while (start < end && bytes[start]! <= 32) start++;
  while (end > start && bytes[end - 1]! <= 32) end--;
  return end - start >= 2 && bytes[start] === 123 && bytes[end - 1] === 125;
}

/** A text's start, quoted, for a message. */
export function snippet(text: string): string {
  const s = text.length > 60 ? `${text.slice(0, 60)}…` : text;
  return JSON.stringify(s);
}

export type AddRecord = (record: unknown, line: number, offsetBytes: number, lengthBytes: number) => void;

/** The records of one line, to `addRecord`; a line that is not JSON becomes an issue. */
export function readLineRecords(
  p: PendingLine,
  fileIndex: number,
  builder: SessionBuilder,
  addRecord: AddRecord,
): void {
  const { text, line, offsetBytes, lengthBytes, terminated } = p;
  if (parseLineJson(p)) {
    addRecord(p.value, line, offsetBytes, lengthBytes);
    return;
  }
  const reason = p.error!;
  const nul = countNulOnly(text);
  if (nul > 0) {
    // Zeros where a write was cut off (a crash before the data reached the disk) or space kept for
    // one: no record was there to lose.
    builder.issue(
      fileIndex,
      line,
      'not-json',
      'warning',
      `Line ${line} holds only NUL bytes (${nul.toLocaleString('en-US')}): a write cut off, or space kept for one; it was ignored`,
    );
    return;
  }
  if (!terminated) {
    builder.issue(
      fileIndex,
      line,
      'truncated-line',
      'error',
      `Line ${line} is cut off: the file ends without a newline in the middle of a record (${reason})`,
    );
    return;
  }
  const recovered = recoverRecords(text);
  if (recovered) {
    builder.issue(
      fileIndex,
      line,
      'concatenated-records',
      recovered.headLost ? 'error' : 'warning',
      recovered.headLost
        ? `Line ${line} holds a record cut off mid-write, followed by another record on the same line; the second record was recovered, the first is lost`
        : `Line ${line} holds ${recovered.records.length} records written without a newline between them; all were recovered`,
    );
    for (const r of recovered.records) addRecord(r, line, offsetBytes, lengthBytes);
    return;
  }
  builder.issue(
    fileIndex,
    line,
    'not-json',
    'error',
    `Line ${line} is not JSON: ${reason} — starts ${snippet(text)}`,
  );
}

/** The NUL characters of a text made only of NULs and whitespace (0 when it holds anything else). */
function countNulOnly(text: string): number {
  let nul = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0) nul++;
    else if (c !== 0x20 && c !== 0x09 && c !== 0x0d) return 0;
  }
  return nul;
}
