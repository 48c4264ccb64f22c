import { getSpanStart } from '../compact/build-request';
import { isMainThreadEntry } from '../parse/main-thread';
import type { Compaction, Session } from '../types';
import { formatOrdinal } from '../query/numbering';

// Where a compaction happens and which entries it replaces. Two kinds of point: a real
// compaction recorded in the transcript, or "right after API call N" (the span a compaction
// would replace had it fired there, as the replay proposes).

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
  /** A short label: "compaction 2 (auto) at line 146" / "after API call 27". */
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

/** The span a compaction at `point` replaces. Throws RangeError for a point the session lacks. */
export function getCompactionSpan(session: Session, point: CompactionPoint): CompactionSpan {
  if (point.kind === 'compaction') {
    const compaction = session.compactions[point.compactionIndex];
    if (!compaction || !isMainCompaction(session, compaction)) {
      throw new RangeError(`No full compaction ${point.compactionIndex} in the main transcript`);
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

/** Main-thread API calls whose first entry lies in [from, upto]: candidates for a partial compact's split. */
export function getApiCallsInSpan(session: Session, span: CompactionSpan): number[] {
  const calls: number[] = [];
  for (const call of session.apiCalls) {
    const entry = session.entries[call.firstEntryIndex];
    if (
      call.firstEntryIndex >= span.fromEntryIndex &&
      call.firstEntryIndex <= span.uptoEntryIndex &&
      entry &&
      isMainThreadEntry(session, entry)
    ) {
      calls.push(call.index);
    }
  }
  return calls;
}

/**
 * Reads `--at`: an API call index ("27"), a compaction index ("c2"), or the uuid (or a prefix of
 * 8+ characters) of a real compaction's boundary record. Throws RangeError with what the session offers.
 */
export function parseCompactionPoint(session: Session, at: string): CompactionPoint {
  const text = at.trim();
  if (/^\d+$/.test(text)) return { kind: 'api-call', apiCallIndex: Number(text) };
  const indexed = /^c(\d+)$/i.exec(text);
  if (indexed) return { kind: 'compaction', compactionIndex: Number(indexed[1]) };
  const main = getMainCompactions(session);
  const hit = main.find(
    ({ compaction }) => compaction.uuid === text || (text.length >= 8 && compaction.uuid?.startsWith(text)),
  );
  if (hit) return { kind: 'compaction', compactionIndex: hit.compactionIndex };
  const known = main.map(
    ({ compactionIndex, compaction }) => `c${compactionIndex} = ${compaction.uuid ?? '(no uuid)'}`,
  );
  throw new RangeError(
    `"${at}" is neither an API call index (0–${Math.max(session.apiCalls.length - 1, 0)}) nor a real compaction${known.length ? ` (${known.join(', ')})` : ' (this transcript has none)'}`,
  );
}
