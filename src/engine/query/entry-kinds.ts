import type { Entry } from '../types';

// The transcript's filter categories. An entry can belong to several (an assistant line with text
// and a tool call); it is shown when any of its categories is enabled.

export type FilterKind =
  | 'user-text'
  | 'assistant-text'
  | 'thinking'
  | 'tool-call'
  | 'tool-result'
  | 'system'
  | 'attachment'
  | 'meta'
  | 'unknown'
  | 'compaction';

interface FilterKindInfo {
  kind: FilterKind;
  label: string;
}

export const FILTER_KINDS: readonly FilterKindInfo[] = [
  { kind: 'user-text', label: 'User' },
  { kind: 'assistant-text', label: 'Assistant' },
  { kind: 'thinking', label: 'Thinking' },
  { kind: 'tool-call', label: 'Tool calls' },
  { kind: 'tool-result', label: 'Tool results' },
  { kind: 'system', label: 'System' },
  { kind: 'attachment', label: 'Attachments/progress' },
  { kind: 'meta', label: 'Meta' },
  { kind: 'unknown', label: 'Unknown' },
  { kind: 'compaction', label: 'Compaction' },
];

export const ALL_FILTER_KINDS: readonly FilterKind[] = FILTER_KINDS.map((k) => k.kind);

const BIT: Record<FilterKind, number> = {
  'user-text': 1 << 0,
  'assistant-text': 1 << 1,
  thinking: 1 << 2,
  'tool-call': 1 << 3,
  'tool-result': 1 << 4,
  system: 1 << 5,
  attachment: 1 << 6,
  meta: 1 << 7,
  unknown: 1 << 8,
  compaction: 1 << 9,
};

/** Bit mask of a set of filter kinds. */
export function getKindMask(kinds: readonly FilterKind[]): number {
  let mask = 0;
  for (const kind of kinds) mask |= BIT[kind] ?? 0;
  return mask;
}

/** True when the entry is a compaction event or the summary message that follows one. */
function isCompactionEntry(entry: Entry): boolean {
  return (
    entry.isCompactSummary ||
    entry.compact !== undefined ||
    entry.microcompact !== undefined ||
    (entry.kind === 'system' &&
      (entry.subtype === 'compact_boundary' || entry.subtype === 'microcompact_boundary'))
  );
}

/**
 * The filter kinds of one entry, as a bit mask. `isMeta` user entries (caveats, command output,
 * skill bodies) are injected context, not typed by the person, so they count as `meta`.
 */
export function getEntryKindMask(entry: Entry): number {
  if (isCompactionEntry(entry)) return BIT.compaction;
  switch (entry.kind) {
    case 'system':
      return BIT.system;
    case 'attachment':
    case 'progress':
      return BIT.attachment;
    case 'meta':
      return BIT.meta;
    case 'unknown':
      return BIT.unknown;
    case 'user':
    case 'assistant': {
      let mask = 0;
      for (const block of entry.blocks) {
        switch (block.kind) {
          case 'tool-use':
            mask |= BIT['tool-call'];
            break;
          case 'tool-result':
            mask |= BIT['tool-result'];
            break;
          case 'thinking':
            mask |= BIT.thinking;
            break;
          default:
            if (entry.kind === 'assistant') mask |= BIT['assistant-text'];
            else mask |= entry.isMeta ? BIT.meta : BIT['user-text'];
        }
      }
      if (mask === 0) {
        if (entry.kind === 'assistant') mask = BIT['assistant-text'];
        else mask = entry.isMeta ? BIT.meta : BIT['user-text'];
      }
      return mask;
    }
  }
  return BIT.unknown;
}

/** The one category that names a row (its icon and colour). */
export function getPrimaryKind(entry: Entry): FilterKind {
  const mask = getEntryKindMask(entry);
  for (const kind of ['compaction', 'tool-call', 'tool-result'] as const) if (mask & BIT[kind]) return kind;
  for (const { kind } of FILTER_KINDS) if (mask & BIT[kind]) return kind;
  return 'unknown';
}
