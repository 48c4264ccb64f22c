import { isMainThreadEntry } from '../compact/build-request';
import { isOnFollowedBranch } from '../parse/branches';
import { getCallContext } from '../query/usage-coverage';
import type { FileAccess } from '../compact/restore';
import {
  estimateBlockTokens,
  estimateEntryTokens,
  estimateTextTokens,
  TOKENS_PER_IMAGE,
} from '../tokens/estimate';
import type { Block, Session, TokenCount } from '../types';

// Everything a replay needs that does not depend on knobs, computed once per session
// (`prepareReplay`), so that `computeReplay` is a linear walk over typed arrays.
//
// Token attribution. The context entries (main-thread user / assistant / attachment records)
// are split into groups: group k holds the entries first sent with API call k. The recorded
// usage says exactly how much each group added: R[k] − R[k−1] (plus what a real microcompact
// removed in between). That total is split over the group's entries in proportion to Claude
// Code's own estimate (tokens/estimate.ts). Entries no usage covers (summarized before anything
// was sent, or after the last call) get the estimate itself. `tokenSource` says which.

/** Tokens of the placeholder a cleared result keeps (`"[Old tool result content cleared]"`, FORMAT.md §4.4). */
export const PLACEHOLDER_TOKENS: TokenCount = estimateTextTokens('[Old tool result content cleared]'.length);

/** How an entry's token figure was obtained. */
export const TOKEN_SOURCE = {
  /** The only entry of its group: the recorded usage delta itself. */
  exact: 0,
  /** The group's recorded delta, split over its entries by estimate. */
  split: 1,
  /** No usage covers it: Claude Code's estimate. */
  estimated: 2,
  /** The recorded delta was negative (cache or thinking accounting): counted as 0. */
  clamped: 3,
} as const;
export type TokenSourceId = (typeof TOKEN_SOURCE)[keyof typeof TOKEN_SOURCE];
export const TOKEN_SOURCE_LABELS = [
  'recorded usage delta',
  'usage delta split by estimate',
  'estimate',
  'negative delta, counted as 0',
] as const;

/** The model of local error / interrupt messages: no API call (FORMAT.md §6). */
const SYNTHETIC_MODEL = '<synthetic>';
/** Kind of clearable item (index into `clearables.tool` when ≥ 0). */
export const CLEARABLE_IMAGE = -1;
export const CLEARABLE_DOCUMENT = -2;

/** Tools whose tool_use names the file they touch (restoration, `bD5`). */
const FILE_TOOLS = new Set(['Read', 'Write', 'Edit', 'MultiEdit', 'NotebookEdit', 'NotebookRead']);
const READ_TOOLS = new Set(['Read', 'NotebookRead']);
/** An empty todo list serializes to `{"todos":[]}`: nothing to restore (`fD5` returns null). */
const EMPTY_TODOS_CHARS = 14;

export interface RealCompactionInfo {
  compactionIndex: number;
  kind: 'compact' | 'microcompact';
  trigger: string;
  /** Main-call position (k) the boundary follows; −1 when it precedes every call. */
  afterCall: number;
  entryIndex: number;
  /** Context position of the first context entry after the boundary. */
  boundaryPos: number;
  /** Context positions of the summary and re-attached entries (compact only). */
  artifactPositions: number[];
  artifactTokens: TokenCount;
  /** Attributed tokens of the summary message (compact only). */
  summaryTokens?: TokenCount;
  summaryEntryIndex?: number;
  preTokens?: TokenCount;
  /** Microcompact: indices into `clearables`. */
  cleared: number[];
  /** Microcompact: tokens the clearing removed from the recorded context (attributed − placeholder). */
  savedTokens: TokenCount;
  logicalParentUuid?: string;
}

