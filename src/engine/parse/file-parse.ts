import { type SessionFile, UNKNOWN_DIALECT } from '../types';
import { baseName, detectDialectFromName, detectDialectFromRecord, findNotSessionByRecord } from './detect';
import type { DialectDescriptor, NotSessionFile } from './dialects/descriptor';
import type { RecordContext, RecordNormalizer } from './dialects/record';
import { describeBinary, type Utf16ByteOrder } from './encoding';
import { FIRST_CHUNK_BYTES, type ScanOptions, scanLines } from './line-reader';
import {
  type AddRecord,
  isBlankLine,
  looksWhole,
  type PendingLine,
  parseLineJson,
  readLineRecords,
} from './line-records';
import type { NormalizerPool } from './normalizer-pool';
import type { ParseOptions, ProgressCounter } from './parse-options';
import { diagnoseWholeJson, readDocument } from './read-document';
import { createScannedLine, type RecordCache } from './record-cache';
import type { SessionBuilder } from './session-builder';
import type { ByteSource } from './source';
import { type HeldRecord, releaseHeld } from './supersede';

// One transcript file's parse: its dialect from its name or its first lines, then its records
// (JSON lines, or one document read whole) through the dialect's normalizer into the builder.

/** Lines looked at before deciding that a file is not a transcript. */
const DETECTION_WINDOW_LINES = 50;
/** Whole-file JSON (not JSONL) is parsed for a plain diagnosis only below this size. */
const WHOLE_JSON_LIMIT_BYTES = 64 * 1024 * 1024;

/** What the files of one parse share. */
export interface ParseRun {
  readonly builder: SessionBuilder;
  readonly options: ParseOptions;
  readonly dialects: readonly DialectDescriptor[];
  readonly previewChars: number;
  readonly normalizers: NormalizerPool;
  readonly progress: ProgressCounter;
  readonly cache: RecordCache | undefined;
  /** The dialects with a normalizer (the rest are recognised only), as messages name them. */
  readonly parsed: readonly DialectDescriptor[];
  /** The agents of those that write JSON lines, as "not a transcript" names them. */
  readonly lineAgents: readonly string[];
}

