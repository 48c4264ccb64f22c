import type { Session } from '../types';
import { HEAD_BYTES, hashBytes } from './incremental-reader';
import { scanLines } from './line-reader';
import {
  deriveSession,
  finishSession,
  type KeptLineParse,
  type ParseOptions,
  parseSessionKeeping,
} from './parse-session';
import type { ByteSource } from './source';

// Live mode (issue 12): a session's main file grows while the agent writes it. A `LiveParse`
// keeps the parse's state (the session builder, the dialect's normalizer) after reading the file,
// and takes only the bytes appended since: their whole lines are normalized and added like the
// lines before them (same line numbers, same byte offsets), and the derived figures (API calls,
// compactions, branches) come again from the builder's state, which is cheap beside reading and
// JSON-parsing the file. A last line without its newline waits for it. A file that shrank or
// whose first bytes changed (replaced, rewritten) is parsed again whole, as is one the parse could
// not keep (`whyNot`: several files, a whole-document dialect, an unfinished last line).

export interface LiveParseResult {
  session: Session;
  /** Bytes read and parsed for this step (the head check's few bytes aside). */
  readBytes: number;
  /** Lines added by this step. */
  newLines: number;
  /** Why the whole file was parsed again (undefined: only the appended bytes were). */
  reparsed?: string;
}

/** A one-file session that grows: `append` reads only the bytes added since the last read. */
export class LiveParse {
  private kept: KeptLineParse | undefined;
  private whyNot = '';
  private headBytes = 0;
  private headHash = 0;
  private session!: Session;
  private readonly options: ParseOptions;

  private constructor(options: ParseOptions) {
    this.options = { ...options, listLine: undefined };
  }

  /** Parses `source` whole; later reads of it go through `append`. */
  static async open(
    source: ByteSource,
    options: ParseOptions = {},
  ): Promise<LiveParseResult & { live: LiveParse }> {
    const live = new LiveParse(options);
    const result = await live.parseWhole(source, undefined);
    return { ...result, live };
  }

  get current(): Session {
    return this.session;
  }

  /** Why appends cannot be read on their own (empty when they can). */
  get notResumable(): string {
    return this.kept ? '' : this.whyNot;
  }

  /** Reads what was appended to the file since the last read (`source` is the whole file now). */
  async append(source: ByteSource, signal?: AbortSignal): Promise<LiveParseResult> {
    const kept = this.kept;
    if (!kept) return this.parseWhole(source, this.whyNot || 'the last read did not finish', signal);
    if (source.sizeBytes < kept.endBytes) return this.parseWhole(source, 'the file shrank', signal);
    if (this.headBytes > 0 && hashBytes(await source.read(0, this.headBytes)) !== this.headHash)
      return this.parseWhole(source, 'its first bytes changed (the file was replaced)', signal);
    if (source.sizeBytes === kept.endBytes) return { session: this.session, readBytes: 0, newLines: 0 };

    const { builder, file, handleLine } = kept;
    const from = kept.endBytes;
    const linesBefore = file.lines;
    // Until it ends, a step that fails (aborted) leaves the builder half-fed: read whole next time.
    this.kept = undefined;
    this.whyNot = 'the last read did not finish';
    const tail: ByteSource = {
      name: source.name,
      sizeBytes: source.sizeBytes - from,
      read: (offsetBytes, lengthBytes) => source.read(from + offsetBytes, lengthBytes),
    };
    let end = from;
    let lines = linesBefore;
    let badUtf8 = 0;
    await scanLines(
      tail,
      (text, line, offsetBytes, lengthBytes, terminated) => {
        // A partial last line is not consumed: it is read again once its newline is written.
        if (!terminated) return false;
        lines = linesBefore + line;
        end = from + offsetBytes + lengthBytes + 1;
        if (badUtf8 === line)
          builder.issue(
            file.index,
            lines,
            'invalid-utf8',
            'warning',
            `Line ${lines} is not valid UTF-8: its bad bytes are read as U+FFFD (�)`,
          );
        if (text.length === 0 || (text.charCodeAt(0) <= 32 && text.trim() === '')) return;
        handleLine({ text, line: lines, offsetBytes: from + offsetBytes, lengthBytes, terminated });
        return;
      },
      {
        chunkBytes: this.options.chunkBytes,
        signal,
        // Said once the line is whole: a partial line cut inside a character is not bad UTF-8.
        onInvalidUtf8: (line) => {
          badUtf8 = line;
        },
      },
    );
    file.lines = lines;
    file.sizeBytes = end;
    kept.endBytes = end;
    this.kept = kept;
    this.whyNot = '';
    if (this.headBytes < HEAD_BYTES && end > this.headBytes) await this.hashHead(source, end);
    this.session = deriveSession(snapshot(finishSession(builder)));
    return { session: this.session, readBytes: source.sizeBytes - from, newLines: lines - linesBefore };
  }

  private async parseWhole(
    source: ByteSource,
    reparsed: string | undefined,
    signal?: AbortSignal,
  ): Promise<LiveParseResult> {
    // Up to the last whole line: a partial last line waits for its newline here too.
    const whole = await wholeLinesEnd(source);
    const cut: ByteSource =
      whole === source.sizeBytes
        ? source
        : { name: source.name, sizeBytes: whole, read: source.read.bind(source) };
    const { session, kept, whyNot } = await parseSessionKeeping([cut], { ...this.options, signal });
    this.session = session;
    this.kept = kept;
    this.whyNot = whyNot;
    this.headBytes = 0;
    if (kept) await this.hashHead(source, kept.endBytes);
    return { session, readBytes: whole, newLines: session.files[0]?.lines ?? 0, reparsed };
  }

  private async hashHead(source: ByteSource, end: number): Promise<void> {
    const head = await source.read(0, Math.min(HEAD_BYTES, end));
    this.headBytes = head.byteLength;
    this.headHash = hashBytes(head);
  }
}

/**
 * The session with its growing lists copied: the builder keeps adding to its own, and caches keyed
 * by a list (branches.ts's parents by `entries`) must not see a list that grew under them.
 */
function snapshot(session: Session): Session {
  return {
    ...session,
    files: session.files.map((f) => ({ ...f })),
    entries: session.entries.slice(),
    apiCalls: session.apiCalls.slice(),
    compactions: session.compactions.slice(),
    issues: session.issues.slice(),
    sidechains: session.sidechains.slice(),
  };
}

/** Bytes looked at per step, from the end, for the last newline. */
const TAIL_STEP_BYTES = 64 * 1024;

/**
 * The offset just past the last newline (the whole file when it ends in one; 0 when it has none:
 * one unfinished line, nothing to read yet).
 */
async function wholeLinesEnd(source: ByteSource): Promise<number> {
  let end = source.sizeBytes;
  while (end > 0) {
    const start = Math.max(0, end - TAIL_STEP_BYTES);
    const tail = await source.read(start, end - start);
    const at = tail.lastIndexOf(0x0a);
    if (at >= 0) return start + at + 1;
    end = start;
  }
  return 0;
}
