import type { Session } from '../types';

const cache = new WeakMap<Session, Map<number, number>>();

/** entry index → index into `session.compactions`, for boundary entries. Memoized. */
export function getCompactionByEntry(session: Session): Map<number, number> {
  let map = cache.get(session);
  if (!map) {
    map = new Map();
    session.compactions.forEach((compaction, i) => map!.set(compaction.entryIndex, i));
    cache.set(session, map);
  }
  return map;
}
