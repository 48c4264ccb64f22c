import { isObject } from '../record';

// How one Messages API request's history relates to the one before it (`index.ts` beside it).
// Every request carries its whole history, so two successive requests of one conversation share a
// prefix; when the later one does not extend the earlier, the client changed its history between
// them: dropped messages (a truncation), replaced them with new text (a summary), or edited
// them in place (cleared tool results). Messages are compared by a fingerprint of what the model
// reads, so `cache_control` markers moved from request to request, and fields a response carries
// but the next request does not echo (`citations: null`, a thinking `signature`), do not count.

/** The model-facing projection of one content block, as a short string. */
function blockKey(block: unknown): string {
  if (!isObject(block)) return JSON.stringify(block) ?? '';
  switch (block.type) {
    case 'text':
      return `t${String(block.text)}`;
    case 'thinking':
      return `k${String(block.thinking)}`;
    case 'redacted_thinking':
      return `K${String(block.data)}`;
    case 'tool_use':
      return `u${String(block.id)}\u0000${String(block.name)}\u0000${JSON.stringify(block.input) ?? ''}`;
    case 'tool_result':
      return `r${String(block.tool_use_id)}\u0000${block.is_error === true ? 1 : 0}\u0000${contentKey(block.content)}`;
    default: {
      const { cache_control: _, ...rest } = block;
      return JSON.stringify(rest) ?? '';
    }
  }
}

function contentKey(content: unknown): string {
  if (typeof content === 'string') return `t${content}`;
  if (!Array.isArray(content)) return JSON.stringify(content) ?? '';
  return content.map(blockKey).join('\u0001');
}

/** FNV-1a over a string's UTF-16 units, as 8 hex digits. */
function hash32(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}

/**
 * A message's fingerprint: role, length and hash of its model-facing content. A string content
 * and one text block with the same text are the same message.
 */
export function fingerprintMessage(message: unknown): string {
  if (!isObject(message)) return `?${hash32(JSON.stringify(message) ?? '')}`;
  const key = contentKey(message.content);
  return `${String(message.role)}:${key.length}:${hash32(key)}`;
}

/** What changed between a conversation's held history and a request that does not extend it. */
interface HistoryChange {
  /** `truncate`: messages dropped, nothing new in their place; `compact`: some replaced or edited. */
  kind: 'truncate' | 'compact';
  /** Held messages the request no longer sends. */
  dropped: number;
  /** Messages of the request that replace or edit held ones (before its new turn). */
  replaced: number;
  /** The first and last held message no longer sent (indices into the held history). */
  droppedRange?: [number, number];
  /** Index in the request of the first replacing message. */
  firstReplaced?: number;
  /** Replacing messages at the index of a held message with the same role (edited in place). */
  editedInPlace: number;
  /** Index in the request of its last message the held history also has (-1: none). */
  lastShared: number;
}

/**
 * The change from `held` to `next` (fingerprints), when `next` does not start with all of `held`.
 * The request's new turn (its messages after the last one `held` also has) is not a change.
 */
export function describeHistoryChange(held: readonly string[], next: readonly string[]): HistoryChange {
  const inHeld = new Set(held);
  const inNext = new Set(next);
  let lastShared = -1;
  for (let j = next.length - 1; j >= 0; j--) {
    if (inHeld.has(next[j]!)) {
      lastShared = j;
      break;
    }
  }
  let replaced = 0;
  let editedInPlace = 0;
  let firstReplaced: number | undefined;
  // With nothing shared, everything the request sends replaces the held history.
  const end = lastShared >= 0 ? lastShared : next.length - 1;
  for (let j = 0; j <= end; j++) {
    if (inHeld.has(next[j]!)) continue;
    replaced++;
    firstReplaced ??= j;
    const before = held[j];
    if (before !== undefined && !inNext.has(before) && before.split(':')[0] === next[j]!.split(':')[0])
      editedInPlace++;
  }
  let dropped = 0;
  let first = -1;
  let last = -1;
  held.forEach((f, i) => {
    if (inNext.has(f)) return;
    dropped++;
    if (first < 0) first = i;
    last = i;
  });
  return {
    kind: replaced === 0 ? 'truncate' : 'compact',
    dropped,
    replaced,
    ...(first >= 0 ? { droppedRange: [first, last] as [number, number] } : {}),
    ...(firstReplaced !== undefined ? { firstReplaced } : {}),
    editedInPlace,
    lastShared,
  };
}

/** The system prompt's text (a string, or text blocks), for telling conversations apart. */
export function systemKey(system: unknown): string {
  if (typeof system === 'string') return hash32(system);
  if (Array.isArray(system)) return hash32(system.map((b) => (isObject(b) ? String(b.text) : '')).join('\n'));
  return '-';
}