export interface Clearables {
  /** Context position of the entry holding the result / image. */
  pos: Int32Array;
  /** Claude Code's estimate (`iI2`: chars / 4 + 2,000 per image; `eV8` for a bare image). */
  estimate: Float64Array;
  /** Attributed share of the entry's tokens. */
  tokens: Float64Array;
  /** Index into `toolNames`, or CLEARABLE_IMAGE / CLEARABLE_DOCUMENT. */
  tool: Int32Array;
  /** Context position of the tool_use (−1 for images or unmatched results). */
  usePos: Int32Array;
  /** tool_use id, or `<entry uuid|#index>:image:<n>` for images and documents in user messages. */
  ids: string[];
  indexById: Map<string, number>;
  /**
   * Items in call order: by the position of their tool_use (an image by its own), ties by result.
   * Parallel calls' results can arrive out of order; microcompact counts back in call order.
   */
  order: Int32Array;
  /** Key the order sorts on: tool_use position, or the item's own for images / orphan results. */
  orderKey: Int32Array;
}

export interface PreparedReplay {
  session: Session;
  /** Main-thread, non-synthetic API calls, in order: index into `session.apiCalls`. */
  calls: Int32Array;
  /** Recorded context of each call: input + cache creation + cache read. */
  recorded: Float64Array;
  output: Float64Array;
  /** Context position of each call's first line; `callPos[n]` = number of context entries. */
  callPos: Int32Array;
  /**
   * Claude Code 2.1.x's estimate of what follows a response's first line up to the next call
   * (its later lines, tool results, user messages; real compaction artifacts excluded).
   */
  pendingEstimate: Float64Array;
  /** Context position → entry index. */
  ctxEntry: Int32Array;
  /** Entry index → context position, −1 for entries that are not context. */
  posOfEntry: Int32Array;
  tokens: Float64Array;
  estimate: Float64Array;
  tokenSource: Uint8Array;
  /** 1 + index into `real` for real compaction artifacts (summary, re-attachments), else 0. */
  artifactOf: Int32Array;
  /** Prefix sums of `tokens` (length n+1): all entries / without artifacts. */
  prefixAll: Float64Array;
  prefixNon: Float64Array;
  /**
   * Prefix sums without artifacts, by `TOKEN_SOURCE` (length n+1 each): tokens for exact, split
   * and estimated; for clamped, the number of entries (their tokens are 0).
   */
  prefixBySource: Float64Array[];
  /** System prompt + tools, estimated as the first call's context minus its entries. */
  baseTokens: TokenCount;
  clearables: Clearables;
  toolNames: string[];
  real: RealCompactionInfo[];
  fileAccesses: { pos: Int32Array; list: FileAccess[] };
  todos: { pos: Int32Array; entryIndex: Int32Array; tokens: Float64Array };
  plans: { pos: Int32Array; entryIndex: Int32Array; tokens: Float64Array; paths: (string | undefined)[] };
  /** The main file's name, for the continuation message's transcript hint. */
  transcriptPath: string;
  prepareMs: number;
}

/** Splits `total` over `weights` in proportion, in integers that sum exactly to `total`. */
function splitInteger(total: number, weights: number[], out: number[]): void {
  const n = weights.length;
  let sum = 0;
  for (const w of weights) sum += w;
  if (n === 0) return;
  if (sum <= 0) {
    for (let i = 0; i < n; i++) out[i] = 0;
    out[n - 1] = total;
    return;
  }
  let acc = 0;
  let prev = 0;
  for (let i = 0; i < n; i++) {
    acc += weights[i]!;
    const cut = Math.round((total * acc) / sum);
    out[i] = cut - prev;
    prev = cut;
  }
}

function toolResultEstimate(block: Extract<Block, { kind: 'tool-result' }>): TokenCount {
  return estimateTextTokens(block.chars) + block.images * TOKENS_PER_IMAGE;
}

