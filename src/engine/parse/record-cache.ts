import { HEAD_BYTES, hashBytes } from './incremental-reader';
import { type ScanOptions, scanLines } from './line-reader';
import { createMemorySource, type ByteSource } from './source';

// Live mode over a session of several files (issue 12): a Claude Code session's subagent logs are
// read after the main file's entries, so a grown main file moves every subagent entry and the
// session builder cannot simply take the new lines. What it can skip is the expensive part of a
// parse: reading, decoding and JSON-parsing bytes it has already read. A `RecordCache` keeps, per
// line file, each non-blank line's JSON-parsed value with its line number and byte range; a parse
// given the cache (`ParseOptions.recordCache`) hands those to its line handler as a scan would,
// then scans only the bytes past them. Detection, normalizers and the builder run again over the
// kept values, so the session is a fresh parse's by construction (normalizers only read records:
// tests/parse/live-session.test.ts re-feeds the same values on every step and compares).
//
// Kept, per line file: the parsed values (their memory is about that of the file's text; bounded by
// `limitBytes`), the text of lines that did not parse (recovery and the snippet need it) and
// of the first line (detection), the end offset and a hash of the first bytes. Small whole-read
// files (a subagent's `.meta.json`, session memory) are kept as bytes.

/**
 * One line as the parse's handler sees it. `parsed` once JSON-parsed (then kept): `value`, or the
 * parser's message in `error`. Every field is set at creation: one object shape on the hot path.
 */
export interface ScannedLine {
  text: string;
  line: number;
  offsetBytes: number;
  lengthBytes: number;
  terminated: boolean;
  parsed: boolean;
  value: unknown;
  error: string | undefined;
}

/** A line as the line reader gives it, not parsed yet. */
export function createScannedLine(
  text: string,
  line: number,
  offsetBytes: number,
  lengthBytes: number,
  terminated: boolean,
): ScannedLine {
  return {
    text,
    line,
    offsetBytes,
    lengthBytes,
    terminated,
    parsed: false,
    value: undefined,
    error: undefined,
  };
}

/** The handler of a parse's line scan; `false` stops the scan. */
type ScannedLineSink = (p: ScannedLine) => boolean | undefined;

interface KeptLine extends ScannedLine {
  /** The line's bytes are not valid UTF-8 (its issue is said again on each parse). */
  badUtf8?: boolean;
}

interface KeptFile {
  /** Offset just past the last newline read. */
  endBytes: number;
  /** Lines before `endBytes`, blank ones included. */
  lines: number;
  headBytes: number;
  headHash: number;
  items: KeptLine[];
  seen: boolean;
}

interface KeptWhole {
  sizeBytes: number;
  headHash: number;
  bytes: Uint8Array;
  seen: boolean;
}

/**
 * Line files whose values are kept, in bytes of file: a file that would take the cache beyond it
 * is read whole on each step. Kept values take about their text's memory (19.5 MB of generated
 * Claude Code files: 22 MB of heap beside the session's 9 MB, README's live-mode figures), so this
 * bounds the cache near 75 MB of heap; a step over that much is about 0.2 s of normalizing.
 */
const RECORD_CACHE_LIMIT_BYTES = 64 * 1024 * 1024;
/** Whole-read files kept as bytes up to this size (a `.meta.json` is under 1 KB, docs/sources.md#fmt-files). */
const WHOLE_KEEP_LIMIT_BYTES = 64 * 1024;

/** Parsed lines of a session's files, kept between the parses of live mode's steps. */
export class RecordCache {
  private readonly files = new Map<string, KeptFile>();
  private readonly wholes = new Map<string, KeptWhole>();
  /** Bytes read by the current parse (head checks aside). */
  readBytes = 0;
  /** Why files of the current parse were read from their start again. */
  readonly reasons: string[] = [];
  /** Files of the current parse read for the first time. */
  readonly added: string[] = [];
  /** A line file of the current parse shrank or was replaced: what it held before is gone. */
  restarted = false;

  constructor(readonly limitBytes = RECORD_CACHE_LIMIT_BYTES) {}

  /** Bytes of line files whose values are kept. */
  get keptBytes(): number {
    let total = 0;
    for (const f of this.files.values()) total += f.endBytes;
    return total;
  }

  /** Starts a parse: counts and reasons start over; files the parse does not see are dropped after it. */
  begin(): void {
    this.readBytes = 0;
    this.reasons.length = 0;
    this.added.length = 0;
    this.restarted = false;
    for (const f of this.files.values()) f.seen = false;
    for (const w of this.wholes.values()) w.seen = false;
  }

  /** Ends a parse: files it did not read (gone from the session) are forgotten. */
  end(): void {
    for (const [name, f] of this.files) if (!f.seen) this.files.delete(name);
    for (const [name, w] of this.wholes) if (!w.seen) this.wholes.delete(name);
  }

  /**
   * `source`, the bytes read from it counted in `readBytes` once each (the line reader reads the
   * first bytes to sniff UTF-16, then again with the first chunk).
   */
  counted(source: ByteSource): ByteSource {
    let from = 0;
    let to = 0;
    return {
      name: source.name,
      sizeBytes: source.sizeBytes,
      read: (offsetBytes, lengthBytes) => {
        const end = offsetBytes + lengthBytes;
        if (offsetBytes > to || end < from) {
          this.readBytes += lengthBytes;
          from = offsetBytes;
          to = end;
        } else {
          this.readBytes += Math.max(0, from - offsetBytes) + Math.max(0, end - to);
          from = Math.min(from, offsetBytes);
          to = Math.max(to, end);
        }
        return source.read(offsetBytes, lengthBytes);
      },
    };
  }

