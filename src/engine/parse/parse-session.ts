import { capDepth } from './depth-cap';
import { at } from '../assert';
import type { Session, SessionFile } from '../types';
import { computeBranches } from './branches';
import { applyCompactionCallCosts } from './compaction-cost';
import type { DialectDescriptor } from './dialects/descriptor';
import { DIALECTS } from './dialects/registry';
import { assignRoles, orderFiles } from './file-order';
import { FileParse, type ParseRun } from './file-parse';
import type { PendingLine } from './line-records';
import { findMixedContent } from './mixed-files';
import { NormalizerPool } from './normalizer-pool';
import { findOtherSessions } from './other-sessions';
import { DEFAULT_PREVIEW_CHARS, type ParseOptions, ProgressCounter } from './parse-options';
import { recoverRecords } from './recover-records';
import { SessionBuilder } from './session-builder';
import { isSideFile, SideFiles } from './side-files';
import type { ByteSource } from './source';

// The entry point: a session's files read in order (file-order.ts), each transcript by a
// `FileParse` (file-parse.ts), side files kept whole (side-files.ts), then the session built and
// the figures only the whole of it shows derived.

export { DEFAULT_PREVIEW_CHARS, type ParseOptions, type ParseProgress } from './parse-options';
export type { PendingLine } from './line-records';

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
  const first = await parseFiles(rawSources, options, new Set());
  // A content file of another session (mixed-files.ts) or another session's transcript
  // (other-sessions.ts) is never merged: the session is read again without it (a rare case: one
  // more read of the files), the file listed with an issue.
  const foreign = [...findMixedContent(first.session), ...findOtherSessions(first.session)];
  if (foreign.length === 0) return first;
  // A read the person stopped is not read again: what it holds is kept, the file named.
  if (first.session.meta.partialRead) {
    first.session.issues.push(...foreign);
    return first;
  }
  const again = await parseFiles(
    rawSources,
    { ...options, onProgress: undefined, stop: undefined },
    new Set(foreign.map((issue) => issue.fileIndex)),
    new Set(foreign.filter((issue) => issue.code === 'other-session').map((issue) => issue.fileIndex)),
  );
  again.session.issues.push(...foreign);
  // A file left out is not read again: the session it states is the first read's.
  for (const file of again.session.files)
    if (file.role === 'other-session') file.sessionId = first.session.files[file.index]?.sessionId;
  return again;
}

/** One read of the session's files, those of `skipped` listed but not read. */
async function parseFiles(
  rawSources: ByteSource[],
  options: ParseOptions,
  skipped: ReadonlySet<number>,
  otherSessions: ReadonlySet<number> = new Set(),
): Promise<{ session: Session; kept?: KeptLineParse; whyNot: string }> {
  const cache = options.recordCache;
  cache?.begin();
  const sources = cache ? rawSources.map((s) => cache.counted(s)) : rawSources;
  const dialects = options.dialects ?? DIALECTS;
  const builder = new SessionBuilder();
  const files = assignRoles(sources, dialects);
  for (const file of files) {
    if (otherSessions.has(file.index)) file.role = 'other-session';
    builder.addFile(file);
  }
  const parsed = dialects.filter((d) => d.createNormalizer !== undefined);
  const run: ParseRun = {
    builder,
    options,
    dialects,
    previewChars: options.previewChars ?? DEFAULT_PREVIEW_CHARS,
    normalizers: new NormalizerPool(),
    progress: new ProgressCounter(
      sources.map((s) => s.sizeBytes),
      options.onProgress,
      builder.apiCalls,
    ),
    cache,
    parsed,
    // Each agent once: two dialects may be one agent's (Claude Code's session file and stream).
    lineAgents: [...new Set(parsed.filter((d) => !d.files.wholeJson && d.agent).map((d) => d.agent!))],
  };
  const side = new SideFiles();
  let kept: KeptLineParse | undefined;
  let whyNot = 'the session has more than its main file';

  let stoppedAt: number | undefined;
  for (const file of orderFiles(files, dialects)) {
    const raw = at(rawSources, file.index);
    const source = at(sources, file.index);
    if (stoppedAt !== undefined) {
      builder.issue(
        file.index,
        0,
        'read-stopped',
        'warning',
        `${source.name} was not read: reading was stopped before it`,
      );
      continue;
    }
    if (skipped.has(file.index)) {
      // Listed, not read.
    } else if (isSideFile(file)) {
      await side.read(file, cache ? await cache.whole(source, raw) : source, builder, options.signal);
    } else {
      const parse = new FileParse(run, file, source);
      await parse.read(raw);
      if (parse.stoppedAtBytes !== undefined) stoppedAt = run.progress.bytesRead + parse.stoppedAtBytes;
      const why = sources.length === 1 && file.role === 'main' ? parse.whyNotKept() : undefined;
      if (why !== undefined) whyNot = why;
      if (why === '')
        kept = { builder, file, handleLine: parse.handleLine, endBytes: source.sizeBytes, dialects };
    }
    if (stoppedAt === undefined) run.progress.fileDone(source.sizeBytes, file.index);
  }

  if (stoppedAt !== undefined) {
    // What was not read cannot be followed from where the read stopped.
    kept = undefined;
    whyNot = 'the read was stopped';
  }
  run.normalizers.finish(builder, run.previewChars);
  cache?.end();
  const session = finishSession(builder);
  if (stoppedAt !== undefined)
    session.meta.partialRead = {
      bytesRead: stoppedAt,
      totalBytes: sources.reduce((n, s) => n + s.sizeBytes, 0),
    };
  side.apply(session, dialects);
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
  let record: unknown;
  try {
    record = JSON.parse(text);
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
    record = recoverRecords(text)?.records[k];
  }
  // What reads the record next recurses over it: a part nested too deep is cut (depth-cap.ts).
  return capDepth(record);
}
