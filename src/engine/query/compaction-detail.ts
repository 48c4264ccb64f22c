import { getDialectInfo } from '../parse/dialects/descriptors';
import { isMainThreadCompaction } from '../parse/main-thread';
import type { Compaction, Session } from '../types';
import { withEstimatedPost } from './usage-coverage';
import { getToolNameForResult } from './row-filter';
import { getRowSummary, type RowSummary } from './row-page';

/** What the compaction card shows. */
export interface CompactionDetail {
  compactionIndex: number;
  /** `postEstimated`: the call after it recorded no usage; `postTokens` is its estimate (usage-coverage.ts). */
  compaction: Compaction & { postEstimated?: boolean };
  fileName: string;
  /**
   * Its place among its thread's compactions, as the header counts them: the main thread's, or
   * (`subagent`: the agent's id, else its log's name) those of the subagent log it is in.
   */
  thread: { index: number; total: number; subagent?: string };
  /** The full text of the `isCompactSummary` message (re-read from the file). */
  summaryText?: string;
  summaryChars?: number;
  /** Why the summary entry holds no summary to read, when its dialect says (Codex: encrypted). */
  summaryNote?: string;
  reattached: RowSummary[];
  /**
   * The context of the API call it followed (input + cache, as the chart draws it): a
   * microcompact's own `preTokens` is the agent's count, far below it (60,199 after a call of
   * 158,279 in a real 2.1.12 session), so the card shows both, named apart.
   */
  callBeforeTokens?: number;
  /** Microcompact: the cleared tool results and the tools that produced them. */
  clearedTools: { toolUseId: string; toolName?: string; resultEntryIndex?: number }[];
}

/**
 * The text of a message record's `message.content`: the string itself, or its text blocks joined.
 * `rawLine` is the JSONL line; returns undefined when it is not a message record.
 */
export function extractMessageText(rawLine: string): string | undefined {
  let record: unknown;
  try {
    record = JSON.parse(rawLine);
  } catch {
    return undefined;
  }
  if (typeof record !== 'object' || record === null) return undefined;
  const message = (record as { message?: unknown }).message;
  if (typeof message !== 'object' || message === null) return undefined;
  const content = (message as { content?: unknown }).content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  const parts: string[] = [];
  for (const block of content) {
    if (
      typeof block === 'object' &&
      block !== null &&
      typeof (block as { text?: unknown }).text === 'string'
    ) {
      parts.push((block as { text: string }).text);
    }
  }
  return parts.join('\n\n');
}

/**
 * The text of a compaction's summary entry (`rawLine`, its raw record): what its dialect says the
 * summary is (`TranscriptConventions.readSummaryText`), else the message text.
 */
export function readSummaryText(session: Session, entryIndex: number, rawLine: string): string | undefined {
  const read = conventionsOf(session, entryIndex)?.readSummaryText;
  if (!read) return extractMessageText(rawLine);
  try {
    return read(JSON.parse(rawLine));
  } catch {
    return undefined;
  }
}

/** Why a summary entry (`rawLine`) holds no summary to read, when its dialect says. */
export function readSummaryNote(session: Session, entryIndex: number, rawLine: string): string | undefined {
  const read = conventionsOf(session, entryIndex)?.readSummaryNote;
  if (!read) return undefined;
  try {
    return read(JSON.parse(rawLine));
  } catch {
    return undefined;
  }
}

function conventionsOf(session: Session, entryIndex: number) {
  const entry = session.entries[entryIndex];
  return entry && getDialectInfo(session.files[entry.fileIndex]?.dialect)?.transcript;
}

/** The card's data; `summaryRawLine` is the summary entry's raw line when the caller has read it. */
export function getCompactionDetail(
  session: Session,
  compactionIndex: number,
  summaryRawLine?: string,
): CompactionDetail {
  const compaction = session.compactions[compactionIndex];
  if (!compaction)
    throw new RangeError(`No compaction ${compactionIndex} (session has ${session.compactions.length})`);
  const summaryText =
    summaryRawLine === undefined || compaction.summaryEntryIndex === undefined
      ? undefined
      : readSummaryText(session, compaction.summaryEntryIndex, summaryRawLine);
  const summaryNote =
    summaryText === undefined && summaryRawLine !== undefined && compaction.summaryEntryIndex !== undefined
      ? readSummaryNote(session, compaction.summaryEntryIndex, summaryRawLine)
      : undefined;
  return {
    compactionIndex,
    compaction: withEstimatedPost(session, compaction),
    thread: getThreadPlace(session, compaction),
    fileName: session.files[compaction.fileIndex]?.name ?? `file ${compaction.fileIndex}`,
    callBeforeTokens:
      compaction.apiCallBefore === undefined
        ? undefined
        : session.apiCalls[compaction.apiCallBefore]?.contextTokens,
    summaryText,
    summaryChars: summaryText?.length,
    summaryNote,
    reattached: compaction.reattachedEntryIndices.map((entryIndex, i) =>
      getRowSummary(session, entryIndex, i),
    ),
    clearedTools: (compaction.clearedToolIds ?? []).map((toolUseId) => ({
      toolUseId,
      toolName: getToolNameForResult(session, toolUseId),
      resultEntryIndex: session.toolResultEntry.get(toolUseId),
    })),
  };
}

/** Where a compaction stands in its own thread (the main one, or its subagent log). */
export function getThreadPlace(session: Session, compaction: Compaction): CompactionDetail['thread'] {
  const main = isMainThreadCompaction(session, compaction);
  // A subagent's compactions number within its log: the main thread's count never includes them.
  const same = session.compactions.filter((c) =>
    main
      ? isMainThreadCompaction(session, c)
      : !isMainThreadCompaction(session, c) && c.fileIndex === compaction.fileIndex,
  );
  const file = session.files[compaction.fileIndex];
  return {
    index: same.indexOf(compaction),
    total: same.length,
    ...(main ? {} : { subagent: file?.agentId ?? file?.name ?? `file ${compaction.fileIndex}` }),
  };
}
