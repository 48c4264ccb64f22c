import type { Session } from '../types';
import { getDisplayOrder } from './display-order';
import { describeToolInput } from './row-page';

// The transcript as a conversation: the user's and the model's messages in display order (each
// subagent under the call that spawned it), each tool call with its result folded under it, and
// compaction summaries where they were made. Records that are not messages (progress, metadata,
// attachments, meta user messages) are left out; a user message made only of tool results is
// shown under its calls. Texts are the session's (previews unless parsed with full texts).

interface ConversationTool {
  id: string;
  name: string;
  /** The call's short description (a command, a path, a pattern). */
  summary: string;
  /** Its input as JSON. */
  input: string;
  result?: string;
  resultChars?: number;
  isError?: boolean;
}

export interface ConversationTurn {
  entryIndex: number;
  role: 'user' | 'assistant' | 'summary';
  /** 0: the main conversation; 1: a subagent; … */
  depth: number;
  timestampMs?: number;
  /** Text and thinking blocks in order (thinking marked). */
  texts: { text: string; chars: number; thinking?: boolean }[];
  tools: ConversationTool[];
  images: number;
}

const cache = new WeakMap<Session, ConversationTurn[]>();

/** `computeConversation`, memoized per session (a session is immutable once parsed). */
export function getConversation(session: Session): ConversationTurn[] {
  let turns = cache.get(session);
  if (!turns) {
    turns = computeConversation(session);
    cache.set(session, turns);
  }
  return turns;
}

/** The conversation's turns; linear in entries and blocks. */
export function computeConversation(session: Session): ConversationTurn[] {
  const results = new Map<string, { text: string; chars: number; isError: boolean }>();
  for (const entry of session.entries) {
    for (const b of entry.blocks)
      if (b.kind === 'tool-result')
        results.set(b.toolUseId, { text: b.text, chars: b.chars, isError: b.isError });
  }
  const { order, depthByEntry } = getDisplayOrder(session);
  const turns: ConversationTurn[] = [];
  for (const index of order) {
    const entry = session.entries[index]!;
    const summary = entry.isCompactSummary ? (entry.summaryText ?? textOf(entry.blocks)) : undefined;
    if (summary === undefined && (entry.isMeta || (entry.kind !== 'user' && entry.kind !== 'assistant')))
      continue;
    const turn: ConversationTurn = {
      entryIndex: index,
      role: summary !== undefined ? 'summary' : entry.kind === 'user' ? 'user' : 'assistant',
      depth: depthByEntry[index] ?? 0,
      timestampMs: entry.timestampMs,
      texts: [],
      tools: [],
      images: 0,
    };
    if (summary !== undefined) turn.texts.push({ text: summary, chars: summary.length });
    else
      for (const b of entry.blocks) {
        if (b.kind === 'text') turn.texts.push({ text: b.text, chars: b.chars });
        else if (b.kind === 'thinking' && b.text)
          turn.texts.push({ text: b.text, chars: b.chars, thinking: true });
        else if (b.kind === 'image') turn.images++;
        else if (b.kind === 'tool-result' && !session.toolUseEntry.has(b.toolUseId))
          // A result whose call is not in the log (a cut or resumed file) is shown where it is.
          turn.tools.push({
            id: b.toolUseId,
            name: '(a call not in this log)',
            summary: '',
            input: '',
            result: b.text,
            resultChars: b.chars,
            isError: b.isError,
          });
        else if (b.kind === 'tool-use') {
          const result = results.get(b.id);
          turn.tools.push({
            id: b.id,
            name: b.name,
            summary: describeToolInput(b),
            input: b.inputPreview,
            result: result?.text,
            resultChars: result?.chars,
            isError: result?.isError,
          });
        }
      }
    // A message of tool results only is shown under its calls.
    if (turn.texts.length === 0 && turn.tools.length === 0 && turn.images === 0) continue;
    turns.push(turn);
  }
  return turns;
}

function textOf(blocks: Session['entries'][number]['blocks']): string {
  return blocks
    .filter((b) => b.kind === 'text')
    .map((b) => b.text)
    .join('\n\n');
}
