import type { Branch, BranchFork, Entry, Session, SessionBranches } from '../types';
import { isMainThreadEntry } from './main-thread';

// The forks of a Claude Code uuid tree: where a rewind, an edited earlier prompt or a retried
// request made a second continuation of one entry (docs/sources.md#fmt-envelope: "Retries, edits and resumes
// create branches. Take the current conversation by walking back from the last leaf").
//
// The tree. Nodes are the main thread's entries that have a uuid. An entry's parent is its
// `parentUuid`; where that is null or names no entry of the file (a compact boundary, a resumed
// session, a dangling link: docs/sources.md#fmt-tolerate) it is the `logicalParentUuid` when that exists, else
// the node before it in the file: a root in the middle of a file continues what precedes it.
//
// A fork is a node with two or more *branch children*: children whose subtree holds a user
// prompt or an API call other than the node's own, written one after the other (each starts
// after the previous one's last entry). That leaves out the tree's harmless splits: a parallel
// tool_use's next streamed line and its tool_result are both children of the first line, but the
// line's subtree holds only the same call; a command typed while the agent works hangs off the
// entry current then, but its subtree is written at the same time as the agent's.
//
// Branches. The main line is the path from the root to the last user/assistant entry of the
// file (the branch that went on). Every other branch child of a fork on a branch starts a branch
// that follows, at each node, the child whose subtree was written last, down to a leaf. A branch
// owns its segment: from its first entry to its leaf; other entries (side leaves) belong to the
// branch of their parent.
//
// Following a branch. The history of an API call is the chain of its first entry's ancestors:
// what the model was sent. Following branch B means taking the root-to-leaf path of B as the
// conversation: the entries on it are the ancestors of B's leaf plus the side entries hanging off
// them (not the first entries of other forks' branches). The context series and the replay of a
// followed branch see only those entries and the calls whose first entry is on it; calls on other
// branches happened (they stay in the counts and the token table) but belong to another history.
// A session without forks has no `branches` and every entry is followed: results are unchanged.

const PREVIEW_CHARS = 80;

function isTreeEntry(session: Session, entry: Entry): boolean {
  return entry.uuid !== undefined && entry.uuid !== '' && isMainThreadEntry(session, entry);
}

/** A user entry typed by the person (not injected context, not only tool results). */
function isPrompt(entry: Entry): boolean {
  if (entry.kind !== 'user' || entry.isMeta || entry.isCompactSummary) return false;
  return entry.blocks.length === 0 || entry.blocks.some((b) => b.kind !== 'tool-result');
}

function promptPreview(entry: Entry): string {
  const text =
    entry.blocks.find((b): b is Extract<Entry['blocks'][number], { kind: 'text' }> => b.kind === 'text')
      ?.text ??
    entry.summaryText ??
    '';
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > PREVIEW_CHARS ? `${flat.slice(0, PREVIEW_CHARS - 1)}…` : flat;
}

const parentsOf = new WeakMap<readonly Entry[], Int32Array>();

/**
 * Effective parents of the tree's nodes (−1 for roots and entries outside the tree), once per
 * session: the forks (at parse) and the usage estimates both read them.
 */
export function computeEntryParents(session: Session): Int32Array {
  const known = parentsOf.get(session.entries);
  if (known) return known;
  const parent = computeEntryParentsUncached(session);
  parentsOf.set(session.entries, parent);
  return parent;
}