/** "A, B or C", for naming a list of agents or formats in a message. */
function listOf(names: readonly string[], last: string): string {
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} ${last} ${names.at(-1)}`;
}

export class FileParse {
  private dialect: DialectDescriptor | undefined;
  private normalizer: RecordNormalizer | undefined;
  /** Lines read before the dialect is known, handled once it is. */
  private readonly pending: PendingLine[] = [];
  private nonEmpty = 0;
  private jsonLines = 0;
  private firstJsonError: string | undefined;
  /** An agent's file that is not a session (its prompt history), when a record says so. */
  private notSession: NotSessionFile | undefined;
  private opensDocument = false;
  private opensArrayAlone = false;
  private utf16: Utf16ByteOrder | undefined;
  /** What the file's first bytes say it is when they are not text (encoding.ts), else undefined. */
  private binary: string | undefined;
  /** Records the file gave the normalizer (or held for it). */
  private records = 0;
  private lastTerminated = true;
  /** The dialect is known, or known to be none. */
  private decided = false;
  /** No more lines are read: not a transcript, not parsed, or a document read whole. */
  private stopped = false;
  private asDocument = false;
  /** Where the person stopped the read (`ParseOptions.stop`), when they did. */
  stoppedAtBytes: number | undefined;
  /** The name alone said the dialect: no line was scanned. */
  private byName = false;
  /** Records held for a dialect whose later records replace earlier ones (`supersedeKey`). */
  private readonly held: HeldRecord[] = [];
  private readonly issuesBefore: number;
  private readonly builder: SessionBuilder;
  private readonly fileIndex: number;
  private readonly ctx: RecordContext;

  constructor(
    private readonly run: ParseRun,
    readonly file: SessionFile,
    private readonly source: ByteSource,
  ) {
    const builder = run.builder;
    const fileIndex = file.index;
    this.builder = builder;
    this.fileIndex = fileIndex;
    const ctx: RecordContext = {
      fileIndex,
      line: 0,
      offsetBytes: 0,
      lengthBytes: 0,
      previewChars: run.previewChars,
      role: file.role,
      issue: (code, severity, message, path) =>
        builder.issue(fileIndex, ctx.line, code, severity, message, path),
    };
    this.ctx = ctx;
    this.issuesBefore = builder.issues.length;
  }

  /**
   * Reads the file (`raw`: its source before the record cache's counting wrapper): by its name
   * alone when that says a whole-document or unparsed dialect, else line by line.
   */
  async read(raw: ByteSource): Promise<void> {
    const dialect = detectDialectFromName(this.source.name, this.run.dialects);
    this.dialect = dialect;
    // A name that points to a dialect the engine cannot parse, or to a whole-document one, needs
    // no line scan.
    this.byName =
      dialect !== undefined && (!dialect.createNormalizer || dialect.files.wholeJson !== undefined);
    if (this.byName) this.decide();
    else {
      this.file.lines = await this.scan(raw);
      if (!this.decided) await this.decideAtEnd();
    }
    if (this.asDocument) await this.readWholeDocument();
    releaseHeld(this.held, this.file, this.builder, this.issuesBefore, (r) =>
      this.normalizeRecord(r.record, r.line, r.offsetBytes, r.lengthBytes),
    );
    if (this.binary !== undefined && this.records === 0 && !this.asDocument) this.sayBinary(this.binary);
  }

  /**
   * A file of binary data (a compressed log, a picture, random bytes under a transcript's name)
   * that gave no record: one error saying what it is, in place of what its "lines" made (a
   * not-JSON error and an invalid-UTF-8 warning each: 1,656 for 200 kB named as a Codex rollout,
   * the file's own error listed after 50 of them).
   */
  private sayBinary(what: string): void {
    const { builder, fileIndex, source } = this;
    const issues = builder.issues;
    let kept = this.issuesBefore;
    for (let i = this.issuesBefore; i < issues.length; i++)
      if (issues[i]!.fileIndex !== fileIndex) issues[kept++] = issues[i]!;
    issues.length = kept;
    builder.issue(
      fileIndex,
      0,
      'not-a-transcript',
      'error',
      `${baseName(source.name)} is not a transcript: it is ${what}`,
    );
  }

  /**
   * Why the file's appended lines cannot be read on from here ('' when they can); undefined when
   * the name decided and no line was scanned.
   */
  whyNotKept(): string | undefined {
    if (this.byName) return undefined;
    const { dialect } = this;
    return !this.decided || this.stopped || this.asDocument || !dialect
      ? 'the file is not (yet) JSON lines of a known agent'
      : dialect.files.supersedeKey || this.run.normalizers.hasFinishers
        ? `a ${dialect.label} is read whole`
        : this.run.options.listLine
          ? 'a list scan skips lines'
          : !this.lastTerminated
            ? 'its last line has no newline'
            : '';
  }

  /** A line of the file, read after its dialect is decided (live mode reads on with it). */
  readonly handleLine = (p: PendingLine): void => {
    readLineRecords(p, this.fileIndex, this.builder, this.addRecord);
  };

  private readonly addRecord: AddRecord = (record, line, offsetBytes, lengthBytes) => {
    this.records++;
    const supersedeKey = this.dialect?.files.supersedeKey;
    if (supersedeKey) {
      this.held.push({ record, line, offsetBytes, lengthBytes, key: supersedeKey(record) });
      return;
    }
    this.normalizeRecord(record, line, offsetBytes, lengthBytes);
  };

  private normalizeRecord(record: unknown, line: number, offsetBytes: number, lengthBytes: number): void {
    const { ctx, builder } = this;
    ctx.line = line;
    ctx.offsetBytes = offsetBytes;
    ctx.lengthBytes = lengthBytes;
    let normalized: ReturnType<RecordNormalizer['normalize']>;
    try {
      normalized = this.normalizer!.normalize(record, ctx, builder.entries.length);
    } catch (error) {
      // One record that cannot be read (nested deeper than the stack allows, say) is one issue at
      // its line; the records around it, and the session, still load.
      builder.issue(this.fileIndex, line, 'unreadable-record', 'error', unreadableMessage(line, error));
      return;
    }
    const { entry, extras, event, preceding } = normalized;
    if (event) builder.addEntry(event, {});
    if (preceding) for (const e of preceding) builder.addEntry(e, {});
    if (entry) builder.addEntry(entry, extras);
  }

  private scan(raw: ByteSource): Promise<number> {
    const { options, cache, progress } = this.run;
    const { builder, fileIndex, file, source } = this;
    const listLine = options.listLine;
    // The list's scan skips lines: the session's uuids are not all known (session-title.ts).
    if (listLine) builder.skipsLines = true;
    const scanOptions: ScanOptions = {
      chunkBytes: options.chunkBytes,
      firstChunkBytes: FIRST_CHUNK_BYTES,
      signal: options.signal,
      // Live mode's cache keeps what a parse read: a stopped read is never one it keeps.
      stop: cache ? undefined : options.stop,
      onStop: (position) => {
        this.stoppedAtBytes = position;
        builder.issue(
          fileIndex,
          0,
          'read-stopped',
          'warning',
          `Reading ${source.name} was stopped at ${Math.floor((100 * position) / Math.max(1, source.sizeBytes))}% (byte ${position.toLocaleString('en-US')} of ${source.sizeBytes.toLocaleString('en-US')}): the session holds the lines before it`,
        );
      },
      onBytes: (read) => progress.report(read, fileIndex),
      onInvalidUtf8: (line) =>
        builder.issue(
          fileIndex,
          line,
          'invalid-utf8',
          'warning',
          `Line ${line} is not valid UTF-8: its bad bytes are read as U+FFFD (�)`,
        ),
      onUtf16: (byteOrder) => {
        this.utf16 = byteOrder;
      },
      onHead: (head) => {
        this.binary = describeBinary(head);
      },
      onShrunk: (sizeBytes) => {
        builder.issue(
          fileIndex,
          0,
          'file-shrunk',
          'warning',
          `${source.name} was cut to ${sizeBytes} bytes while it was read (it had ${source.sizeBytes} when opened): what it had after that is not read`,
        );
        file.sizeBytes = sizeBytes;
      },
      readLine:
        listLine &&
        ((bytes, start, end, offsetBytes) =>
          this.decided && !this.stopped && builder.firstPrompt !== undefined && looksWhole(bytes, start, end)
            ? listLine(bytes, start, end, offsetBytes, file, this.dialect!)
            : undefined),
    };
    return cache
      ? cache.scan(source, raw, this.onLine, scanOptions)
      : scanLines(
          source,
          (text, line, offsetBytes, lengthBytes, terminated) =>
            this.onLine(createScannedLine(text, line, offsetBytes, lengthBytes, terminated)),
          scanOptions,
        );
  }

  /** One scanned line; false stops the scan. */
  private readonly onLine = (p: PendingLine): boolean | undefined => {
    this.lastTerminated = p.terminated;
    if (this.decided) {
      if (this.stopped) return false;
      if (isBlankLine(p)) return;
      this.handleLine(p);
      return;
    }
    if (isBlankLine(p)) return;
    return this.detect(p);
  };

  /** A line read before the dialect is known: held, and asked what dialect it proves. */
  private detect(p: PendingLine): boolean | undefined {
    if (this.nonEmpty === 0) {
      this.opensDocument = /^\s*[[{]/.test(p.text);
      this.opensArrayAlone = p.text.trim() === '[';
    }
    this.nonEmpty++;
    this.pending.push(p);
    // A file whose first line is a lone `[` is one JSON array, one element per line: an
    // element's line is not a record of its own (its trailing comma aside, the last one would
    // parse), so the whole file is looked at at its end.
    if (this.opensArrayAlone) {
      this.firstJsonError ??= 'a JSON array, not JSON lines';
      if (this.nonEmpty >= DETECTION_WINDOW_LINES) return false;
      return;
    }
    if (parseLineJson(p)) {
      const found = detectDialectFromRecord(p.value, this.run.dialects);
      this.jsonLines++;
      if (found) this.dialect = found;
      else this.notSession ??= findNotSessionByRecord(p.value, this.run.dialects);
    } else this.firstJsonError ??= p.error;
    const windowFull = this.nonEmpty >= DETECTION_WINDOW_LINES;
    if (this.dialect === undefined && windowFull && this.jsonLines === 0 && this.opensDocument) {
      // Maybe one pretty-printed JSON document: stop here and look at it whole at the end.
      return false;
    }
    if (this.dialect !== undefined || windowFull) {
      this.decide();
      if (this.stopped) return false;
    }
    return;
  }

  /** The dialect is known (or known to be none): set up its normalizer, handle the held lines. */
  private decide(): void {
    this.decided = true;
    const { builder, fileIndex, file, source, dialect } = this;
    if (dialect === undefined) {
      const message =
        this.jsonLines === 0
          ? `${baseName(source.name)} is not a transcript: none of its first lines is JSON (line 1: ${this.firstJsonError ?? 'empty'})`
          : this.notSession
            ? `${baseName(source.name)} is not a transcript: it is ${this.notSession.what}`
            : `${baseName(source.name)} is not a transcript: its lines are JSON, but none is a ${listOf(this.run.lineAgents, 'or')} record`;
      builder.issue(fileIndex, 0, 'not-a-transcript', 'error', message);
      if (this.jsonLines > 0 && this.notSession) file.notSession = this.notSession.what;
      this.stopped = true;
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
          this.run.parsed.map((d) => d.label),
          'and',
        )} only`,
      );
      this.stopped = true;
      return;
    }
    this.normalizer = this.run.normalizers.forFile(dialect, create, fileIndex);
    builder.setFileDialect(fileIndex, dialect, this.normalizer);
    if (dialect.files.wholeJson) {
      // The lines seen so far were only for detection: the document is read as a whole.
      this.asDocument = true;
      this.stopped = true;
      this.pending.length = 0;
      return;
    }
    for (const p of this.pending) this.handleLine(p);
    this.pending.length = 0;
  }

  /** The end of a file whose first lines decided nothing: say what it is, or read it whole. */
  private async decideAtEnd(): Promise<void> {
    const { builder, fileIndex, source } = this;
    if (this.utf16) {
      builder.issue(
        fileIndex,
        0,
        'not-a-transcript',
        'error',
        `${baseName(source.name)} is UTF-16 (${this.utf16}) text; transcripts are UTF-8 JSON lines: convert it first (iconv -f UTF-16 -t UTF-8)`,
      );
    } else if (this.nonEmpty === 0) {
      builder.issue(
        fileIndex,
        0,
        'empty-file',
        'warning',
        `${baseName(source.name)} is empty: there is nothing to show`,
      );
    } else if (this.jsonLines === 0 && source.sizeBytes <= WHOLE_JSON_LIMIT_BYTES) {
      // Maybe one pretty-printed JSON document rather than JSON lines: say what it is.
      const whole = await diagnoseWholeJson(source, this.run.dialects);
      if (!whole) return this.decide();
      const dialect = whole.dialect;
      this.dialect = dialect;
      if (dialect && !dialect.files.wholeJson && whole.isObject) {
        // One pretty-printed record of a line dialect: the whole file is that record.
        this.pending.length = 0;
        this.decide();
        if (this.normalizer) this.addRecord(whole.value, 1, 0, source.sizeBytes);
      } else if (dialect) this.decide();
      else {
        // An agent's file that is no session (a saved chat), named as it is.
        const not =
          whole.value === undefined ? undefined : findNotSessionByRecord(whole.value, this.run.dialects);
        builder.issue(
          fileIndex,
          0,
          'not-a-transcript',
          'error',
          `${baseName(source.name)} is not a transcript: it is ${not ? not.what : `${whole.description}, not one record per line`}`,
        );
      }
    } else this.decide();
  }

  private async readWholeDocument(): Promise<void> {
    const { cache, options, progress } = this.run;
    const { source, fileIndex } = this;
    const dialect = this.dialect!;
    if (cache) {
      cache.forget(source.name);
      cache.reasons.push(`${baseName(source.name)} is one JSON document: read whole`);
    }
    await readDocument(
      {
        source,
        file: this.file,
        dialect,
        builder: this.builder,
        signal: options.signal,
        onRead: () => progress.report(source.sizeBytes, fileIndex),
        addRecord: this.addRecord,
      },
      dialect.files.wholeJson!,
    );
  }
}

/** Why record `line` could not be read, in words (a stack overflow says: nested too deep). */
function unreadableMessage(line: number, error: unknown): string {
  const reason =
    error instanceof RangeError && /call stack/i.test(error.message)
      ? 'it is nested too deep to read'
      : `reading it failed (${error instanceof Error ? error.message : String(error)})`;
  return `Line ${line}: its record is skipped: ${reason}`;
}
