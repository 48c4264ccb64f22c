import { at } from '../assert';
import { type FileRole, type Session, type SessionFile, type SessionMemory, UNKNOWN_DIALECT } from '../types';
import { computeBranches } from './branches';
import {
  baseName,
  detectDialectFromName,
  detectDialectFromRecord,
  detectFileRole,
  isSessionMemoryName,
} from './detect';
import type { DialectDescriptor, MetadataFileText } from './dialects/descriptor';
import type { RecordContext, RecordNormalizer } from './dialects/record';
import { DIALECTS } from './dialects/registry';
import type { Utf16ByteOrder } from './encoding';
import { scanJsonArray } from './json-document';
import { type ScanOptions, scanLines } from './line-reader';
import { readMetadataFile } from './read-meta-file';
import { recoverRecords } from './recover-records';
import { SessionBuilder } from './session-builder';
import type { ByteSource } from './source';
import { applyCompactionCallCosts } from './compaction-cost';
import { createScannedLine, type RecordCache, type ScannedLine } from './record-cache';

export interface ParseProgress {
  bytesRead: number;
  totalBytes: number;
  fileIndex: number;
}

export interface ParseOptions {
  signal?: AbortSignal;
  onProgress?: (progress: ParseProgress) => void;
  /** Bytes read per step (default 4 MiB). Tests use tiny chunks to catch boundary bugs. */
  chunkBytes?: number;
  /** Characters of each text block kept in memory (default 2,000); the rest is re-read on demand. */
  previewChars?: number;
  /** The dialects to detect and read (default: the registry's). */
  dialects?: readonly DialectDescriptor[];
  /**
   * A scan for a list (`engine/library/`): once the session's first user turn is known, each line
   * that looks like one whole JSON object is offered as bytes (`[start, end)` of `bytes`, at
   * `offsetBytes` in its file): `null` skips it (neither decoded nor parsed), a string is parsed in
   * its place (the line with parts the list does not need cut out), undefined parses it whole. A
   * line that does not look whole is always parsed, so its issue is the full parse's.
   */
  listLine?: (
    bytes: Uint8Array,
    start: number,
    end: number,
    offsetBytes: number,
    file: SessionFile,
    dialect: DialectDescriptor,
  ) => string | null | undefined;
  /**
   * Live mode over several files (live-parse.ts): lines this cache holds are not read or
   * JSON-parsed again, only the bytes past them; it keeps what this parse reads.
   */
  recordCache?: RecordCache;
  /** The bytes of line files a `RecordCache` keeps parsed (default `RECORD_CACHE_LIMIT_BYTES`). */
  recordCacheLimitBytes?: number;
}

/** True for bytes that start with `{` and end with `}` (whitespace aside): worth a skip. */
function looksWhole(bytes: Uint8Array, start: number, end: number): boolean {
  while (start < end && bytes[start]! <= 32) start++;
  while (end > start && bytes[end - 1]! <= 32) end--;
  return end - start >= 2 && bytes[start] === 123 && bytes[end - 1] === 125;
}

export const DEFAULT_PREVIEW_CHARS = 2_000;
/** Lines looked at before deciding that a file is not a transcript. */
const DETECTION_WINDOW_LINES = 50;
/** Whole-file JSON (not JSONL) is parsed for a plain diagnosis only below this size. */
const WHOLE_JSON_LIMIT_BYTES = 64 * 1024 * 1024;

export type PendingLine = ScannedLine;

