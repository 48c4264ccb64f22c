import type { Session } from '../types';

// The transcript's display order: the main conversation in file order, with each subagent's
// entries inserted right under the entry holding the Task/Agent tool_use that spawned it, and a
// compaction call's or side question's own log under the entry it followed.

interface DisplayOrder {
  /** Entry indices in display order; every entry appears exactly once. */
  order: Int32Array;
  /** Nesting depth per entry index: 0 = main conversation, 1 = a subagent, 2 = its subagent, … */
  depthByEntry: Uint8Array;
  /** Row position per entry index in `order`. */
  positionByEntry: Int32Array;
}

const MAX_DEPTH = 255;

const cache = new WeakMap<Session, DisplayOrder>();

/** Memoized per session (the session is immutable once parsed). */
export function getDisplayOrder(session: Session): DisplayOrder {
  let result = cache.get(session);
  if (!result) {
    result = computeDisplayOrder(session);
    cache.set(session, result);
  }
  return result;
}

/** Builds the display order; linear in entries + sidechains. */
export function computeDisplayOrder(session: Session): DisplayOrder {
  const { entries, sidechains, files } = session;
  const n = entries.length;
  const sidechainOf = new Int32Array(n).fill(-1);
  sidechains.forEach((sidechain, s) => {
    for (const entryIndex of sidechain.entryIndices) {
      if (entryIndex >= 0 && entryIndex < n && sidechainOf[entryIndex] === -1) sidechainOf[entryIndex] = s;
    }
  });

  // spawner entry index → sidechains it spawned, in sidechain order.
  const spawnedAt = new Map<number, number[]>();
  const orphans: number[] = [];
  sidechains.forEach((sidechain, s) => {
    const spawner =
      sidechain.spawnedBy === undefined ? undefined : session.toolUseEntry.get(sidechain.spawnedBy);
    if (spawner === undefined || spawner < 0 || spawner >= n || sidechainOf[spawner] === s) {
      orphans.push(s);
      return;
    }
    const list = spawnedAt.get(spawner);
    if (list) list.push(s);
    else spawnedAt.set(spawner, [s]);
  });

  // A compaction call's or side question's own log names no spawner: its rows go where they ran in
  // the conversation (issue 24 item 6: they were appended after the session's last rows), under
  // the main entry they follow: the one its first record's parent link names, else the last one
  // before the boundary its compaction wrote, else the last one before its first record's time.
  const mainFlow: number[] = [];
  for (let i = 0; i < n; i++) if (sidechainOf[i] === -1) mainFlow.push(i);
  const anchored = placeOrphans(session, orphans, mainFlow);
  for (const [s, anchor] of anchored) {
    const list = spawnedAt.get(anchor);
    if (list) list.push(s);
    else spawnedAt.set(anchor, [s]);
  }

  const order = new Int32Array(n);
  const depthByEntry = new Uint8Array(n);
  const emitted = new Uint8Array(n);
  const sidechainDone = new Uint8Array(sidechains.length);
  let count = 0;

  const isSideEntry = (entryIndex: number): boolean => {
    const entry = entries[entryIndex]!;
    const role = files[entry.fileIndex]?.role;
    return entry.isSidechain || (role !== undefined && role !== 'main');
  };

  // Iterative walk (a stack of pending entries) so deep or long sidechains cannot overflow the stack.
  const emitFrom = (startEntries: number[], startDepth: number) => {
    const stack: { entries: number[]; at: number; depth: number }[] = [
      { entries: startEntries, at: 0, depth: startDepth },
    ];
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      if (top.at >= top.entries.length) {
        stack.pop();
        continue;
      }
      const entryIndex = top.entries[top.at++]!;
      if (emitted[entryIndex]) continue;
      emitted[entryIndex] = 1;
      order[count++] = entryIndex;
      const depth = Math.min(MAX_DEPTH, Math.max(top.depth, isSideEntry(entryIndex) ? 1 : 0));
      depthByEntry[entryIndex] = depth;
      const spawned = spawnedAt.get(entryIndex);
      if (!spawned) continue;
      // Push in reverse so the first spawned sidechain is emitted first.
      for (let k = spawned.length - 1; k >= 0; k--) {
        const s = spawned[k]!;
        if (sidechainDone[s]) continue;
        sidechainDone[s] = 1;
        stack.push({ entries: sidechains[s]!.entryIndices, at: 0, depth: Math.min(MAX_DEPTH, depth + 1) });
      }
    }
  };

  emitFrom(mainFlow, 0);
  for (const s of orphans) {
    if (sidechainDone[s]) continue;
    sidechainDone[s] = 1;
    emitFrom(sidechains[s]!.entryIndices, 1);
  }
  // Whatever a cycle of spawners left out.
  const rest: number[] = [];
  for (let i = 0; i < n; i++) if (!emitted[i]) rest.push(i);
  emitFrom(rest, 1);

  const positionByEntry = new Int32Array(n).fill(-1);
  for (let row = 0; row < count; row++) positionByEntry[order[row]!] = row;
  return { order: count === n ? order : order.slice(0, count), depthByEntry, positionByEntry };
}

/** Sidechains of these file roles are placed in the conversation when no call spawned them. */
const PLACED_ROLES = new Set(['compaction-call', 'side-question']);

/**
 * The main-flow entry each orphan compaction-call or side-question sidechain follows (linear in
 * entries, a binary search per sidechain): by parent link, by its compaction's boundary, by time.
 */
function placeOrphans(
  session: Session,
  orphans: readonly number[],
  mainFlow: readonly number[],
): Map<number, number> {
  const { entries, sidechains, files, compactions } = session;
  const out = new Map<number, number>();
  const wanted = orphans.filter((s) => PLACED_ROLES.has(files[sidechains[s]!.fileIndex]?.role ?? ''));
  if (wanted.length === 0 || mainFlow.length === 0) return out;
  const mainByUuid = new Map<string, number>();
  const positionInFlow = new Map<number, number>();
  // The running latest time along the main flow: a binary search finds the last entry at or before a time.
  const latest = new Float64Array(mainFlow.length);
  let max = Number.NEGATIVE_INFINITY;
  mainFlow.forEach((entryIndex, k) => {
    const e = entries[entryIndex]!;
    if (e.uuid) mainByUuid.set(e.uuid, entryIndex);
    positionInFlow.set(entryIndex, k);
    if (e.timestampMs !== undefined && e.timestampMs > max) max = e.timestampMs;
    latest[k] = max;
  });
  const boundaryOfFile = new Map<number, number>();
  for (const c of compactions)
    if (c.callFileIndex !== undefined) boundaryOfFile.set(c.callFileIndex, c.entryIndex);
  for (const s of wanted) {
    const sc = sidechains[s]!;
    const first = sc.entryIndices[0];
    if (first === undefined) continue;
    const head = entries[first]!;
    const parent = head.parentUuid ? mainByUuid.get(head.parentUuid) : undefined;
    if (parent !== undefined) {
      out.set(s, parent);
      continue;
    }
    const boundary = boundaryOfFile.get(sc.fileIndex);
    const at = boundary === undefined ? undefined : positionInFlow.get(boundary);
    if (at !== undefined && at > 0) {
      out.set(s, mainFlow[at - 1]!);
      continue;
    }
    const t = head.timestampMs;
    if (t === undefined) continue;
    let lo = 0;
    let hi = latest.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (latest[mid]! <= t) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    if (found >= 0) out.set(s, mainFlow[found]!);
  }
  return out;
}
