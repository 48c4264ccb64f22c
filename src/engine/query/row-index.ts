import type { Session } from '../types';
import { getDisplayOrder } from './display-order';
import { getKindMask } from './entry-kinds';
import { entryMatchesFilter, type RowFilter } from './row-filter';

/**
 * The entry indices the transcript shows, in display order (subagent entries right under the
 * Task/Agent call that spawned them). Linear in entries; the search scans previews only.
 */
export function computeRowIndex(session: Session, filter: RowFilter): Int32Array {
  const { order } = getDisplayOrder(session);
  const kindMask = getKindMask(filter.kinds);
  const needle = filter.search.trim().toLowerCase();
  const out = new Int32Array(order.length);
  let count = 0;
  for (let row = 0; row < order.length; row++) {
    const entryIndex = order[row]!;
    if (entryMatchesFilter(session, session.entries[entryIndex]!, kindMask, needle))
      out[count++] = entryIndex;
  }
  return count === out.length ? out : out.slice(0, count);
}