function computeEntryParentsUncached(session: Session): Int32Array {
  const { entries } = session;
  const parent = new Int32Array(entries.length).fill(-1);
  const byUuid = new Map<string, number>();
  for (const e of entries) if (isTreeEntry(session, e)) byUuid.set(e.uuid!, e.index);
  let previous = -1;
  for (const e of entries) {
    if (!isTreeEntry(session, e)) continue;
    let p =
      (e.parentUuid ? byUuid.get(e.parentUuid) : undefined) ??
      (e.logicalParentUuid ? byUuid.get(e.logicalParentUuid) : undefined) ??
      previous;
    // A progress record stamped before the entry it names as parent was written late with a stale
    // link: it continues the file. Claude Code 2.1.68 (a real session of fabien-lessirard/dotfiles,
    // e739b244) wrote hook progress of 15:33 under an answer of 15:45, after a prompt of 15:50 and
    // its call, and the next prompt hangs on that progress: a fork whose other side lost a call the
    // next request still held (61,066 tokens, then 62,319). So is one stamped before the entry the
    // file wrote just ahead of it: Claude Code 2.1.81 (LAF-US/IDAHO-VAULT cd12a960) wrote a
    // background agent's progress of 21:51:40 in one chunk at 22:13, under the Agent call's answer
    // (same stamp), and the next entry hangs on the last of them: 53 of 113 calls, written between
    // them, were a branch the main line left.
    const stamped = p >= 0 ? entries[p]!.timestampMs : undefined;
    const before = previous >= 0 ? entries[previous]!.timestampMs : undefined;
    if (
      e.kind === 'progress' &&
      p !== previous &&
      previous >= 0 &&
      e.timestampMs !== undefined &&
      ((stamped !== undefined && e.timestampMs < stamped) || (before !== undefined && e.timestampMs < before))
    )
      p = previous;
    // A link to itself or forward (untrusted input) would make a cycle: fall back to file order.
    parent[e.index] = p !== e.index ? p : previous;
    previous = e.index;
  }
  breakCycles(parent);
  return parent;
}

/**
 * Links pointing forward could still chain into a cycle: each cycle loses the parent link of its
 * lowest-index node. Every node has one parent, so one walk per unvisited node finds every cycle:
 * linear, where walking to the root from every node was quadratic in the tree's depth (13 s on
 * the 100 MB bench file, a chain of 100k entries).
 */
export function breakCycles(parent: Int32Array): void {
  const n = parent.length;
  // 0 = unvisited; else the 1-based index of the walk that reached the node first.
  const walkOf = new Int32Array(n);
  for (let start = 0; start < n; start++) {
    if (walkOf[start] !== 0) continue;
    const walk = start + 1;
    let x = start;
    while (x >= 0 && walkOf[x] === 0) {
      walkOf[x] = walk;
      x = parent[x]!;
    }
    // Reaching a node of this same walk closes a cycle through it.
    if (x < 0 || walkOf[x] !== walk) continue;
    let lowest = x;
    for (let y = parent[x]!; y !== x; y = parent[y]!) if (y < lowest) lowest = y;
    parent[lowest] = -1;
  }
}

