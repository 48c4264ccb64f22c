import type { ApiCall, SessionFile } from '../types';
import type { DialectDescriptor } from './dialects/descriptor';
import type { RecordCache } from './record-cache';

export interface ParseProgress {
  bytesRead: number;
  totalBytes: number;
  fileIndex: number;
  /** Main-thread API calls read so far. */
  calls?: number;
  /**
   * The context of each call from `from` on, as read so far: with the earlier reports', the
   * timeline of what is read, drawn while the rest streams in. `from` repeats the last call sent
   * (a streamed response's later lines may have updated it).
   */
  contexts?: { from: number; tokens: number[] };
}

export interface ParseOptions {
  signal?: AbortSignal;
  /**
   * Stop reading (Cancel of a load that keeps what was read): the read ends at the next chunk and
   * the session is finished from the lines before it, with a `read-stopped` issue saying where.
   * Unlike `signal`, the parse resolves.
   */
  stop?: AbortSignal;
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

export const DEFAULT_PREVIEW_CHARS = 2_000;

/** A parse's progress over all its files: each file's reads land after the files before it. */
export class ProgressCounter {
  private bytesBefore = 0;
  private readonly totalBytes: number;
  /** Calls whose context the reports have carried. */
  private callsSent = 0;

  constructor(
    sizesBytes: readonly number[],
    private readonly onProgress: ParseOptions['onProgress'],
    /** The main-thread calls read so far (the session builder's). */
    private readonly calls?: readonly ApiCall[],
  ) {
    this.totalBytes = sizesBytes.reduce((sum, s) => sum + s, 0);
  }

  /** The bytes of all files read so far. */
  get bytesRead(): number {
    return this.bytesBefore;
  }

  /** `readBytes` of the current file read so far. */
  report(readBytes: number, fileIndex: number): void {
    if (!this.onProgress) return;
    const progress: ParseProgress = {
      bytesRead: this.bytesBefore + readBytes,
      totalBytes: this.totalBytes,
      fileIndex,
    };
    if (this.calls) {
      const from = Math.max(0, this.callsSent - 1);
      progress.calls = this.calls.length;
      progress.contexts = { from, tokens: this.calls.slice(from).map((c) => c.contextTokens) };
      this.callsSent = this.calls.length;
    }
    this.onProgress(progress);
  }

  /** The current file is read: the next one's bytes count after its `sizeBytes`. */
  fileDone(sizeBytes: number, fileIndex: number): void {
    this.bytesBefore += sizeBytes;
    this.report(0, fileIndex);
  }
}