/** Precomputes attribution, clearable items and restoration sources for a session. */
export function prepareReplay(session: Session): PreparedReplay {
  const t0 = performance.now();
  const { entries } = session;
  const callList: number[] = [];
  for (const call of session.apiCalls) {
    // Main-thread calls; a subagent file opened on its own is its own main thread.
    const first = entries[call.firstEntryIndex];
    if (
      first &&
      isMainThreadEntry(session, first) &&
      isOnFollowedBranch(session, first.index) &&
      call.model !== SYNTHETIC_MODEL
    )
      callList.push(call.index);
  }
  const n = callList.length;
  const calls = Int32Array.from(callList);
  const recorded = new Float64Array(n);
  const output = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    const call = session.apiCalls[calls[k]!]!;
    recorded[k] = getCallContext(session, call.index).tokens;
    output[k] = call.usage.outputTokens;
  }

  // Context entries.
  const posOfEntry = new Int32Array(entries.length).fill(-1);
  const ctxList: number[] = [];
  for (const entry of entries) {
    if (entry.kind !== 'user' && entry.kind !== 'assistant' && entry.kind !== 'attachment') continue;
    if (!isMainThreadEntry(session, entry) || !isOnFollowedBranch(session, entry.index)) continue;
    posOfEntry[entry.index] = ctxList.length;
    ctxList.push(entry.index);
  }
  const m = ctxList.length;
  const ctxEntry = Int32Array.from(ctxList);
  /** First context position whose entry index is ≥ `entryIndex`. */
  const posAtOrAfter = (entryIndex: number): number => {
    let lo = 0;
    let hi = m;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (ctxEntry[mid]! < entryIndex) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const callPos = new Int32Array(n + 1);
  for (let k = 0; k < n; k++) {
    const call = session.apiCalls[calls[k]!]!;
    let pos = posAtOrAfter(call.firstEntryIndex);
    // Codex rollouts log a call's usage (`token_count`) after its response items: the call's first
    // line is the first of the assistant items just before it (not before the previous call's usage).
    if (session.files[call.fileIndex]?.dialect === 'codex-cli') {
      const floor = k > 0 ? posAtOrAfter(session.apiCalls[calls[k - 1]!]!.firstEntryIndex) : 0;
      while (pos > floor && entries[ctxEntry[pos - 1]!]!.kind === 'assistant') pos--;
    }
    callPos[k] = pos;
  }
  callPos[n] = m;
  /** Main-call position of the last call starting before `entryIndex` (−1 if none). */
  const callBefore = (entryIndex: number): number => {
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (session.apiCalls[calls[mid]!]!.firstEntryIndex < entryIndex) lo = mid + 1;
      else hi = mid;
    }
    return lo - 1;
  };

  const estimate = new Float64Array(m);
  for (let p = 0; p < m; p++) estimate[p] = estimateEntryTokens(entries[ctxEntry[p]!]!);

  // Real compactions of the main thread.
  const real: RealCompactionInfo[] = [];
  const artifactOf = new Int32Array(m);
  session.compactions.forEach((c, compactionIndex) => {
    const entry = entries[c.entryIndex];
    if (!entry || !isMainThreadEntry(session, entry) || !isOnFollowedBranch(session, entry.index)) return;
    const info: RealCompactionInfo = {
      compactionIndex,
      kind: c.kind,
      trigger: c.trigger,
      afterCall: callBefore(c.entryIndex),
      entryIndex: c.entryIndex,
      boundaryPos: posAtOrAfter(c.entryIndex + 1),
      artifactPositions: [],
      artifactTokens: 0,
      summaryEntryIndex: c.summaryEntryIndex,
      preTokens: c.preTokens,
      cleared: [],
      savedTokens: 0,
      logicalParentUuid: entry.logicalParentUuid,
    };
    if (c.kind === 'compact') {
      const artifactEntries = [
        ...(c.summaryEntryIndex === undefined ? [] : [c.summaryEntryIndex]),
        ...c.reattachedEntryIndices,
      ];
      for (const e of artifactEntries) {
        const p = posOfEntry[e]!;
        if (p < 0) continue;
        info.artifactPositions.push(p);
        artifactOf[p] = real.length + 1;
      }
      info.artifactPositions.sort((a, b) => a - b);
    }
    real.push(info);
  });
  real.sort((a, b) => a.entryIndex - b.entryIndex);
  // `artifactOf` was filled with pre-sort indices: refill.
  artifactOf.fill(0);
  real.forEach((r, i) => {
    for (const p of r.artifactPositions) artifactOf[p] = i + 1;
  });

  // Clearable items (tool results of every tool, images / documents in user messages).
  const toolNames: string[] = [];
  const toolIndex = new Map<string, number>();
  const cPos: number[] = [];
  const cEst: number[] = [];
  const cTool: number[] = [];
  const cUse: number[] = [];
  const ids: string[] = [];
  /** Per context position: [first clearable, count) and the estimate of those items. */
  const firstClearable = new Int32Array(m + 1);
  for (let p = 0; p < m; p++) {
    firstClearable[p] = cPos.length;
    const entry = entries[ctxEntry[p]!]!;
    if (entry.kind !== 'user') continue;
    let media = 0;
    for (const block of entry.blocks) {
      if (block.kind === 'tool-result') {
        const useEntry = session.toolUseEntry.get(block.toolUseId);
        let name = '(unknown)';
        if (useEntry !== undefined) {
          const use = entries[useEntry]!.blocks.find(
            (b) => b.kind === 'tool-use' && b.id === block.toolUseId,
          );
          if (use?.kind === 'tool-use') name = use.name;
        }
        let ti = toolIndex.get(name);
        if (ti === undefined) {
          ti = toolNames.length;
          toolNames.push(name);
          toolIndex.set(name, ti);
        }
        cPos.push(p);
        cEst.push(toolResultEstimate(block));
        cTool.push(ti);
        cUse.push(useEntry === undefined ? -1 : posOfEntry[useEntry]!);
        ids.push(block.toolUseId);
      } else if (block.kind === 'image' || block.kind === 'document') {
        cPos.push(p);
        cEst.push(TOKENS_PER_IMAGE);
        cTool.push(block.kind === 'image' ? CLEARABLE_IMAGE : CLEARABLE_DOCUMENT);
        cUse.push(-1);
        ids.push(`${entry.uuid ?? `#${entry.index}`}:${block.kind}:${media++}`);
      }
    }
  }
  firstClearable[m] = cPos.length;
  const cCount = cPos.length;
  const clearables: Clearables = {
    pos: Int32Array.from(cPos),
    estimate: Float64Array.from(cEst),
    tokens: new Float64Array(cCount),
    tool: Int32Array.from(cTool),
    usePos: Int32Array.from(cUse),
    ids,
    indexById: new Map(ids.map((id, i) => [id, i])),
    order: new Int32Array(cCount),
    orderKey: new Int32Array(cCount),
  };
  {
    const keys = cPos.map((p, i) => (cUse[i]! >= 0 ? cUse[i]! : p));
    const order = Array.from({ length: cCount }, (_, i) => i).sort((a, b) => keys[a]! - keys[b]! || a - b);
    clearables.order.set(order);
    clearables.orderKey.set(order.map((i) => keys[i]!));
  }
  for (const r of real) {
    if (r.kind !== 'microcompact') continue;
    const meta = entries[r.entryIndex]?.microcompact;
    for (const id of meta?.compactedToolIds ?? []) {
      const i = clearables.indexById.get(id);
      if (i !== undefined) r.cleared.push(i);
    }
  }

  // Attribution, group by group.
  const tokens = new Float64Array(m);
  const tokenSource = new Uint8Array(m);
  const weights: number[] = [];
  const shares: number[] = [];
  const assign = (from: number, to: number, total: number) => {
    if (to <= from) return;
    weights.length = 0;
    for (let p = from; p < to; p++) weights.push(estimate[p]!);
    shares.length = weights.length;
    if (total < 0) {
      for (let p = from; p < to; p++) {
        tokens[p] = 0;
        tokenSource[p] = TOKEN_SOURCE.clamped;
      }
      return;
    }
    splitInteger(total, weights, shares);
    const source = to - from === 1 ? TOKEN_SOURCE.exact : TOKEN_SOURCE.split;
    for (let p = from; p < to; p++) {
      tokens[p] = shares[p - from]!;
      tokenSource[p] = source;
    }
  };
  const estimateRange = (from: number, to: number) => {
    for (let p = from; p < to; p++) {
      tokens[p] = estimate[p]!;
      tokenSource[p] = TOKEN_SOURCE.estimated;
    }
  };
  const clearableTokens = (from: number, to: number) => {
    // The entry's attributed tokens shared over its clearable items by estimate.
    for (let p = from; p < to; p++) {
      const a = firstClearable[p]!;
      const b = firstClearable[p + 1]!;
      if (a === b) continue;
      const est = estimate[p]!;
      for (let i = a; i < b; i++) {
        clearables.tokens[i] = est > 0 ? Math.round((tokens[p]! * clearables.estimate[i]!) / est) : 0;
      }
    }
  };

  // The system prompt and tools: what a fresh history (the first call, or the first call after a
  // real compaction) carries beyond its messages. The smallest such figure is taken, so that a
  // log that starts mid-session (a resumed or forked context) does not count its hidden history
  // as system prompt.
  let baseTokens = Number.POSITIVE_INFINITY;
  const freshStart = (k: number, from: number) => {
    let est = 0;
    for (let p = from; p < callPos[k]!; p++) est += estimate[p]!;
    baseTokens = Math.min(baseTokens, recorded[k]! - est);
  };
  if (n > 0) freshStart(0, 0);
  for (const r of real) {
    if (r.kind === 'compact' && r.afterCall + 1 < n && r.afterCall + 1 >= 0)
      freshStart(r.afterCall + 1, r.boundaryPos);
  }
  baseTokens = Number.isFinite(baseTokens) ? Math.max(0, baseTokens) : 0;
  let realIdx = 0;
  for (let k = 0; k <= n; k++) {
    const from = k === 0 ? 0 : callPos[k - 1]!;
    const to = callPos[k]!;
    // Real events between call k−1 and call k.
    let fullBoundary = -1;
    let saved = 0;
    while (realIdx < real.length && real[realIdx]!.afterCall < k) {
      const r = real[realIdx]!;
      if (r.kind === 'compact') fullBoundary = Math.max(fullBoundary, r.boundaryPos);
      else {
        let own = 0;
        for (const i of r.cleared) own += Math.max(0, clearables.tokens[i]! - PLACEHOLDER_TOKENS);
        r.savedTokens = own;
        saved += own;
      }
      realIdx++;
    }
    if (k === n) {
      estimateRange(from, to);
    } else if (k === 0) {
      if (fullBoundary >= 0 && fullBoundary <= to) {
        estimateRange(from, fullBoundary);
        assign(fullBoundary, to, recorded[0]! - baseTokens);
      } else assign(from, to, recorded[0]! - baseTokens);
    } else if (fullBoundary >= 0) {
      const cut = Math.min(Math.max(fullBoundary, from), to);
      estimateRange(from, cut);
      assign(cut, to, recorded[k]! - baseTokens);
    } else {
      assign(from, to, recorded[k]! - recorded[k - 1]! + saved);
    }
    clearableTokens(from, to);
  }
  for (const r of real) {
    let sum = 0;
    for (const p of r.artifactPositions) sum += tokens[p]!;
    r.artifactTokens = sum;
    if (r.summaryEntryIndex !== undefined) {
      // The summary's own size is its estimate: what else the first call after the boundary
      // carried (re-attached files that older versions did not log) stays in `artifactTokens`.
      const p = posOfEntry[r.summaryEntryIndex]!;
      if (p >= 0) r.summaryTokens = Math.min(tokens[p]!, estimate[p]!);
    }
  }

  const prefixAll = new Float64Array(m + 1);
  const prefixNon = new Float64Array(m + 1);
  const prefixBySource = [0, 1, 2, 3].map(() => new Float64Array(m + 1));
  for (let p = 0; p < m; p++) {
    prefixAll[p + 1] = prefixAll[p]! + tokens[p]!;
    prefixNon[p + 1] = prefixNon[p]! + (artifactOf[p] === 0 ? tokens[p]! : 0);
    for (const prefix of prefixBySource) prefix[p + 1] = prefix[p]!;
    if (artifactOf[p] !== 0) continue;
    const s = tokenSource[p]!;
    const prefix = prefixBySource[s]!;
    prefix[p + 1] = prefix[p + 1]! + (s === TOKEN_SOURCE.clamped ? 1 : tokens[p]!);
  }

  const pendingEstimate = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    let sum = 0;
    for (let p = callPos[k]! + 1; p < callPos[k + 1]!; p++) if (artifactOf[p] === 0) sum += estimate[p]!;
    pendingEstimate[k] = sum;
  }

  // Restoration sources: file accesses, todo lists, plans.
  const accessPos: number[] = [];
  const accesses: FileAccess[] = [];
  const lastSize = new Map<string, number>();
  const todoPos: number[] = [];
  const todoEntry: number[] = [];
  const todoTokens: number[] = [];
  const planPos: number[] = [];
  const planEntry: number[] = [];
  const planTokens: number[] = [];
  const planPaths: (string | undefined)[] = [];
  for (let p = 0; p < m; p++) {
    const entry = entries[ctxEntry[p]!]!;
    if (entry.kind !== 'assistant') continue;
    for (const block of entry.blocks) {
      if (block.kind !== 'tool-use') continue;
      if (block.name === 'TodoWrite') {
        todoPos.push(p);
        todoEntry.push(entry.index);
        todoTokens.push(block.inputChars <= EMPTY_TODOS_CHARS ? 0 : estimateTextTokens(block.inputChars));
        continue;
      }
      if (block.name === 'ExitPlanMode') {
        planPos.push(p);
        planEntry.push(entry.index);
        planTokens.push(estimateTextTokens(block.inputChars));
        planPaths.push(undefined);
        continue;
      }
      if (!FILE_TOOLS.has(block.name) || !block.filePath) continue;
      const path = block.filePath;
      let size: number;
      if (READ_TOOLS.has(block.name)) {
        const resultEntry = session.toolResultEntry.get(block.id);
        const result =
          resultEntry === undefined
            ? undefined
            : entries[resultEntry]!.blocks.find((b) => b.kind === 'tool-result' && b.toolUseId === block.id);
        size =
          result?.kind === 'tool-result' && !result.isError
            ? estimateBlockTokens(result)
            : (lastSize.get(path) ?? 0);
      } else if (block.name === 'Write') size = estimateTextTokens(block.inputChars);
      else size = lastSize.get(path) ?? estimateTextTokens(block.inputChars);
      lastSize.set(path, size);
      if (/(^|[\\/])\.claude[\\/]plans[\\/]/.test(path) && block.name !== 'Read') {
        planPos.push(p);
        planEntry.push(entry.index);
        planTokens.push(size);
        planPaths.push(path);
      }
      accessPos.push(p);
      accesses.push({ path, tool: block.name, entryIndex: entry.index, fileTokens: size });
    }
  }

  const mainFile = session.files.find((f) => f.role === 'main');
  return {
    session,
    calls,
    recorded,
    output,
    callPos,
    pendingEstimate,
    ctxEntry,
    posOfEntry,
    tokens,
    estimate,
    tokenSource,
    artifactOf,
    prefixAll,
    prefixNon,
    prefixBySource,
    baseTokens,
    clearables,
    toolNames,
    real,
    fileAccesses: { pos: Int32Array.from(accessPos), list: accesses },
    todos: {
      pos: Int32Array.from(todoPos),
      entryIndex: Int32Array.from(todoEntry),
      tokens: Float64Array.from(todoTokens),
    },
    plans: {
      pos: Int32Array.from(planPos),
      entryIndex: Int32Array.from(planEntry),
      tokens: Float64Array.from(planTokens),
      paths: planPaths,
    },
    transcriptPath: mainFile?.name ?? 'transcript.jsonl',
    prepareMs: performance.now() - t0,
  };
}

/** Index of the first element of a sorted Int32Array that is ≥ `value`. */
export function lowerBound(array: Int32Array, value: number): number {
  let lo = 0;
  let hi = array.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (array[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