/** The forks and branches of a session's uuid tree; undefined when it has no fork. */
export function computeBranches(session: Session): SessionBranches | undefined {
  const { entries } = session;
  const n = entries.length;
  const parent = computeEntryParents(session);
  const inTree = new Uint8Array(n);
  const children: number[][] = Array.from({ length: n }, () => []);
  let mainLeaf = -1;
  for (const e of entries) {
    if (!isTreeEntry(session, e)) continue;
    inTree[e.index] = 1;
    const p = parent[e.index]!;
    if (p >= 0) children[p]!.push(e.index);
    if (e.kind === 'user' || e.kind === 'assistant') mainLeaf = e.index;
  }
  if (mainLeaf < 0) return undefined;

  // Preorder from the roots, then subtree facts in reverse preorder. A subtree is a contiguous
  // run of the preorder (`pre`, `size`): "is x under c" is two comparisons, not a walk up.
  const order: number[] = [];
  const pre = new Int32Array(n).fill(-1);
  for (let i = 0; i < n; i++) {
    if (!inTree[i] || parent[i]! >= 0) continue;
    const stack = [i];
    while (stack.length > 0) {
      const x = stack.pop()!;
      pre[x] = order.length;
      order.push(x);
      const kids = children[x]!;
      for (let k = kids.length - 1; k >= 0; k--) stack.push(kids[k]!);
    }
  }
  const size = new Int32Array(n).fill(1);
  const isUnder = (x: number, c: number): boolean =>
    pre[x]! >= pre[c]! && pre[x]! < pre[c]! + size[c]! && pre[c]! >= 0;
  const hasPrompt = new Uint8Array(n);
  const minCall = new Int32Array(n).fill(0x7fffffff);
  const maxCall = new Int32Array(n).fill(-1);
  /** Last user/assistant entry of the subtree (file order), −1 when none. */
  const latest = new Int32Array(n).fill(-1);
  /** First and last timestamps of the subtree's user/assistant entries (ms; ±Infinity when none). */
  const firstMs = new Float64Array(n).fill(Number.POSITIVE_INFINITY);
  const lastMs = new Float64Array(n).fill(Number.NEGATIVE_INFINITY);
  /** Main-thread API calls (not synthetic) whose first entry is in the subtree. */
  const callsUnder = new Int32Array(n);
  for (const call of session.apiCalls)
    if (call.model !== '<synthetic>' && inTree[call.firstEntryIndex]) callsUnder[call.firstEntryIndex]!++;
  for (let k = order.length - 1; k >= 0; k--) {
    const x = order[k]!;
    const e = entries[x]!;
    if (isPrompt(e)) hasPrompt[x] = 1;
    if (e.apiCallIndex !== undefined) {
      minCall[x] = Math.min(minCall[x]!, e.apiCallIndex);
      maxCall[x] = Math.max(maxCall[x]!, e.apiCallIndex);
    }
    if (e.kind === 'user' || e.kind === 'assistant') {
      latest[x] = Math.max(latest[x]!, x);
      if (e.timestampMs !== undefined) {
        firstMs[x] = Math.min(firstMs[x]!, e.timestampMs);
        lastMs[x] = Math.max(lastMs[x]!, e.timestampMs);
      }
    }
    const p = parent[x]!;
    if (p < 0) continue;
    size[p]! += size[x]!;
    hasPrompt[p] = hasPrompt[p]! | hasPrompt[x]!;
    minCall[p] = Math.min(minCall[p]!, minCall[x]!);
    maxCall[p] = Math.max(maxCall[p]!, maxCall[x]!);
    latest[p] = Math.max(latest[p]!, latest[x]!);
    callsUnder[p]! += callsUnder[x]!;
    firstMs[p] = Math.min(firstMs[p]!, firstMs[x]!);
    lastMs[p] = Math.max(lastMs[p]!, lastMs[x]!);
  }
  // A rewind or an edit starts its branch after the other branch's work: children whose subtrees
  // were written at the same time are interleaved writes (a /model command typed while the agent
  // worked hangs off the entry current when it was typed, yet the next prompt's usage carries the
  // agent's work: LAF-US__IDAHO-VAULT 05541cb5 line 166), not a fork.
  const isSequential = (kids: number[]): boolean => {
    const byStart = [...kids].sort((a, b) => firstMs[a]! - firstMs[b]!);
    for (let k = 1; k < byStart.length; k++)
      if (firstMs[byStart[k]!]! < lastMs[byStart[k - 1]!]!) return false;
    return true;
  };
  const isBranchChild = (f: number, c: number): boolean => {
    if (hasPrompt[c]) return true;
    const own = entries[f]!.apiCallIndex;
    if (maxCall[c]! < 0) return false;
    return own === undefined || minCall[c] !== own || maxCall[c] !== own;
  };

  const onMain = new Uint8Array(n);
  for (let x = mainLeaf; x >= 0; x = parent[x]!) onMain[x] = 1;
  const branchOfEntry = new Int32Array(n).fill(-1);
  const forks: BranchFork[] = [];
  const branches: Branch[] = [];
  let root = mainLeaf;
  while (parent[root]! >= 0) root = parent[root]!;

  // Each queued branch: its first entry, the fork it leaves from, and its parent branch.
  // Read from `head` on: shift() moves the whole queue, quadratic in the branches.
  const queue: { start: number; forkIndex: number; parentBranchId: number }[] = [
    { start: root, forkIndex: -1, parentBranchId: -1 },
  ];
  for (let head = 0; head < queue.length; head++) {
    const { start, forkIndex, parentBranchId } = queue[head]!;
    const id = branches.length;
    const isMainLine = id === 0;
    let x = start;
    for (;;) {
      branchOfEntry[x] = id;
      const kids = children[x]!;
      if (kids.length === 0) break;
      let next = -1;
      for (const c of kids) {
        if (isMainLine ? onMain[c] : next < 0 || latest[c]! > latest[next]!) next = c;
      }
      if (next < 0) break;
      const branchKids = kids.filter((c) => isBranchChild(x, c));
      if (branchKids.length >= 2 && branchKids.includes(next) && isSequential(branchKids)) {
        const fork: BranchFork = {
          entryIndex: x,
          branchIds: [],
          childEntryIndices: [],
          childPreviews: [],
          childApiCalls: [],
          continuedBranchId: id,
        };
        const fi = forks.length;
        forks.push(fork);
        for (const c of branchKids) {
          fork.childEntryIndices.push(c);
          if (c === next) fork.branchIds.push(id);
          else {
            // Ids are given in queue order: a branch's id is its place in the queue.
            fork.branchIds.push(queue.length);
            queue.push({ start: c, forkIndex: fi, parentBranchId: id });
          }
        }
      }
      x = next;
    }
    branches.push({
      id,
      startEntryIndex: start,
      leafEntryIndex: x,
      forkIndex,
      parentBranchId,
      isMainLine,
      apiCalls: 0,
      preview: '',
    });
  }
  if (forks.length === 0) return undefined;

  // Side entries take their parent's branch (preorder: parents first).
  for (const x of order)
    if (branchOfEntry[x]! < 0 && parent[x]! >= 0) branchOfEntry[x] = branchOfEntry[parent[x]!]!;
  // Each branch's prompts in file order: a preview is the first at or after a point, found by a
  // binary search, where a scan of the file from that point per branch was quadratic.
  const promptsOf: number[][] = branches.map(() => []);
  for (let x = 0; x < n; x++) {
    const b = branchOfEntry[x]!;
    if (b >= 0 && isPrompt(entries[x]!)) promptsOf[b]!.push(x);
  }
  /** The first prompt of branch `b` at or after entry `from` that `accept` takes. */
  const firstPrompt = (b: number, from: number, accept: (x: number) => boolean): number | undefined => {
    const prompts = promptsOf[b]!;
    let lo = 0;
    let hi = prompts.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (prompts[mid]! < from) lo = mid + 1;
      else hi = mid;
    }
    for (let k = lo; k < prompts.length; k++) if (accept(prompts[k]!)) return prompts[k];
    return undefined;
  };
  for (const fork of forks) {
    const pairs = fork.branchIds.map((b, k) => [b, fork.childEntryIndices[k]!] as const);
    pairs.sort((a, b) => a[1] - b[1]);
    fork.branchIds = pairs.map((p) => p[0]);
    fork.childEntryIndices = pairs.map((p) => p[1]);
    fork.childApiCalls = pairs.map(([, c]) => callsUnder[c]!);
    fork.childPreviews = pairs.map(([b, c]) => {
      const x = firstPrompt(b, c, (y) => isUnder(y, c));
      return x === undefined ? '' : promptPreview(entries[x]!);
    });
    // The branch that went on: the main line when it is one of them, else the one written last.
    let best = 0;
    for (let k = 1; k < pairs.length; k++) {
      const [b, c] = pairs[k]!;
      const [bestB, bestC] = pairs[best]!;
      if (branches[b]!.isMainLine || (!branches[bestB]!.isMainLine && latest[c]! > latest[bestC]!)) best = k;
    }
    fork.continuedBranchId = pairs[best]![0];
  }
  for (const call of session.apiCalls) {
    const b = branchOfEntry[call.firstEntryIndex]!;
    if (b >= 0 && call.model !== '<synthetic>') branches[b]!.apiCalls++;
  }
  for (const b of branches) {
    b.startTimestampMs = entries[b.startEntryIndex]?.timestampMs;
    const x = firstPrompt(b.id, b.startEntryIndex, () => true);
    if (x !== undefined) b.preview = promptPreview(entries[x]!);
  }
  return { forks, branches, branchOfEntry, parentOfEntry: parent };
}

