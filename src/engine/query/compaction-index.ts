import type { Session } from '../types';

const cache = new WeakMap<Session, Map<number, number>>();

/** entry index → index into `session.compactions`, for boundary entries. Memoized. */
export function getCompactionByEntry(session: Session): Map<number, number> {
  let map = cache.get(session);
  if (!map) {
    map = new Map();
    for (let i = 0; i < session.compactions.length; i++) map.set(session.compactions[i]!.entryIndex, i);
    cache.set(session, map);
  }
  return map;
}
