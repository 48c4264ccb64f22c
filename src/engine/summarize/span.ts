import { getSpanStart } from '../compact/build-request';
import { isMainThreadCompaction, isMainThreadEntry } from '../parse/main-thread';
import { contextOf } from '../parse/sidechains';
import type { Compaction, Session } from '../types';
import { formatOrdinal } from '../query/numbering';
import { getThreadPlace } from '../query/compaction-detail';

// Where a compaction happens and which entries it replaces. Two kinds of point: a real
// compaction recorded in the transcript (the main thread's, or a subagent's of its own context, in
// its own log: docs/sources.md#fmt-subagents), or "right after API call N" of the main thread (the
// span a compaction would replace had it fired there, as the replay proposes).

export type CompactionPoint =
  | { kind: 'compaction'; compactionIndex: number }
  | { kind: 'api-call'; apiCallIndex: number };

export interface CompactionSpan {
  point: CompactionPoint;
  /** First entry of the span (`nk`: the previous boundary, whose summary is included). */
  fromEntryIndex: number;
  /** Last entry of the span (inclusive). */
  uptoEntryIndex: number;
  /** The real compaction at this point, when there is one (for the recorded summary). */
  compactionIndex?: number;
  /** Context of the API call just before the point, as the API reported it. */
  contextTokensBefore?: number;
  /**
   * A subagent's compaction: the file of its log, whose messages alone the span holds (absent: the
   * main thread's).
   */
  subagentFileIndex?: number;
  /**
   * A short label: "compaction 2 (auto) at line 146" / "after API call 27" / "subagent
   * Explore a3144f31772d15038: compaction 1 of 2 (auto) at line 13".
   */
  label: string;
}

function isMainCompaction(session: Session, c: Compaction): boolean {
  const entry = session.entries[c.entryIndex];
  return c.kind === 'compact' && entry !== undefined && isMainThreadEntry(session, entry);
}

/** The main thread's full compactions, with their index in `session.compactions`. */
export function getMainCompactions(session: Session): { compactionIndex: number; compaction: Compaction }[] {
  const out: { compactionIndex: number; compaction: Compaction }[] = [];
  session.compactions.forEach((compaction, compactionIndex) => {
    if (isMainCompaction(session, compaction)) out.push({ compactionIndex, compaction });
  });
  return out;
}

/** True for a full compaction in a subagent's own log (of the subagent's context, not the session's). */
function isSubagentCompaction(session: Session, c: Compaction): boolean {
  return c.kind === 'compact' && !isMainThreadCompaction(session, c);
}

/** The subagents' full compactions, in log order, with their index in `session.compactions`. */
export function getSubagentCompactions(
  session: Session,
): { compactionIndex: number; compaction: Compaction }[] {
  const out: { compactionIndex: number; compaction: Compaction }[] = [];
  session.compactions.forEach((compaction, compactionIndex) => {
    if (isSubagentCompaction(session, compaction)) out.push({ compactionIndex, compaction });
  });
  return out;
}

/** A subagent as people name it (the Summaries picker too): its type when its `.meta.json` gives one, and its id. */
function getSubagentName(session: Session, fileIndex: number): string {
  const file = session.files[fileIndex];
  const id = file?.agentId ?? file?.name ?? `file ${fileIndex}`;
  return file?.agentType ? `${file.agentType} ${id}` : id;
}

/**
 * The span a subagent's compaction replaced: its log's messages since its previous full boundary
 * in that log (whose summary is included, as `nk` keeps it for the main thread), or since the
 * log's first entry; the context before it is its last call's in the span.
 */
function getSubagentSpan(session: Session, point: CompactionPoint & { kind: 'compaction' }): CompactionSpan {
  const compaction = session.compactions[point.compactionIndex]!;
  const file = compaction.fileIndex;
  let from = session.entries.findIndex((e) => e.fileIndex === file);
  for (const c of session.compactions)
    if (c.kind === 'compact' && c.fileIndex === file && c.entryIndex < compaction.entryIndex)
      from = Math.max(from, c.entryIndex);
  const upto = compaction.entryIndex - 1;
  let before: number | undefined;
  for (const call of session.apiCalls) {
    const entry = session.entries[call.firstEntryIndex];
    if (entry?.fileIndex === file && call.firstEntryIndex >= from && call.firstEntryIndex <= upto)
      before = call.contextTokens;
  }
  // A subagent's calls are not the session's API calls (Claude Code's subagent logs): its last
  // response in the span states the context it was sent with.
  if (before === undefined)
    for (let i = Math.max(0, from); i <= upto; i++) {
      const entry = session.entries[i]!;
      if (entry.fileIndex === file && entry.usage && contextOf(entry.usage) > 0)
        before = contextOf(entry.usage);
    }
  const place = getThreadPlace(session, compaction);
  return {
    point,
    fromEntryIndex: Math.max(0, from),
    uptoEntryIndex: upto,
    compactionIndex: point.compactionIndex,
    contextTokensBefore: before,
    subagentFileIndex: file,
    label: `subagent ${getSubagentName(session, file)}: ${formatOrdinal('compaction', place.index, place.total)} (${compaction.trigger}) at line ${compaction.line}`,
  };
}