  /** Forgets a file's kept lines (the parse read it some other way: stopped, a document). */
  forget(name: string): void {
    this.files.delete(name);
  }

  /**
   * Scans `source` line by line as `scanLines` does, giving kept lines from memory and reading
   * only the bytes past them. Returns the file's line count. `raw` is read for the head check only.
   */
  async scan(
    source: ByteSource,
    raw: ByteSource,
    sink: ScannedLineSink,
    options: ScanOptions,
  ): Promise<number> {
    const name = source.name;
    let kept = this.files.get(name);
    if (kept) {
      const why =
        raw.sizeBytes < kept.endBytes
          ? 'shrank'
          : kept.headBytes > 0 && hashBytes(await raw.read(0, kept.headBytes)) !== kept.headHash
            ? 'its first bytes changed (replaced)'
            : '';
      if (why !== '') {
        this.reasons.push(`${baseName(name)} ${why}: read again whole`);
        this.restarted = true;
        this.files.delete(name);
        kept = undefined;
      }
    } else this.added.push(name);
    const otherBytes = this.keptBytes - (kept?.endBytes ?? 0);
    if (!kept && otherBytes + source.sizeBytes > this.limitBytes) {
      this.reasons.push(
        `${baseName(name)} is read whole on each step: live mode keeps parsed lines up to ${Math.round(
          this.limitBytes / 2 ** 20,
        )} MB`,
      );
      return scanLines(
        source,
        (text, line, offsetBytes, lengthBytes, terminated) =>
          sink(createScannedLine(text, line, offsetBytes, lengthBytes, terminated)),
        options,
      );
    }
    const file: KeptFile = kept ?? {
      endBytes: 0,
      lines: 0,
      headBytes: 0,
      headHash: 0,
      items: [],
      seen: true,
    };
    file.seen = true;
    this.files.set(name, file);

    for (const item of file.items) {
      if (item.badUtf8) options.onInvalidUtf8?.(item.line);
      if (sink(item) === false) {
        this.files.delete(name);
        return item.line;
      }
    }
    const from = file.endBytes;
    const linesBefore = file.lines;
    const tail: ByteSource =
      from === 0
        ? source
        : {
            name,
            sizeBytes: source.sizeBytes - from,
            read: (offsetBytes, lengthBytes) => source.read(from + offsetBytes, lengthBytes),
          };
    let badLine = 0;
    let stopped = false;
    const lines = await scanLines(
      tail,
      (text, n, offsetBytes, lengthBytes, terminated) => {
        const item: KeptLine = createScannedLine(
          text,
          linesBefore + n,
          from + offsetBytes,
          lengthBytes,
          terminated,
        );
        if (badLine === n) item.badUtf8 = true;
        const go = sink(item);
        if (go === false) {
          stopped = true;
          return false;
        }
        if (!terminated) return;
        file.endBytes = item.offsetBytes + lengthBytes + 1;
        file.lines = item.line;
        if (text.length === 0 || (text.charCodeAt(0) <= 32 && text.trim() === '')) return;
        // A parsed line's text is not needed again; the first line's is (detection reads it).
        if (item.parsed && item.error === undefined && file.items.length > 0) item.text = '';
        file.items.push(item);
        return;
      },
      {
        ...options,
        onUtf16: from === 0 ? options.onUtf16 : undefined,
        onHead: from === 0 ? options.onHead : undefined,
        onInvalidUtf8: (n) => {
          badLine = n;
          options.onInvalidUtf8?.(linesBefore + n);
        },
      },
    );
    if (stopped) this.files.delete(name);
    if (file.headBytes < HEAD_BYTES && file.endBytes > file.headBytes) {
      const head = await raw.read(0, Math.min(HEAD_BYTES, file.endBytes));
      file.headBytes = head.byteLength;
      file.headHash = hashBytes(head);
    }
    return linesBefore + lines;
  }

  /** A small file read whole (a subagent's `.meta.json`): from memory while its size and head stay. */
  async whole(source: ByteSource, raw: ByteSource): Promise<ByteSource> {
    const kept = this.wholes.get(source.name);
    if (
      kept &&
      kept.sizeBytes === raw.sizeBytes &&
      hashBytes(await raw.read(0, Math.min(HEAD_BYTES, raw.sizeBytes))) === kept.headHash
    ) {
      kept.seen = true;
      return createMemorySource(source.name, kept.bytes);
    }
    if (kept) this.reasons.push(`${baseName(source.name)} changed: read again`);
    else this.added.push(source.name);
    this.wholes.delete(source.name);
    if (source.sizeBytes > WHOLE_KEEP_LIMIT_BYTES) return source;
    const bytes = (await source.read(0, source.sizeBytes)).slice();
    this.wholes.set(source.name, {
      sizeBytes: bytes.byteLength,
      headHash: hashBytes(bytes.subarray(0, HEAD_BYTES)),
      bytes,
      seen: true,
    });
    return createMemorySource(source.name, bytes);
  }
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}