const followed = new WeakMap<Session, Uint8Array>();
const views = new WeakMap<Session, Map<number, Session>>();

/** Entries on the root-to-leaf path of a branch, plus the side entries hanging off it. */
function computeBranchPath(session: Session, branches: SessionBranches, branchId: number): Uint8Array {
  const n = session.entries.length;
  const parent = branches.parentOfEntry;
  const path = new Uint8Array(n);
  const leaf = branches.branches[branchId]?.leafEntryIndex ?? branches.branches[0]!.leafEntryIndex;
  const ancestor = new Uint8Array(n);
  for (let x = leaf; x >= 0; x = parent[x]!) ancestor[x] = 1;
  const forkChild = new Uint8Array(n);
  for (const f of branches.forks) for (const c of f.childEntryIndices) forkChild[c] = 1;
  // An entry is on the path when it is an ancestor of the leaf, off it under another fork's child,
  // else as its parent is. Entries usually come after their parents in files; for one that does
  // not, the walk up to the first decided entry is iterative (a reversed chain of 200k entries
  // overflowed the stack of the recursive walk) and decides every entry it passed, so each entry
  // is walked once.
  const decided = new Uint8Array(n);
  const walked: number[] = [];
  for (let x = 0; x < n; x++) {
    if (decided[x]) continue;
    let y = x;
    let on = 0;
    for (;;) {
      if (decided[y]) on = path[y]!;
      else if (branches.branchOfEntry[y]! < 0 || ancestor[y]) on = 1;
      else if (forkChild[y]) on = 0;
      else if (parent[y]! >= 0) {
        walked.push(y);
        y = parent[y]!;
        continue;
      } else on = 0;
      break;
    }
    if (!decided[y]) {
      path[y] = on;
      decided[y] = 1;
    }
    for (const w of walked) {
      path[w] = on;
      decided[w] = 1;
    }
    walked.length = 0;
  }
  return path;
}

/**
 * The session as seen along one branch: a shallow copy whose followed path is that branch's
 * (the session itself for the main line or a session without forks). Memoized per session and
 * branch, so per-session caches (the replay's preparation) hold one entry per branch.
 */
export function followBranch(session: Session, branchId: number): Session {
  const branches = session.branches;
  if (!branches || branchId <= 0 || branchId >= branches.branches.length) return session;
  let byId = views.get(session);
  if (!byId) {
    byId = new Map();
    views.set(session, byId);
  }
  let view = byId.get(branchId);
  if (!view) {
    view = { ...session };
    followed.set(view, computeBranchPath(session, branches, branchId));
    byId.set(branchId, view);
  }
  return view;
}

/** The followed branch of a session (a view from `followBranch`), 0 = the main line. */
function getFollowedPath(session: Session): Uint8Array | undefined {
  const path = followed.get(session);
  if (path || !session.branches) return path;
  const main = computeBranchPath(session, session.branches, 0);
  followed.set(session, main);
  return main;
}

/** True when an entry is on the followed branch (always, in a session without forks). */
export function isOnFollowedBranch(session: Session, entryIndex: number): boolean {
  if (!session.branches) return true;
  return getFollowedPath(session)![entryIndex] === 1;
}