/** Parses the line's JSON once (a kept line comes parsed from the `RecordCache`); false: not JSON. */
function parseLineJson(p: PendingLine): boolean {
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
function isBlankLine(p: PendingLine): boolean {
  const { text } = p;
  return !p.parsed && (text.length === 0 || (text.charCodeAt(0) <= 32 && text.trim() === ''));
}

const ROLE_ORDER: Record<FileRole, number> = {
  main: 0,
  subagent: 1,
  'side-question': 2,
  'compaction-call': 3,
  content: 4,
  'session-memory': 5,
  'subagent-meta': 6,
};

/** Decides each file's role; when no file looks like a main transcript, the first one is. */
function assignRoles(sources: ByteSource[], dialects: readonly DialectDescriptor[]): SessionFile[] {
  const memory = sources.map((s) => isSessionMemoryName(s.name, false, dialects));
  // Once for all files (a storage folder can hold thousands: a copy per file was quadratic).
  const names = sources.map((s) => s.name);
  const withTranscript = memory.some((m) => !m);
  const files = sources.map((source, index): SessionFile => {
    if (memory[index] || isSessionMemoryName(source.name, withTranscript, dialects)) {
      return {
        index,
        name: source.name,
        sizeBytes: source.sizeBytes,
        lines: 0,
        role: 'session-memory',
        dialect: UNKNOWN_DIALECT,
      };
    }
    for (const d of dialects) {
      const metaOf = d.files.metadata?.agentIdOf(source.name);
      if (metaOf === undefined) continue;
      return {
        index,
        name: source.name,
        sizeBytes: source.sizeBytes,
        lines: 0,
        role: 'subagent-meta',
        agentId: metaOf,
        dialect: d.id,
      };
    }
    const { role, agentId } = detectFileRole(source.name, dialects, names);
    return {
      index,
      name: source.name,
      sizeBytes: source.sizeBytes,
      lines: 0,
      role,
      agentId,
      dialect: UNKNOWN_DIALECT,
    };
  });
  const transcripts = files.filter((f) => f.role !== 'session-memory' && f.role !== 'subagent-meta');
  if (transcripts.length > 0 && !transcripts.some((f) => f.role === 'main')) {
    const first =
      transcripts.find((f) => f.role === 'subagent' || f.role === 'side-question') ?? at(transcripts, 0);
    first.role = 'main';
    first.openedAlone = true;
  }
  return files;
}

function snippet(text: string): string {
  const s = text.length > 60 ? `${text.slice(0, 60)}…` : text;
  return JSON.stringify(s);
}

function describeJson(value: unknown): string {
  if (Array.isArray(value)) return `a JSON array of ${value.length} items`;
  if (value && typeof value === 'object') {
    const keys = Object.keys(value).slice(0, 6);
    return `a JSON object (keys: ${keys.join(', ')}${Object.keys(value).length > 6 ? ', …' : ''})`;
  }
  return `a JSON ${typeof value}`;
}

/** "A, B or C", for naming a list of agents or formats in a message. */
function listOf(names: string[], last: string): string {
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} ${last} ${names.at(-1)}`;
}

/**
 * Parses one session: a main transcript plus any subagent / compaction-call files dropped with
 * it. Reads each source as a stream of chunks (a whole-document dialect's file in one read);
 * never throws on bad input (issues are collected). Rejects only when `signal` aborts.
 */
export async function parseSession(sources: ByteSource[], options: ParseOptions = {}): Promise<Session> {
  return (await parseSessionKeeping(sources, options)).session;
}

/** What a parse keeps to take its main file's appended lines (`LiveParse`). */
export interface KeptLineParse {
  builder: SessionBuilder;
  file: SessionFile;
  handleLine: (p: PendingLine) => void;
  /** Offset just past the last newline read. */
  endBytes: number;
  dialects: readonly DialectDescriptor[];
}

/**
 * `parseSession`, also handing back what it takes to read more lines of a one-file session's main
 * file (`kept`; else `whyNot` says why not). For `LiveParse` (live-parse.ts).
 */
export async function parseSessionKeeping(
  rawSources: ByteSource[],
  options: ParseOptions = {},
): Promise<{ session: Session; kept?: KeptLineParse; whyNot: string }> {
  const cache = options.recordCache;
  cache?.begin();
  const sources = cache ? rawSources.map((s) => cache.counted(s)) : rawSources;
  let kept: KeptLineParse | undefined;
  let whyNot = 'the session has more than its main file';
  const previewChars = options.previewChars ?? DEFAULT_PREVIEW_CHARS;
  const dialects = options.dialects ?? DIALECTS;
  const builder = new SessionBuilder();
  const files = assignRoles(sources, dialects);
  for (const file of files) builder.addFile(file);
  const keys = files.map((f) => loadOrderKey(f.name, dialects));
  const order = [...files].sort(
    (a, b) =>
      ROLE_ORDER[a.role] - ROLE_ORDER[b.role] ||
      compareKeys(keys[a.index], keys[b.index]) ||
      a.index - b.index,
  );
  /** The normalizers of dialects that read all their files with one (`sharedNormalizer`). */
  const shared = new Map<string, RecordNormalizer>();
  const finishers: { normalizer: RecordNormalizer; fileIndex: number }[] = [];
  const totalBytes = sources.reduce((sum, s) => sum + s.sizeBytes, 0);
  const parsed = dialects.filter((d) => d.createNormalizer !== undefined);
  const lineAgents = parsed.filter((d) => !d.files.wholeJson && d.agent).map((d) => d.agent!);
  let bytesBefore = 0;
  let sessionMemory: SessionMemory | undefined;
  const metadata: MetadataFileText[] = [];

  for (const file of order) {
    const raw = at(rawSources, file.index);
    let source = at(sources, file.index);
    const fileIndex = file.index;
    if (cache && (file.role === 'subagent-meta' || file.role === 'session-memory'))
      source = await cache.whole(source, raw);
    if (file.role === 'subagent-meta') {
      const meta = await readMetadataFile(source, file, builder);
      if (meta) metadata.push(meta);
      bytesBefore += source.sizeBytes;
      options.onProgress?.({ bytesRead: bytesBefore, totalBytes, fileIndex });
      continue;
    }
    if (file.role === 'session-memory') {
      // Plain text kept whole (Claude Code caps it at a few thousand tokens): no dialect, no records.
      const text = new TextDecoder().decode(await source.read(0, source.sizeBytes));
      options.signal?.throwIfAborted();
      file.lines = text === '' ? 0 : text.split('\n').length;
      sessionMemory ??= { name: source.name, text, chars: text.length };
      bytesBefore += source.sizeBytes;
      options.onProgress?.({ bytesRead: bytesBefore, totalBytes, fileIndex });
      continue;
    }
    let dialect: DialectDescriptor | undefined = detectDialectFromName(source.name, dialects);
    // A name that points to a dialect the engine cannot parse, or to a whole-document one, needs
    // no line scan.
    const nameDecides = dialect !== undefined && (!dialect.createNormalizer || dialect.files.wholeJson);
    let normalizer: RecordNormalizer | undefined;
    const pending: PendingLine[] = [];
    let jsonLines = 0;
    let firstJsonError: string | undefined;
    let decided = false;
    let stopped = false;
    let asDocument = false;

    const ctx: RecordContext = {
      fileIndex,
      line: 0,
      offsetBytes: 0,
      lengthBytes: 0,
      previewChars,
      issue: (code, severity, message, path) =>
        builder.issue(fileIndex, ctx.line, code, severity, message, path),
    };

    // Records held for a dialect whose later records replace earlier ones (`supersedeKey`).
    const held: HeldRecord[] = [];
    const issuesBefore = builder.issues.length;
    const addRecord = (record: unknown, line: number, offsetBytes: number, lengthBytes: number): void => {
      if (dialect?.files.supersedeKey) {
        held.push({ record, line, offsetBytes, lengthBytes, key: dialect.files.supersedeKey(record) });
        return;
      }
      normalizeRecord(record, line, offsetBytes, lengthBytes);
    };
    const normalizeRecord = (
      record: unknown,
      line: number,
      offsetBytes: number,
      lengthBytes: number,
    ): void => {
      ctx.line = line;
      ctx.offsetBytes = offsetBytes;
      ctx.lengthBytes = lengthBytes;
      const { entry, extras, event, preceding } = normalizer!.normalize(record, ctx, builder.entries.length);
      if (event) builder.addEntry(event, {});
      if (preceding) for (const e of preceding) builder.addEntry(e, {});
      builder.addEntry(entry, extras);
    };

    const handleLine = (p: PendingLine): void => {
      const { text, line, offsetBytes, lengthBytes, terminated } = p;
      if (!parseLineJson(p)) {
        const reason = p.error!;
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
        return;
      }
      addRecord(p.value, line, offsetBytes, lengthBytes);
    };

    const decide = (): void => {
      decided = true;
      if (dialect === undefined) {
        const message =
          jsonLines === 0
            ? `${baseName(source.name)} is not a transcript: none of its first lines is JSON (line 1: ${firstJsonError ?? 'empty'})`
            : `${baseName(source.name)} is not a transcript: its lines are JSON, but none is a ${listOf(lineAgents, 'or')} record`;
        builder.issue(fileIndex, 0, 'not-a-transcript', 'error', message);
        stopped = true;
        return;
      }
      file.dialect = dialect.id;
      if (builder.format === UNKNOWN_DIALECT || file.role === 'main') builder.format = dialect.id;
      const create = dialect.createNormalizer;
      if (!create) {
        builder.issue(
          fileIndex,
          0,
          'unsupported-dialect',
          'error',
          `${baseName(source.name)} is a ${dialect.label}; this version reads ${listOf(
            parsed.map((d) => d.label),
            'and',
          )} only`,
        );
        stopped = true;
        return;
      }
      normalizer = dialect.sharedNormalizer ? shared.get(dialect.id) : undefined;
      if (!normalizer) {
        normalizer = create();
        if (dialect.sharedNormalizer) shared.set(dialect.id, normalizer);
        if (normalizer.finish) finishers.push({ normalizer, fileIndex });
      }
      builder.setFileDialect(fileIndex, dialect, normalizer);
      if (dialect.files.wholeJson) {
        // The lines seen so far were only for detection: the document is read as a whole.
        asDocument = true;
        stopped = true;
        pending.length = 0;
        return;
      }
      for (const p of pending) handleLine(p);
      pending.length = 0;
    };

    const readDocument = async (layout: {
      maxBytes: number;
      recordsKey?: string;
      objectIsRecord?: boolean;
    }): Promise<void> => {
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
          `${baseName(source.name)} is ${source.sizeBytes.toLocaleString('en-US')} bytes; a ${dialect!.label} is read whole, up to ${maxBytes.toLocaleString('en-US')} bytes`,
        );
        return;
      }
      const bytes = await source.read(0, source.sizeBytes);
      options.signal?.throwIfAborted();
      options.onProgress?.({ bytesRead: bytesBefore + source.sizeBytes, totalBytes, fileIndex });
      const scan = scanJsonArray(bytes, recordsKey);
      file.lines = scan.lines;
      if (!scan.isArray && layout.objectIsRecord && firstByte(bytes) === 0x7b) {
        readWholeRecord(bytes);
        return;
      }
      if (!scan.isArray) {
        builder.issue(
          fileIndex,
          0,
          'not-a-transcript',
          'error',
          `${baseName(source.name)} is not a ${dialect!.label}: it is not a JSON ${
            recordsKey === undefined ? 'array' : `object with a "${recordsKey}" array`
          }`,
        );
        return;
      }
      const decoder = new TextDecoder();
      for (const element of scan.elements) {
        options.signal?.throwIfAborted();
        const text = decoder.decode(
          bytes.subarray(element.offsetBytes, element.offsetBytes + element.lengthBytes),
        );
        let record: unknown;
        try {
          record = JSON.parse(text);
        } catch (error) {
          const reason = error instanceof Error ? error.message : String(error);
          builder.issue(
            fileIndex,
            element.line,
            element.complete ? 'not-json' : 'truncated-line',
            'error',
            element.complete
              ? `The record at line ${element.line} is not JSON: ${reason} — starts ${snippet(text)}`
              : `The record at line ${element.line} is cut off: the file ends inside it (${reason})`,
          );
          continue;
        }
        addRecord(record, element.line, element.offsetBytes, element.lengthBytes);
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
    };

    /** A file that is one JSON object: the one record, at line 1 (a pasted API request). */
    const readWholeRecord = (bytes: Uint8Array): void => {
      const text = new TextDecoder().decode(bytes);
      let record: unknown;
      try {
        record = JSON.parse(text);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        const line = lineOfPosition(text, /position (\d+)/.exec(reason)?.[1]);
        builder.issue(
          fileIndex,
          line,
          'not-json',
          'error',
          `${baseName(source.name)} is not JSON at line ${line}: ${reason}`,
        );
        return;
      }
      addRecord(record, 1, 0, bytes.length);
    };

    if (nameDecides) {
      decide();
      if (asDocument) {
        if (cache) {
          cache.forget(source.name);
          cache.reasons.push(`${baseName(source.name)} is one JSON document: read whole`);
        }
        await readDocument(dialect!.files.wholeJson!);
      }
      bytesBefore += source.sizeBytes;
      options.onProgress?.({ bytesRead: bytesBefore, totalBytes, fileIndex });
      continue;
    }

    let nonEmpty = 0;
    let opensDocument = false;
    let opensArrayAlone = false;
    let utf16: Utf16ByteOrder | undefined;
    let lastTerminated = true;
    const onLine = (p: PendingLine): boolean | undefined => {
      lastTerminated = p.terminated;
      if (decided) {
        if (stopped) return false;
        if (isBlankLine(p)) return;
        handleLine(p);
        return;
      }
      if (isBlankLine(p)) return;
      const { text } = p;
      if (nonEmpty === 0) {
        opensDocument = /^\s*[[{]/.test(text);
        opensArrayAlone = text.trim() === '[';
      }
      nonEmpty++;
      pending.push(p);
      // A file whose first line is a lone `[` is one JSON array, one element per line: an
      // element's line is not a record of its own (its trailing comma aside, the last one would
      // parse), so the whole file is looked at below.
      if (opensArrayAlone) {
        firstJsonError ??= 'a JSON array, not JSON lines';
        if (nonEmpty >= DETECTION_WINDOW_LINES) return false;
        return;
      }
      if (parseLineJson(p)) {
        const found = detectDialectFromRecord(p.value, dialects);
        jsonLines++;
        if (found) dialect = found;
      } else firstJsonError ??= p.error;
      if (dialect === undefined && nonEmpty >= DETECTION_WINDOW_LINES && jsonLines === 0 && opensDocument) {
        // Maybe one pretty-printed JSON document: stop here and look at it whole below.
        return false;
      }
      if (dialect !== undefined || nonEmpty >= DETECTION_WINDOW_LINES) {
        decide();
        if (stopped) return false;
      }
      return;
    };
    const scanOptions: ScanOptions = {
      chunkBytes: options.chunkBytes,
      signal: options.signal,
      onBytes: (read) => options.onProgress?.({ bytesRead: bytesBefore + read, totalBytes, fileIndex }),
      onInvalidUtf8: (line) =>
        builder.issue(
          fileIndex,
          line,
          'invalid-utf8',
          'warning',
          `Line ${line} is not valid UTF-8: its bad bytes are read as U+FFFD (�)`,
        ),
      onUtf16: (byteOrder) => {
        utf16 = byteOrder;
      },
      readLine:
        options.listLine &&
        ((bytes, start, end, offsetBytes) =>
          decided && !stopped && builder.userTurns > 0 && looksWhole(bytes, start, end)
            ? options.listLine!(bytes, start, end, offsetBytes, file, dialect!)
            : undefined),
    };
    file.lines = cache
      ? await cache.scan(source, raw, onLine, scanOptions)
      : await scanLines(
          source,
          (text, line, offsetBytes, lengthBytes, terminated) =>
            onLine(createScannedLine(text, line, offsetBytes, lengthBytes, terminated)),
          scanOptions,
        );

    if (!decided) {
      if (utf16) {
        builder.issue(
          fileIndex,
          0,
          'not-a-transcript',
          'error',
          `${baseName(source.name)} is UTF-16 (${utf16}) text; transcripts are UTF-8 JSON lines: convert it first (iconv -f UTF-16 -t UTF-8)`,
        );
      } else if (nonEmpty === 0) {
        builder.issue(
          fileIndex,
          0,
          'empty-file',
          'warning',
          `${baseName(source.name)} is empty: there is nothing to show`,
        );
      } else if (jsonLines === 0 && source.sizeBytes <= WHOLE_JSON_LIMIT_BYTES) {
        // Maybe one pretty-printed JSON document rather than JSON lines: say what it is.
        const whole = await diagnoseWholeJson(source, dialects);
        if (whole) {
          dialect = whole.dialect;
          if (dialect && !dialect.files.wholeJson && whole.isObject) {
            // One pretty-printed record of a line dialect: the whole file is that record.
            pending.length = 0;
            decide();
            if (normalizer) addRecord(whole.value, 1, 0, source.sizeBytes);
          } else if (dialect) decide();
          else {
            builder.issue(
              fileIndex,
              0,
              'not-a-transcript',
              'error',
              `${baseName(source.name)} is not a transcript: it is ${whole.description}, not one record per line`,
            );
          }
        } else decide();
      } else decide();
    }
    if (asDocument) {
      if (cache) {
        cache.forget(source.name);
        cache.reasons.push(`${baseName(source.name)} is one JSON document: read whole`);
      }
      await readDocument(dialect!.files.wholeJson!);
    }
    for (const r of keepLatestCopies(held, file))
      normalizeRecord(r.record, r.line, r.offsetBytes, r.lengthBytes);
    // Held records are normalized after the lines that failed to parse: keep the file's issues in
    // line order all the same (a stable sort).
    if (held.length > 0) {
      const own = builder.issues.splice(issuesBefore).sort((a, b) => a.line - b.line);
      builder.issues.push(...own);
    }
    if (sources.length === 1 && file.role === 'main') {
      whyNot =
        !decided || stopped || asDocument || !dialect
          ? 'the file is not (yet) JSON lines of a known agent'
          : dialect.files.supersedeKey || finishers.length > 0
            ? `a ${dialect.label} is read whole`
            : options.listLine
              ? 'a list scan skips lines'
              : !lastTerminated
                ? 'its last line has no newline'
                : '';
      if (whyNot === '') kept = { builder, file, handleLine, endBytes: source.sizeBytes, dialects };
    }
    bytesBefore += source.sizeBytes;
    options.onProgress?.({ bytesRead: bytesBefore, totalBytes, fileIndex });
  }

  for (const { normalizer, fileIndex } of finishers) {
    const ctx: RecordContext = {
      fileIndex,
      line: 0,
      offsetBytes: 0,
      lengthBytes: 0,
      previewChars,
      issue: (code, severity, message, path) =>
        builder.issue(ctx.fileIndex, ctx.line, code, severity, message, path),
    };
    normalizer.finish!(ctx);
  }
  cache?.end();
  const session = finishSession(builder);
  if (sessionMemory) session.sessionMemory = sessionMemory;
  for (const d of dialects) {
    const files = metadata.filter((m) => session.files[m.fileIndex]?.dialect === d.id);
    if (files.length === 0 || !d.files.metadata) continue;
    d.files.metadata.apply(session, files, (fileIndex, reason) =>
      session.issues.push({
        fileIndex,
        line: 0,
        code: 'wrong-shape',
        severity: 'warning',
        message: `${baseName(session.files[fileIndex]?.name ?? '')}: ${reason}`,
      }),
    );
  }
  return { session: deriveSession(session), kept, whyNot };
}

/** The session from the builder's state (a fresh object: caches keyed by session start over). */
export function finishSession(builder: SessionBuilder): Session {
  return builder.build();
}

/** The figures computed over the whole session once its files are read. */
export function deriveSession(session: Session): Session {
  applyCompactionCallCosts(session);
  const branches = computeBranches(session);
  if (branches) session.branches = branches;
  return session;
}

/** A file's read-order key from the dialect whose files name one (`loadOrderKey`). */
function loadOrderKey(path: string, dialects: readonly DialectDescriptor[]): string | undefined {
  for (const d of dialects) {
    const key = d.files.loadOrderKey?.(path);
    if (key !== undefined) return key;
  }
  return undefined;
}

/** Files without a key first (in drop order), then by key. */
function compareKeys(a: string | undefined, b: string | undefined): number {
  if (a === undefined || b === undefined) return (a === undefined ? 0 : 1) - (b === undefined ? 0 : 1);
  return a < b ? -1 : a > b ? 1 : 0;
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

interface HeldRecord {
  record: unknown;
  line: number;
  offsetBytes: number;
  lengthBytes: number;
  key: string | undefined;
}

/**
 * The records of a file whose later records replace earlier ones with the same key: each key's
 * latest record at the place of its first copy; the replaced copies are counted on the file.
 */
function keepLatestCopies(held: readonly HeldRecord[], file: SessionFile): HeldRecord[] {
  const latest = new Map<string, HeldRecord>();
  for (const r of held) if (r.key !== undefined) latest.set(r.key, r);
  const placed = new Set<string>();
  const kept: HeldRecord[] = [];
  for (const r of held) {
    if (r.key === undefined) kept.push(r);
    else if (placed.has(r.key)) file.foldedCopies = (file.foldedCopies ?? 0) + 1;
    else {
      placed.add(r.key);
      kept.push(latest.get(r.key)!);
    }
  }
  return kept;
}

/**
 * What a file that is one JSON document holds. A document that does not parse as a whole (one
 * bad element) is still recognised from its first array element.
 */
async function diagnoseWholeJson(
  source: ByteSource,
  dialects: readonly DialectDescriptor[],
): Promise<
  { dialect?: DialectDescriptor; description: string; value?: unknown; isObject?: boolean } | undefined
> {
  const bytes = await source.read(0, source.sizeBytes);
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

/** Re-reads an entry's raw line and returns it as text (for the raw-JSON view and summarizers). */
export async function readEntryText(
  sources: ByteSource[],
  session: Session,
  entryIndex: number,
): Promise<string> {
  const entry = session.entries[entryIndex];
  if (!entry) throw new RangeError(`No entry ${entryIndex}`);
  const bytes = await at(sources, entry.fileIndex).read(entry.offsetBytes, entry.lengthBytes);
  return new TextDecoder().decode(bytes);
}

/** Re-reads an entry's record as parsed JSON (full content, not the preview). */
export async function readEntryRecord(
  sources: ByteSource[],
  session: Session,
  entryIndex: number,
): Promise<unknown> {
  const text = await readEntryText(sources, session, entryIndex);
  try {
    return JSON.parse(text);
  } catch {
    // A recovered concatenated line holds several records, one entry each, added in line order:
    // this entry's position among the entries of that line picks its record.
    const entry = at(session.entries, entryIndex);
    let k = 0;
    for (let i = entryIndex - 1; i >= 0; i--) {
      const other = at(session.entries, i);
      if (other.fileIndex !== entry.fileIndex || other.line !== entry.line) break;
      k++;
    }
    return recoverRecords(text)?.records[k];
  }
}
