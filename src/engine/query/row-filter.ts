import type { Entry, Session } from '../types';
import { ALL_FILTER_KINDS, type FilterKind, getEntryKindMask } from './entry-kinds';

/** What the transcript shows: entries of these kinds whose text contains `search` (any case). */
export interface RowFilter {
  kinds: FilterKind[];
  search: string;
  /**
   * Search each entry's whole raw line too (full-text-search.ts), not only the in-memory previews.
   * Needs a file scan, so the preview search stays the default.
   */
  fullText?: boolean;
}

export const DEFAULT_ROW_FILTER: RowFilter = { kinds: [...ALL_FILTER_KINDS], search: '' };

/** A stable key for caching one filter's row index. */
export function getRowFilterKey(filter: RowFilter): string {
  const search = filter.search.trim().toLowerCase();
  const key: unknown[] = [[...filter.kinds].sort(), search];
  if (filter.fullText && search !== '') key.push('full-text');
  return JSON.stringify(key);
}

/** The tool_use name a tool_result answers, found through the session's tool maps. */
export function getToolNameForResult(session: Session, toolUseId: string): string | undefined {
  const useEntry = session.toolUseEntry.get(toolUseId);
  if (useEntry === undefined) return undefined;
  for (const block of session.entries[useEntry]?.blocks ?? []) {
    if (block.kind === 'tool-use' && block.id === toolUseId) return block.name;
  }
  return undefined;
}

/**
 * True when the entry's searchable text contains `needle` (already lower-cased): text previews,
 * tool names, file paths, commands, tool input previews, record types and summaries.
 */
function entryMatchesSearch(session: Session, entry: Entry, needle: string): boolean {
  if (needle === '') return true;
  const has = (text: string | undefined) => text?.toLowerCase().includes(needle) === true;
  if (has(entry.summaryText) || has(entry.type) || has(entry.subtype) || has(entry.detailType)) return true;
  for (const block of entry.blocks) {
    switch (block.kind) {
      case 'text':
      case 'thinking':
        if (has(block.text)) return true;
        break;
      case 'tool-use':
        if (has(block.name) || has(block.filePath) || has(block.command) || has(block.inputPreview))
          return true;
        break;
      case 'tool-result':
        if (has(block.text) || has(getToolNameForResult(session, block.toolUseId))) return true;
        break;
      case 'image':
      case 'document':
        if (has(block.mediaType)) return true;
        break;
      case 'other':
        if (has(block.type)) return true;
        break;
    }
  }
  return false;
}

/** True when the entry passes the filter. */
export function entryMatchesFilter(
  session: Session,
  entry: Entry,
  kindMask: number,
  needle: string,
): boolean {
  return (getEntryKindMask(entry) & kindMask) !== 0 && entryMatchesSearch(session, entry, needle);
}
