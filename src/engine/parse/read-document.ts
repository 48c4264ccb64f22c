import type { SessionFile } from '../types';
import { baseName, detectDialectFromRecord } from './detect';
import type { DialectDescriptor, DialectFiles } from './dialects/descriptor';
import { isObject } from './dialects/record';
import { BINARY_SNIFF_BYTES, describeBinary, detectUtf16, ENCODING_SNIFF_BYTES } from './encoding';
import { describeElement, recoverAfterUnclosed, scanJsonArray } from './json-document';
import { type AddRecord, snippet } from './line-records';
import type { SessionBuilder } from './session-builder';
import type { ByteSource } from './source';

// A file that is one JSON value, not JSON lines (`DialectFiles.wholeJson`): read whole, each
// array element a record with its own byte range and line; and what a file that is one JSON
// document holds when no dialect claimed its lines.

interface DocumentRead {
  source: ByteSource;
  file: SessionFile;
  dialect: DialectDescriptor;
  builder: SessionBuilder;
  signal?: AbortSignal;
  /** The whole file was read (progress). */
  onRead: () => void;
  addRecord: AddRecord;
}

/**
 * Where a record of a document is: its line, and its place in the array (a document written on
 * one line, as Cline writes its histories, has every record at line 1).
 */
function where(index: number, line: number, key?: string): string {
  return `The record at line ${line} (${describeElement(index + 1, key)})`;
}

/** Reads a whole-document file's records (`layout` is the dialect's `files.wholeJson`). */
export async function readDocument(
  read: DocumentRead,
  layout: NonNullable<DialectFiles['wholeJson']>,
): Promise<void> {
  const { source, file, dialect, builder, addRecord } = read;
  const fileIndex = file.index;
  const { maxBytes, recordsKey } = layout;
  if (source.sizeBytes === 0) {
    builder.issue(
      fileIndex,
      0,
      'empty-file',
      'warning',
      `${baseName(source.name)} is empty: there is nothing to show`,
    );
    return;
  }
  if (source.sizeBytes > maxBytes) {
    builder.issue(
      fileIndex,
      0,
      'document-too-large',
      'error',
      `${baseName(source.name)} is ${source.sizeBytes.toLocaleString('en-US')} bytes; a ${dialect.label} is read whole, up to ${maxBytes.toLocaleString('en-US')} bytes`,
    );
    return;
  }
  const bytes = await source.read(0, source.sizeBytes);
  read.signal?.throwIfAborted();
  read.onRead();
  const refusal = describeNotJsonText(bytes, baseName(source.name));
  if (refusal) {
    builder.issue(
      fileIndex,
      0,
      refusal.code,
      refusal.code === 'empty-file' ? 'warning' : 'error',
      refusal.message,
    );
    return;
  }
  const scan = scanJsonArray(bytes, recordsKey);
  file.lines = scan.lines;
  if (!scan.isArray && layout.objectIsRecord && firstByte(bytes) === 0x7b) {
    readWholeRecord(read, bytes);
    return;
  }
  if (!scan.isArray) {
    builder.issue(
      fileIndex,
      0,
      'not-a-transcript',
      'error',
      `${baseName(source.name)} is not a ${dialect.label}: it is not a JSON ${
        recordsKey === undefined ? 'array' : `object with a "${recordsKey}" array`
      }`,
    );
    return;
  }
  const decoder = new TextDecoder();
  const stated =
    scan.keyed && (layout.sessionIdKey !== undefined || layout.titleKey !== undefined)
      ? readBesideRecords(bytes, scan.keyed, decoder)
      : undefined;
  const statedId = layout.sessionIdKey === undefined ? undefined : stated?.[layout.sessionIdKey];
  if (typeof statedId === 'string') file.sessionId ??= statedId;
  const statedTitle = layout.titleKey === undefined ? undefined : stated?.[layout.titleKey];
  // Its line: the document's first (the key's own is not scanned for).
  if (typeof statedTitle === 'string' && file.role === 'main')
    builder.noteTitle({ text: statedTitle, source: layout.titleKey!, rank: 1 }, 1);
  let readBack = false;
  for (let index = 0; index < scan.elements.length; index++) {
    read.signal?.throwIfAborted();
    let element = scan.elements[index]!;
    const textOf = (e: typeof element) =>
      decoder.decode(bytes.subarray(e.offsetBytes, e.offsetBytes + e.lengthBytes));
    let text = textOf(element);
    let parsed = parseElement(text);
    // The first damaged element: the records after it are read back from the array's end (once,
    // so linear), whatever the forward scan made of them; it ends where they start.
    if ('reason' in parsed && !readBack) {
      readBack = true;
      if (readBackAfter(bytes, scan, index, recordsKey)) {
        element = scan.elements[index]!;
        text = textOf(element);
        parsed = parseElement(text);
      }
    }
    const at = where(index, element.line, recordsKey);
    const next = element.unclosedBefore;
    if ('record' in parsed) {
      // Two whole records without the comma between them.
      if (next !== undefined)
        builder.issue(
          fileIndex,
          next,
          'not-json',
          'warning',
          `${at} has no comma after it, before the record at line ${next}; both were read`,
        );
      addRecord(parsed.record, element.line, element.offsetBytes, element.lengthBytes);
      continue;
    }
    const { reason } = parsed;
    builder.issue(
      fileIndex,
      element.line,
      element.complete || next !== undefined ? 'not-json' : 'truncated-line',
      'error',
      next !== undefined && !element.complete
        ? `${at} is not JSON: its brackets do not close before the next record, at line ${next}; the records from there on were read`
        : next !== undefined
          ? `${at} is not JSON: ${reason} — starts ${snippet(text)}; the next record, at line ${next}, and those after it were read`
          : element.complete
            ? `${at} is not JSON: ${reason} — starts ${snippet(text)}`
            : `${at} is cut off: the file ends inside it (${reason})`,
    );
  }
  if (scan.truncated && scan.elements.at(-1)?.complete !== false) {
    builder.issue(
      fileIndex,
      scan.lines,
      'truncated-line',
      'error',
      `${baseName(source.name)} ends before the array's closing bracket`,
    );
  }
  if (scan.trailingLine !== undefined) {
    builder.issue(
      fileIndex,
      scan.trailingLine,
      'not-json',
      'warning',
      `Line ${scan.trailingLine} has text after the document's closing bracket; it was ignored`,
    );
  }
}

