import { at } from '../assert';
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
import { createScannedLine, RecordCache } from './record-cache';
import type { ByteSource } from './source';

// Live mode (issue 12): a session's files grow while the agent writes them. A `LiveParse` reads
// only the bytes appended since its last read, two ways:
// - one file: it keeps the parse's state (the session builder, the dialect's normalizer) and
//   takes the appended whole lines like the lines before them (same line numbers, same byte
//   offsets); the derived figures (API calls, compactions, branches) come again from the builder's
//   state, which is cheap beside reading and JSON-parsing the file. A last line without its newline
//   waits for it. A file that shrank or whose first bytes changed (replaced, rewritten) is parsed
//   again whole, as is one the parse could not keep (`whyNot`: a whole-document dialect, an
//   unfinished last line).
// - several files (a Claude Code session with its subagent logs): the subagent entries come after
//   the main file's, so a grown main file moves them and the builder cannot go on from where it
//   was. A `RecordCache` keeps each file's lines JSON-parsed; each step reads and parses only the
//   bytes past them (a new file whole; a shrunk or replaced one again, said in `reparsed`) and
//   builds the session again from the kept values: normalizing is what a step repeats, not reading
//   or JSON-parsing. Lines are kept up to `RECORD_CACHE_LIMIT_BYTES`; files beyond it are read whole
//   on each step, said in `reparsed`. The caller cuts line files at their last newline (follow.ts):
//   a partial last line is read as a whole parse would read it, and read again at the next step.

export interface LiveParseResult {
  session: Session;
  /** Bytes read and parsed for this step (the head check's few bytes aside). */
  readBytes: number;
  /** Lines added by this step. */
  newLines: number;
  /** Why a file was read from its start again (undefined: only appended bytes and new files were). */
  reparsed?: string;
  /**
   * A file shrank or was replaced: what was read before is gone, and what the session holds now
   * (its compactions) was not seen being written. Other whole reads (a new subagent file, a file
   * not resumable yet) go on from the same content: false.
   */
  restarted?: boolean;
  /**
   * Every entry of the session before this step kept its index (false: the main file grew under
   * subagent entries, or a file was read again: a selection by index is stale).
   */
  indicesKept: boolean;
}

/** A session that grows: `append` reads only the bytes added since the last read. */
export class LiveParse {
  private kept: KeptLineParse | undefined;
  /** Several files: their parsed lines (undefined: one file, `kept` goes on from the builder). */
  private cache: RecordCache | undefined;
  private whyNot = '';
  private headBytes = 0;
  private headHash = 0;
  private session!: Session;
  private readonly options: ParseOptions;

  private constructor(options: ParseOptions) {
    this.options = { ...options, listLine: undefined, recordCache: undefined };
  }

  /** Parses `sources` (the main file first) whole; later reads of them go through `append`. */
  static async open(
    sources: ByteSource | readonly ByteSource[],
    options: ParseOptions = {},
  ): Promise<LiveParseResult & { live: LiveParse }> {
    const live = new LiveParse(options);
    const list = toList(sources);
    const result =
      list.length === 1
        ? await live.parseWhole(at(list, 0), undefined)
        : await live.parseMany(list, undefined);
    return { ...result, live };
  }

  /**
   * A load's parse kept for live mode (`parseForLive`): the first `append` reads only what was
   * appended after it.
   */
  static async adopt(
    sources: readonly ByteSource[],
    parsed: LiveLoad,
    options: ParseOptions = {},
  ): Promise<LiveParse> {
    const live = new LiveParse(options);
    live.session = parsed.session;
    live.cache = parsed.cache;
    live.kept = parsed.kept;
    live.whyNot = parsed.whyNot;
    if (parsed.kept) await live.hashHead(at(sources, 0), parsed.kept.endBytes);
    return live;
  }

  get current(): Session {
    return this.session;
  }

  /** Why appends cannot be read on their own (empty when they can). */
  get notResumable(): string {
    return this.kept || this.cache ? '' : this.whyNot;
  }

