import type { Session } from '../types';
import { getDisplayOrder } from './display-order';
import { getEntryKindMask, getKindMask } from './entry-kinds';
import { entryMatchesFilter, type RowFilter } from './row-filter';

/**
 * The entry indices the transcript shows, in display order (subagent entries right under the
 * Task/Agent call that spawned them). Linear in entries; the search scans previews only, unless
 * `fullTextMatches` (computeFullTextMatches for the filter's search, 1 per matching entry) is
 * given: then an entry also passes the search when its raw line matches.
 */
export function computeRowIndex(
  session: Session,
  filter: RowFilter,
  fullTextMatches?: Uint8Array,
): Int32Array {
  const { order } = getDisplayOrder(session);
  const kindMask = getKindMask(filter.kinds);
  const needle = filter.search.trim().toLowerCase();
  const out = new Int32Array(order.length);
  let count = 0;
  for (let row = 0; row < order.length; row++) {
    const entryIndex = order[row]!;
    const entry = session.entries[entryIndex]!;
    const passes =
      fullTextMatches?.[entryIndex] === 1
        ? (getEntryKindMask(entry) & kindMask) !== 0
        : entryMatchesFilter(session, entry, kindMask, needle);
    if (passes) out[count++] = entryIndex;
  }
  return count === out.length ? out : out.slice(0, count);
}
