import type { Block, Entry } from '../types';
import type { PreparedReplay } from './prepared';

// Two facts about context positions that strategies counting turns or characters share, computed
// once per prepared session (cached by identity, like the prepared arrays themselves):
//   - user turns: a person's message, not a tool's answer (OpenCode's prune counts them back from
//     the newest; Gemini CLI splits only at one, chatCompressionService.ts `findCompressSplitPoint`:
//     `role === 'user'` and no `functionResponse` part);
//   - characters: an estimate of each position's `JSON.stringify(content).length`, the unit
//     Gemini CLI's split is measured in. Entries hold block lengths, not their JSON, so each block
//     counts its text plus a fixed envelope (the keys and quotes a serialized part adds).

/**
 * A user entry holding no tool result: a turn the person began. Text the agent injects beside a
 * prompt (`isMeta`: reminders, command output) is part of that turn, not a turn of its own.
 */
function isUserTurn(entry: Entry): boolean {
  return (
    entry.kind === 'user' &&
    entry.role !== 'assistant' &&
    !entry.isMeta &&
    !entry.isCompactSummary &&
    entry.blocks.length > 0 &&
    entry.blocks.every((b) => b.kind !== 'tool-result')
  );
}

/** Characters a serialized part adds around its text (`{"text":""}`, a call's name and id). */
const PART_ENVELOPE_CHARS = 12;
/** A serialized message's own envelope (`{"role":"user","parts":[]}`). */
const MESSAGE_ENVELOPE_CHARS = 26;

function blockChars(b: Block): number {
  switch (b.kind) {
    case 'text':
    case 'thinking':
    case 'other':
      return b.chars + PART_ENVELOPE_CHARS;
    case 'tool-use':
      return b.inputChars + b.name.length + b.id.length + 3 * PART_ENVELOPE_CHARS;
    case 'tool-result':
      return b.chars + b.toolUseId.length + 3 * PART_ENVELOPE_CHARS;
    case 'image':
    case 'document':
      return b.base64Chars + b.mediaType.length + 2 * PART_ENVELOPE_CHARS;
  }
}

/** Estimated serialized characters of one entry's message. */
function estimateEntryChars(entry: Entry): number {
  let chars = MESSAGE_ENVELOPE_CHARS;
  for (const b of entry.blocks) chars += blockChars(b);
  return chars;
}

interface PositionFacts {
  /** Context positions of user turns (`isUserTurn`), ascending; compaction artifacts excluded. */
  userTurnPos: Int32Array;
  /** Estimated serialized characters per context position (`estimateEntryChars`). */
  chars: Float64Array;
}

const cache = new WeakMap<PreparedReplay, PositionFacts>();

/** The user turns and characters of a prepared session's context positions (computed once). */
export function getPositionFacts(prepared: PreparedReplay): PositionFacts {
  let facts = cache.get(prepared);
  if (!facts) {
    const { ctxEntry, artifactOf, session } = prepared;
    const turns: number[] = [];
    const chars = new Float64Array(ctxEntry.length);
    for (let p = 0; p < ctxEntry.length; p++) {
      const entry = session.entries[ctxEntry[p]!]!;
      chars[p] = estimateEntryChars(entry);
      if (artifactOf[p] === 0 && isUserTurn(entry)) turns.push(p);
    }
    facts = { userTurnPos: Int32Array.from(turns), chars };
    cache.set(prepared, facts);
  }
  return facts;
}

/**
 * Whether the log holds a request after its last API call: a user turn or a tool's result past the
 * call's own lines (compaction artifacts aside). An agent checks its compaction before it sends a
 * request, whether or not the request then yields a call the log records (one refused as too long,
 * interrupted, or the file's end): a real Claude Code 2.1.111 session compacts after its only
 * call, before a prompt that came back "Prompt is too long".
 */
export function hasRequestAfterLastCall(prepared: PreparedReplay): boolean {
  const { callPos, ctxEntry, artifactOf, session } = prepared;
  const n = callPos.length - 1;
  if (n < 1) return false;
  for (let p = callPos[n - 1]! + 1; p < callPos[n]!; p++) {
    if (artifactOf[p] !== 0) continue;
    const entry = session.entries[ctxEntry[p]!]!;
    if (isUserTurn(entry)) return true;
    if (entry.kind === 'user' && entry.blocks.some((b) => b.kind === 'tool-result')) return true;
  }
  return false;
}