  /**
   * Reads what was appended to the files since the last read (`sources`: the main file first, each
   * whole as it is now; line files cut at their last newline).
   */
  async append(sources: ByteSource | readonly ByteSource[], signal?: AbortSignal): Promise<LiveParseResult> {
    const list = toList(sources);
    if (this.cache) return this.parseMany(list, undefined, signal);
    if (list.length > 1)
      return this.parseMany(list, `the session has ${list.length} files now: read whole once`, signal);
    const source = at(list, 0);
    const kept = this.kept;
    if (!kept) return this.parseWhole(source, this.whyNot || 'the last read did not finish', signal);
    if (source.sizeBytes < kept.endBytes)
      return { ...(await this.parseWhole(source, 'the file shrank', signal)), restarted: true };
    if (this.headBytes > 0 && hashBytes(await source.read(0, this.headBytes)) !== this.headHash)
      return {
        ...(await this.parseWhole(source, 'its first bytes changed (the file was replaced)', signal)),
        restarted: true,
      };
    if (source.sizeBytes === kept.endBytes)
      return { session: this.session, readBytes: 0, newLines: 0, indicesKept: true };

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
        handleLine(createScannedLine(text, lines, from + offsetBytes, lengthBytes, terminated));
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
    return {
      session: this.session,
      readBytes: source.sizeBytes - from,
      newLines: lines - linesBefore,
      indicesKept: true,
    };
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
    return {
      session,
      readBytes: whole,
      newLines: session.files[0]?.lines ?? 0,
      reparsed,
      indicesKept: false,
    };
  }

  /** Several files: the kept lines from memory, the bytes past them read, the session built again. */
  private async parseMany(
    sources: readonly ByteSource[],
    reparsed: string | undefined,
    signal?: AbortSignal,
  ): Promise<LiveParseResult> {
    const before = this.kept || this.cache ? this.session : undefined;
    this.kept = undefined;
    this.cache ??= new RecordCache(this.options.recordCacheLimitBytes);
    const cache = this.cache;
    const { session } = await parseSessionKeeping([...sources], {
      ...this.options,
      signal,
      recordCache: cache,
    });
    this.session = session;
    const reasons = reparsed === undefined ? cache.reasons : [reparsed, ...cache.reasons];
    return {
      session,
      readBytes: cache.readBytes,
      newLines: Math.max(0, countLines(session) - (before ? countLines(before) : 0)),
      reparsed: reasons.length > 0 ? reasons.join('; ') : undefined,
      ...(cache.restarted ? { restarted: true } : {}),
      indicesKept: before !== undefined && reparsed === undefined && keepsIndices(before, session),
    };
  }

  private async hashHead(source: ByteSource, end: number): Promise<void> {
    const head = await source.read(0, Math.min(HEAD_BYTES, end));
    this.headBytes = head.byteLength;
    this.headHash = hashBytes(head);
  }
}

/** What a load keeps for live mode (`parseForLive`). */
interface LiveLoad {
  session: Session;
  kept?: KeptLineParse;
  cache?: RecordCache;
  whyNot: string;
}

/**
 * A load's parse that keeps what live mode needs (`LiveParse.adopt`): one file, the builder (no
 * more than a plain parse builds; see the README's live-mode figures); several, their parsed
 * lines (`RecordCache`, bounded).
 */
export async function parseForLive(
  sources: readonly ByteSource[],
  options: ParseOptions = {},
): Promise<LiveLoad> {
  if (sources.length === 1) return parseSessionKeeping([...sources], options);
  const cache = new RecordCache(options.recordCacheLimitBytes);
  const { session } = await parseSessionKeeping([...sources], { ...options, recordCache: cache });
  return { session, cache, whyNot: '' };
}

function toList(sources: ByteSource | readonly ByteSource[]): readonly ByteSource[] {
  return 'read' in sources ? [sources] : sources;
}

/** Lines of the session's files. */
function countLines(session: Session): number {
  let total = 0;
  for (const f of session.files) total += f.lines;
  return total;
}

/** True when every entry of `before` is at the same index in `after` (same file, same place). */
function keepsIndices(before: Session, after: Session): boolean {
  const { entries } = before;
  if (after.entries.length < entries.length) return false;
  for (let i = 0; i < entries.length; i++) {
    const a = entries[i]!;
    const b = after.entries[i]!;
    if (a.offsetBytes !== b.offsetBytes || a.line !== b.line) return false;
    if (before.files[a.fileIndex]?.name !== after.files[b.fileIndex]?.name) return false;
  }
  return true;
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