/** The span a compaction at `point` replaces. Throws RangeError for a point the session lacks. */
export function getCompactionSpan(session: Session, point: CompactionPoint): CompactionSpan {
  if (point.kind === 'compaction') {
    const compaction = session.compactions[point.compactionIndex];
    if (compaction && isSubagentCompaction(session, compaction)) return getSubagentSpan(session, point);
    if (!compaction || !isMainCompaction(session, compaction)) {
      const what = compaction
        ? `a ${compaction.kind} at line ${compaction.line}, not a full compaction`
        : 'not a compaction of this transcript';
      const known = listRealCompactions(session);
      throw new RangeError(
        `c${point.compactionIndex} is ${what}${known ? `; its full compactions: ${known}` : '; it has no full compaction'}`,
      );
    }
    const upto = compaction.entryIndex - 1;
    const before =
      compaction.apiCallBefore === undefined ? undefined : session.apiCalls[compaction.apiCallBefore];
    return {
      point,
      fromEntryIndex: getSpanStart(session, upto),
      uptoEntryIndex: upto,
      compactionIndex: point.compactionIndex,
      contextTokensBefore: before?.contextTokens,
      label: `${formatOrdinal('compaction', point.compactionIndex)} (${compaction.trigger}) at line ${compaction.line}`,
    };
  }
  const call = session.apiCalls[point.apiCallIndex];
  if (!call)
    throw new RangeError(`No API call ${point.apiCallIndex} (the session has ${session.apiCalls.length})`);
  const callEntry = session.entries[call.firstEntryIndex];
  if (!callEntry || !isMainThreadEntry(session, callEntry)) {
    throw new RangeError(`API call ${point.apiCallIndex} belongs to a subagent, not the main conversation`);
  }
  // The span ends where the next main-thread call starts, or at the next compact boundary.
  let upto = session.entries.length - 1;
  for (let i = call.lastEntryIndex + 1; i < session.entries.length; i++) {
    const entry = session.entries[i]!;
    if (!isMainThreadEntry(session, entry)) continue;
    if (
      entry.compact !== undefined ||
      (entry.apiCallIndex !== undefined && entry.apiCallIndex !== call.index)
    ) {
      upto = i - 1;
      break;
    }
  }
  return {
    point,
    fromEntryIndex: getSpanStart(session, upto),
    uptoEntryIndex: upto,
    contextTokensBefore: call.contextTokens,
    label: `after ${formatOrdinal('api-call', point.apiCallIndex)}`,
  };
}

/**
 * The span's thread's API calls (the main thread's, or its subagent's) whose first entry lies in
 * [from, upto]: candidates for a partial compact's split.
 */
export function getApiCallsInSpan(session: Session, span: CompactionSpan): number[] {
  const calls: number[] = [];
  for (const call of session.apiCalls) {
    const entry = session.entries[call.firstEntryIndex];
    if (
      call.firstEntryIndex >= span.fromEntryIndex &&
      call.firstEntryIndex <= span.uptoEntryIndex &&
      entry &&
      (span.subagentFileIndex === undefined
        ? isMainThreadEntry(session, entry)
        : entry.fileIndex === span.subagentFileIndex && !isMainThreadEntry(session, entry))
    ) {
      calls.push(call.index);
    }
  }
  return calls;
}

/**
 * Reads `--at`: an API call index ("27"), a compaction index ("c2", the main thread's or a
 * subagent's), or the uuid (or a prefix of 8+ characters) of a real compaction's boundary record.
 * Throws RangeError with what the session offers.
 */
export function parseCompactionPoint(session: Session, at: string): CompactionPoint {
  const text = at.trim();
  if (/^\d+$/.test(text)) return { kind: 'api-call', apiCallIndex: Number(text) };
  const indexed = /^c(\d+)$/i.exec(text);
  if (indexed) return { kind: 'compaction', compactionIndex: Number(indexed[1]) };
  const real = [...getMainCompactions(session), ...getSubagentCompactions(session)];
  const hit = real.find(
    ({ compaction }) => compaction.uuid === text || (text.length >= 8 && compaction.uuid?.startsWith(text)),
  );
  if (hit) return { kind: 'compaction', compactionIndex: hit.compactionIndex };
  const known = listRealCompactions(session);
  throw new RangeError(
    `"${at}" is neither an API call index (0–${Math.max(session.apiCalls.length - 1, 0)}) nor a real compaction${known ? ` (${known})` : ' (this transcript has none)'}`,
  );
}

/**
 * The real compactions `--at` takes, as `c<index> = <uuid> (<trigger> at line N)`: the index counts
 * every compaction of the session from 0, where the page numbers the full ones from 1
 * ("Compaction 1"), so the line and the trigger say which is which.
 */
function listRealCompactions(session: Session): string {
  return [...getMainCompactions(session), ...getSubagentCompactions(session)]
    .map(
      ({ compactionIndex, compaction }) =>
        `c${compactionIndex} = ${compaction.uuid ?? '(no uuid)'} (${compaction.trigger} at line ${compaction.line}${
          isMainThreadCompaction(session, compaction)
            ? ''
            : `, subagent ${getSubagentName(session, compaction.fileIndex)}`
        })`,
    )
    .join(', ');
}
