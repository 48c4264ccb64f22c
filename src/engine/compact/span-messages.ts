import type { MessageReader } from '../parse/dialects/descriptor';
import { isMainThreadEntry } from '../parse/main-thread';
import { getDialect } from '../parse/dialects/registry';
import { readEntryRecord } from '../parse/parse-session';
import type { ByteSource } from '../parse/source';
import type { Compaction, Session } from '../types';
import { type NormalizedMessages, normalizeMessages, type RecordInput } from './normalize-messages';
import type { ApiMessage } from './types';

// The messages of a span of a transcript as the summarizer would be sent them: each entry's whole
// record re-read (an entry in memory holds previews only), in Claude Code's record shape (another
// agent's records through its dialect's `createMessageReader`), then `WZ` (normalize-messages.ts).
// The summary request, the erosion chain and the retention score all read a span through here.

/** Entry kinds a Claude Code span's request is built from (the rest `WZ` drops or never sees). */
const MESSAGE_KINDS: ReadonlySet<string> = new Set(['user', 'assistant', 'attachment']);
const DROPPED_KINDS = new Set(['system', 'progress']);

interface SpanRange {
  fromEntryIndex: number;
  /** Inclusive. */
  uptoEntryIndex: number;
  excludeEntryIndices?: readonly number[];
  /**
   * Whose messages: the main thread's (default), or those of the subagent whose own log is this
   * file (a subagent's compaction summarizes its own conversation).
   */
  subagentFileIndex?: number;
}

/**
 * The entries the last truncation at or before `upto` took out of what the agent sends, where the
 * log keeps them (Cline's API history: `deletedRange` counts its messages, `historyIndexed`).
 */
function getTruncatedEntries(session: Session, upto: number): number[] {
  let last: Compaction | undefined;
  for (const c of session.compactions)
    if (c.kind === 'truncate' && c.deletedRange && c.entryIndex <= upto) last = c;
  const event = last && session.entries[last.entryIndex];
  if (!last?.deletedRange || !event || !isMainThreadEntry(session, event)) return [];
  if (!getDialect(session.files[event.fileIndex]?.dialect)?.historyIndexed) return [];
  const [first, lastMessage] = last.deletedRange;
  const out: number[] = [];
  let message = 0;
  for (const e of session.entries) {
    if (e.fileIndex !== event.fileIndex || e.compact) continue;
    if (message >= first) out.push(e.index);
    if (++message > lastMessage) break;
  }
  return out;
}

/** The span's messages; `dropped` also names the progress and system entries never read. */
export async function readSpanMessages(
  session: Session,
  sources: ByteSource[],
  range: SpanRange,
  options: { elideBase64?: boolean; signal?: AbortSignal } = {},
): Promise<NormalizedMessages> {
  const upto = Math.min(range.uptoEntryIndex, session.entries.length - 1);
  const exclude = new Set([...(range.excludeEntryIndices ?? []), ...getTruncatedEntries(session, upto)]);
  const inputs: RecordInput[] = [];
  const skipped: NormalizedMessages['dropped'] = [];
  let converted = false;
  const readers = new Map<number, MessageReader | undefined>();
  const readerOf = (fileIndex: number): MessageReader | undefined => {
    if (!readers.has(fileIndex))
      readers.set(fileIndex, getDialect(session.files[fileIndex]?.dialect)?.createMessageReader?.());
    return readers.get(fileIndex);
  };
  for (let i = Math.max(0, range.fromEntryIndex); i <= upto; i++) {
    const entry = session.entries[i]!;
    const inThread =
      range.subagentFileIndex === undefined
        ? isMainThreadEntry(session, entry)
        : entry.fileIndex === range.subagentFileIndex && !isMainThreadEntry(session, entry);
    if (exclude.has(i) || !inThread) continue;
    const convert = readerOf(entry.fileIndex);
    if (convert) {
      // Another agent's record: its dialect says which messages it holds (none for most events).
      options.signal?.throwIfAborted();
      const records = convert(await readEntryRecord(sources, session, i), entry);
      for (const record of records) inputs.push({ entryIndex: i, record });
      converted = true;
      continue;
    }
    if (!MESSAGE_KINDS.has(entry.kind)) {
      // `WZ` drops progress and system records; no need to read them.
      if (DROPPED_KINDS.has(entry.kind)) skipped.push({ entryIndex: i, reason: entry.kind });
      continue;
    }
    options.signal?.throwIfAborted();
    inputs.push({ entryIndex: i, record: await readEntryRecord(sources, session, i) });
  }
  // Another agent writes one item per record: a response's text and tool calls are one message.
  const normalized = normalizeMessages(inputs, {
    elideBase64: options.elideBase64,
    mergeAssistantItems: converted,
  });
  if (converted) pairCallsWithResults(normalized.messages);
  return {
    ...normalized,
    dropped: [...skipped, ...normalized.dropped].sort((a, b) => a.entryIndex - b.entryIndex),
  };
}

type Block = Exclude<ApiMessage['content'], string>[number];
const idsOf = (m: ApiMessage | undefined, type: 'tool_use' | 'tool_result', key: 'id' | 'tool_use_id') =>
  new Set(
    !m || typeof m.content === 'string'
      ? []
      : m.content.flatMap((b) => (b.type === type ? [String((b as Record<string, unknown>)[key])] : [])),
  );

/**
 * Another agent's span as the Messages API takes it: a result whose call is not in the message
 * before (the call fell before the span's start, or the agent rewrote the history) and a call no
 * result follows (interrupted) become text, the results first in their message.
 */
function pairCallsWithResults(messages: ApiMessage[]): void {
  for (const [i, m] of messages.entries()) {
    if (typeof m.content === 'string') continue;
    if (m.role === 'assistant') {
      const next = messages[i + 1]?.role === 'user' ? messages[i + 1] : undefined;
      const results = idsOf(next, 'tool_result', 'tool_use_id');
      m.content = m.content.map(
        (b): Block =>
          b.type === 'tool_use' && !results.has(String(b.id))
            ? {
                type: 'text',
                text: `[call ${String(b.name)} ${JSON.stringify(b.input ?? {})}: no result follows]`,
              }
            : b,
      );
      continue;
    }
    const calls = idsOf(
      messages[i - 1]?.role === 'assistant' ? messages[i - 1] : undefined,
      'tool_use',
      'id',
    );
    const content = m.content.map((b): Block => {
      if (b.type !== 'tool_result' || calls.has(String(b.tool_use_id))) return b;
      const text = typeof b.content === 'string' ? b.content : JSON.stringify(b.content);
      return { type: 'text', text: `[result of ${String(b.tool_use_id)}]\n${text}` };
    });
    m.content = [
      ...content.filter((b) => b.type === 'tool_result'),
      ...content.filter((b) => b.type !== 'tool_result'),
    ];
  }
}