function parseElement(text: string): { record: unknown } | { reason: string } {
  try {
    return { record: JSON.parse(text) };
  } catch (error) {
    return { reason: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * After the damaged element at `index`: the elements read back from the array's end replace the
 * forward scan's from the first of them on (the forward elements wholly before it stay: between
 * two damaged ones, or a bad one between good ones), and the damaged one ends where they start.
 * The array's end was read, so the scan is no longer cut off nor followed by text. False when
 * nothing could be read back.
 */
function readBackAfter(
  bytes: Uint8Array,
  scan: ReturnType<typeof scanJsonArray>,
  index: number,
  key: string | undefined,
): boolean {
  const damaged = scan.elements[index]!;
  const after = recoverAfterUnclosed(bytes, damaged.offsetBytes, key);
  const first = after[0];
  if (!first) return false;
  let keep = index + 1;
  while (
    keep < scan.elements.length &&
    scan.elements[keep]!.offsetBytes + scan.elements[keep]!.lengthBytes <= first.offsetBytes
  )
    keep++;
  if (damaged.offsetBytes + damaged.lengthBytes > first.offsetBytes) {
    // Glued to the next record (no comma between them), or holding every later one (unclosed).
    damaged.lengthBytes = trimmedLength(bytes, damaged.offsetBytes, first.offsetBytes);
    damaged.unclosedBefore = first.line;
  }
  scan.elements.splice(keep, scan.elements.length - keep, ...after);
  scan.truncated = false;
  scan.trailingLine = undefined;
  return true;
}

/** The length of `bytes[from, to)` without the whitespace and commas that end it. */
function trimmedLength(bytes: Uint8Array, from: number, to: number): number {
  let end = to;
  while (end > from + 1 && (bytes[end - 1]! <= 0x20 || bytes[end - 1] === 0x2c)) end--;
  return end - from;
}

/**
 * Why a whole document's bytes are no JSON text at all, as the line reader says it of a JSON-lines
 * file: UTF-16 text (with the command that converts it), binary data, or only whitespace. A
 * UTF-16 `ui_messages.json` was "not a JSON array", and without a byte-order mark one not-JSON
 * error per element.
 */
function describeNotJsonText(
  bytes: Uint8Array,
  name: string,
): { code: 'not-a-transcript' | 'empty-file'; message: string } | undefined {
  const utf16 = detectUtf16(bytes.subarray(0, ENCODING_SNIFF_BYTES));
  if (utf16)
    return {
      code: 'not-a-transcript',
      message: `${name} is UTF-16 (${utf16}) text; transcripts are UTF-8 JSON: convert it first (iconv -f UTF-16 -t UTF-8)`,
    };
  // A document cut off by NUL padding is read (its zeros named): only a head of binary is refused.
  const binary = describeBinary(bytes.subarray(0, BINARY_SNIFF_BYTES));
  if (binary && firstByte(bytes) !== 0x5b && firstByte(bytes) !== 0x7b)
    return { code: 'not-a-transcript', message: `${name} is not a transcript: it is ${binary}` };
  if (firstByte(bytes) === undefined)
    return { code: 'empty-file', message: `${name} holds only whitespace: there is nothing to show` };
  return undefined;
}

/**
 * What the document's object states beside its records (the object without the array, parsed
 * once): the session id (other-sessions.ts tells sessions apart by it) and its name. Undefined
 * when it is not an object.
 */
function readBesideRecords(
  bytes: Uint8Array,
  keyed: { start: number; end: number },
  decoder: TextDecoder,
): Record<string, unknown> | undefined {
  const rest = `${decoder.decode(bytes.subarray(0, keyed.start))}[]${decoder.decode(bytes.subarray(keyed.end))}`;
  try {
    const value: unknown = JSON.parse(rest);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** A file that is one JSON object: the one record, at line 1 (a pasted API request). */
function readWholeRecord(read: DocumentRead, whole: Uint8Array): void {
  const bytes = withoutTrailingNul(whole);
  if (bytes.length < whole.length)
    read.builder.issue(
      read.file.index,
      0,
      'not-json',
      'warning',
      `${baseName(read.source.name)} ends with ${whole.subarray(bytes.length).filter((b) => b === 0).length} NUL bytes after its JSON (a write cut off, or space kept for one): they were ignored`,
    );
  const text = new TextDecoder().decode(bytes);
  let record: unknown;
  try {
    record = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const line = lineOfPosition(text, /position (\d+)/.exec(reason)?.[1]);
    read.builder.issue(
      read.file.index,
      line,
      'not-json',
      'error',
      `${baseName(read.source.name)} is not JSON at line ${line}: ${reason}`,
    );
    return;
  }
  read.addRecord(record, 1, 0, bytes.length);
}

/**
 * `bytes` without the NUL bytes (and blanks among them) that end it, when NULs are there: a file
 * whose write was cut off, or whose space was kept ahead of the write, ends in zeros after its JSON
 * (a real OpenCode message file did). Without a NUL, `bytes` as they are.
 */
function withoutTrailingNul(bytes: Uint8Array): Uint8Array {
  let end = bytes.length;
  let nul = false;
  for (; end > 0; end--) {
    const b = bytes[end - 1];
    if (b === 0) nul = true;
    else if (b !== 0x20 && b !== 0x0a && b !== 0x0d && b !== 0x09) break;
  }
  return nul ? bytes.subarray(0, end) : bytes;
}

/** The first byte that is not whitespace (or a UTF-8 byte order mark). */
function firstByte(bytes: Uint8Array): number | undefined {
  let i = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (
    i < bytes.length &&
    (bytes[i] === 0x20 || bytes[i] === 0x0a || bytes[i] === 0x0d || bytes[i] === 0x09)
  )
    i++;
  return bytes[i];
}

/** The 1-based line of a character position a JSON error names (1 when it names none). */
function lineOfPosition(text: string, position: string | undefined): number {
  if (position === undefined) return 1;
  const end = Math.min(Number(position), text.length);
  let line = 1;
  for (let i = 0; i < end; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

function describeJson(value: unknown): string {
  if (Array.isArray(value)) return `a JSON array of ${value.length} items`;
  if (value && typeof value === 'object') {
    const keys = Object.keys(value).slice(0, 6);
    return `a JSON object (keys: ${keys.join(', ')}${Object.keys(value).length > 6 ? ', …' : ''})`;
  }
  return `a JSON ${typeof value}`;
}

/**
 * What a file that is one JSON document holds. A document that does not parse as a whole (one
 * bad element) is still recognised from its first array element.
 */
export async function diagnoseWholeJson(
  source: ByteSource,
  dialects: readonly DialectDescriptor[],
): Promise<
  { dialect?: DialectDescriptor; description: string; value?: unknown; isObject?: boolean } | undefined
> {
  const bytes = withoutTrailingNul(await source.read(0, source.sizeBytes));
  const text = new TextDecoder().decode(bytes);
  try {
    const value: unknown = JSON.parse(text);
    return {
      dialect: detectDialectFromRecord(value, dialects),
      description: describeJson(value),
      value,
      isObject: value !== null && typeof value === 'object' && !Array.isArray(value),
    };
  } catch {
    const first = scanJsonArray(bytes).elements[0];
    if (!first?.complete) return undefined;
    try {
      const value: unknown = JSON.parse(
        new TextDecoder().decode(bytes.subarray(first.offsetBytes, first.offsetBytes + first.lengthBytes)),
      );
      const dialect = detectDialectFromRecord([value], dialects);
      return dialect ? { dialect, description: 'a JSON array' } : undefined;
    } catch {
      return undefined;
    }
  }
}
