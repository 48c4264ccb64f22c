import { getContinuationOverheadTokens } from '../../../src/engine/compact/format-summary';
import { computeRestoration, type RestoredFile } from '../../../src/engine/compact/restore';
import type { ClaudeCodeKnobs } from '../../../src/engine/strategies/claude-code/knobs';
import { LEGACY_PLACEHOLDER, V2168_PLACEHOLDER } from '../../../src/engine/strategies/claude-code';
import {
  getRestorationExtras,
  getRestoreLimits,
} from '../../../src/engine/strategies/claude-code/compactions';
import { getSummaryRequestOverheadTokens } from '../../../src/engine/compact/build-request';
import { selectMicrocompact } from '../../../src/engine/strategies/claude-code/microcompact';
import { computeThresholds } from '../../../src/engine/thresholds';
import { estimateTextTokens } from '../../../src/engine/tokens/estimate';
import type { TokenCount } from '../../../src/engine/types';
import {
  CLEARABLE_DOCUMENT,
  CLEARABLE_IMAGE,
  PLACEHOLDER_TOKENS,
  type PreparedReplay,
} from '../../../src/engine/replay/prepare';
import { SUMMARY_MODELS, type SummaryModelId } from '../../../src/engine/replay/summary-size';
import { isPersonTurn, requestAfterLastCall } from '../reference-requests';

// A deliberately naive replay of Claude Code's rules, to check the fast one (compute-replay.ts +
// strategies/claude-code/index.ts) on generated transcripts. It keeps both histories as explicit lists
// and re-adds every token at every call (quadratic), scans every item for every decision, and
// shares only the prepared attribution, the threshold formula, the array microcompact rule,
// the restoration rule and the size model with the fast path. No session memory, no manual
// requests, no partial compaction.

export interface NaiveEvent {
  kind: 'microcompact' | 'compact' | 'reset' | 'compact-failed';
  afterCallPos: number;
  postTokens: TokenCount;
  summaryTokens?: TokenCount;
  clearedToolIds?: string[];
}

export interface NaiveResult {
  simulatedTokens: number[];
  checkTokens: number[];
  events: NaiveEvent[];
}

type Item = { pos: number } | { synthetic: TokenCount };

/** Runs the naive replay; `knobs` must be complete (normalized). */
export function computeNaiveReplay(
  prepared: PreparedReplay,
  knobs: ClaudeCodeKnobs,
  summaryModel: SummaryModelId = 'recorded',
): NaiveResult {
  const {
    session,
    calls,
    recorded,
    output,
    callPos,
    pendingEstimate,
    ctxEntry,
    tokens,
    artifactOf,
    clearables,
    real,
    baseTokens,
  } = prepared;
  const model = SUMMARY_MODELS[summaryModel];
  const n = calls.length;
  // The step after the last call: only when the log holds a request after it.
  const stepsAfterLast = requestAfterLastCall(prepared);
  const t = computeThresholds(knobs);
  const placeholder = estimateTextTokens(
    (knobs.microcompactVariant === 'v2.1.68' ? V2168_PLACEHOLDER : LEGACY_PLACEHOLDER).length,
  );
  /** Cleared item → tokens its placeholder keeps. */
  const simCleared = new Map<number, number>();
  const realCleared = new Set<number>();
  let sim: Item[] = [];
  let simFrom = 0;
  let logItems: number[] = [];
  /** What the log's context holds beyond its records since its last compaction (unloggedTokens). */
  let logUnlogged = 0;
  let adopted = -1;
  let carried: RestoredFile[] = [];
  const events: NaiveEvent[] = [];
  const simulatedTokens: number[] = [];
  const checkTokens: number[] = [];
  const tools = new Set(knobs.microcompactTools);

  const itemsOfPos = (p: number) => {
    const out: number[] = [];
    for (let i = 0; i < clearables.pos.length; i++) if (clearables.pos[i] === p) out.push(i);
    return out;
  };
  const priceSim = (p: number) => {
    let v = tokens[p]!;
    for (const i of itemsOfPos(p)) {
      const kept = simCleared.get(i);
      if (kept !== undefined) v -= Math.max(0, clearables.tokens[i]! - kept);
    }
    return v;
  };
  const priceLog = (p: number) => {
    let v = tokens[p]!;
    for (const i of itemsOfPos(p))
      if (realCleared.has(i)) v -= Math.max(0, clearables.tokens[i]! - PLACEHOLDER_TOKENS);
    return v;
  };
  const simSum = () => sim.reduce((sum, it) => sum + ('pos' in it ? priceSim(it.pos) : it.synthetic), 0);
  const logSum = () => logUnlogged + logItems.reduce((sum, p) => sum + priceLog(p), 0);
  const simHas = (p: number) => sim.some((it) => 'pos' in it && it.pos === p);
  /** Appends context positions < `to` the simulation does not hold yet. */
  const growSim = (to: number) => {
    for (let p = simFrom; p < to; p++) {
      if (simHas(p)) continue;
      if (artifactOf[p] !== 0 && artifactOf[p] !== adopted + 1) continue;
      sim.push({ pos: p });
    }
  };
  const growLog = (from: number, to: number) => {
    for (let p = from; p < to; p++) if (!logItems.includes(p)) logItems.push(p);
  };
  const adopt = (r: number) => {
    const info = real[r]!;
    adopted = r;
    simFrom = info.boundaryPos;
    // What the log's compaction holds beyond its records comes with it.
    sim = info.unloggedTokens === 0 ? [] : [{ synthetic: info.unloggedTokens }];
    carried = [];
  };
  const isEligible = (i: number) => {
    const tool = clearables.tool[i]!;
    if (tool >= 0) return tools.has(prepared.toolNames[tool]!);
    return (
      (tool === CLEARABLE_IMAGE || tool === CLEARABLE_DOCUMENT) &&
      knobs.microcompactVariant === 'v2.1.68' &&
      knobs.microcompactClearImages
    );
  };
  const liveEligibleInCallOrder = (boundary: number) => {
    const items: number[] = [];
    for (let i = 0; i < clearables.pos.length; i++) {
      const p = clearables.pos[i]!;
      if (p >= simFrom && p < boundary && simHas(p) && isEligible(i) && !simCleared.has(i)) items.push(i);
    }
    const key = (i: number) => (clearables.usePos[i]! >= 0 ? clearables.usePos[i]! : clearables.pos[i]!);
    return items.sort((a, b) => key(a) - key(b) || a - b);
  };
  const realAt = (k: number) =>
    real.findIndex((r) => r.kind === 'compact' && r.trigger === 'auto' && r.afterCall === k);

  let logFrom = 0;
  let lastFailCall = -2;
  let lastFailKind = '';
  let requestCompactions: number[] = [];
  let refused = false;
  let lastCompactBoundary = -1;
  for (let r = 0; r < real.length && real[r]!.afterCall < 0; r++) {
    if (real[r]!.kind !== 'compact') continue;
    logFrom = real[r]!.boundaryPos;
    logUnlogged = real[r]!.unloggedTokens;
    adopt(r);
  }

  for (let k = 0; k < n; k++) {
    growSim(callPos[k]!);
    growLog(logFrom, callPos[k]!);
    const S = recorded[k]! + (baseTokens + simSum()) - (baseTokens + logSum());
    const T = S + output[k]! + (knobs.countPendingMessages ? pendingEstimate[k]! : 0);
    simulatedTokens.push(S);
    checkTokens.push(T);
    const boundary = callPos[k + 1]!;

    /** A failed compaction: one event for a run of calls failing the same way. */
    const fail = (kind: string) => {
      if (lastFailCall !== k - 1 || lastFailKind !== kind)
        events.push({ kind: 'compact-failed', afterCallPos: k, postTokens: T });
      lastFailCall = k;
      lastFailKind = kind;
    };
    const compact = () => {
      // The rapid-refill breaker: the calls of this request's compactions (a person's message
      // since the last one starts a new request); when the last three gaps, this one's included,
      // are each under 3 calls, this one and the rest of the request are refused.
      if (knobs.rapidRefillBreaker) {
        for (let p = lastCompactBoundary; p >= 0 && p < boundary; p++)
          if (isPersonTurn(prepared, p)) {
            requestCompactions = [];
            refused = false;
            break;
          }
        const calls = [...requestCompactions, k];
        const rapid = (i: number) => i >= 1 && calls[i]! - calls[i - 1]! < 3;
        if (refused || (rapid(calls.length - 1) && rapid(calls.length - 2) && rapid(calls.length - 3))) {
          refused = true;
          fail('thrashing');
          return;
        }
      }
      growSim(boundary);
      const span = simSum();
      // Prompt too long (v2.1.68 edge cases 4–5): the request is the history summarized plus the
      // prompt; over the window nothing changes, and a run of such calls is one event.
      if (span + getSummaryRequestOverheadTokens('full', knobs.customInstructions) > t.contextWindow) {
        fail('prompt-too-long');
        return;
      }
      // A compaction made (the breaker counts these alone).
      requestCompactions.push(k);
      lastCompactBoundary = boundary;
      const exact = realAt(k);
      let near = exact;
      if (near < 0) near = realAt(k + 1) >= 0 ? realAt(k + 1) : realAt(k - 1);
      if (exact >= 0 && model.id === 'recorded') {
        const r = real[exact]!;
        adopt(exact);
        events.push({
          kind: 'compact',
          afterCallPos: k,
          postTokens: baseTokens + r.artifactTokens,
          summaryTokens: r.summaryTokens,
        });
        return;
      }
      const accesses = prepared.fileAccesses.list.filter((_, i) => {
        const p = prepared.fileAccesses.pos[i]!;
        return p >= simFrom && p < boundary;
      });
      const last = (pos: Int32Array) => {
        let found = -1;
        for (let i = 0; i < pos.length; i++) if (pos[i]! < boundary) found = i;
        return found;
      };
      const ti = last(prepared.todos.pos);
      const pi = last(prepared.plans.pos);
      const restoration = computeRestoration({
        accesses,
        carried,
        todo:
          ti >= 0 && prepared.todos.tokens[ti]! > 0
            ? { entryIndex: prepared.todos.entryIndex[ti]!, tokens: prepared.todos.tokens[ti]! }
            : undefined,
        plan:
          pi >= 0 && prepared.plans.tokens[pi]! > 0
            ? { entryIndex: prepared.plans.entryIndex[pi]!, tokens: prepared.plans.tokens[pi]! }
            : undefined,
        ...getRestorationExtras(prepared, boundary, knobs.sessionStartHookTokens),
        limits: getRestoreLimits(knobs),
      });
      let summary: TokenCount;
      let wrapper = getContinuationOverheadTokens({
        format: knobs.continuationFormat,
        auto: true,
        partial: false,
        transcriptPath: prepared.transcriptPath,
      });
      let reattached = restoration.totalTokens;
      const nearInfo = near >= 0 && model.id === 'recorded' ? real[near] : undefined;
      if (nearInfo && nearInfo.summaryTokens !== undefined) {
        summary = nearInfo.summaryTokens;
        wrapper = 0;
        reattached = Math.max(0, nearInfo.artifactTokens - nearInfo.summaryTokens);
      } else summary = model.getSummaryTokens({ spanTokens: span, mechanism: 'full' }).tokens;
      sim = [{ synthetic: summary + wrapper + reattached }];
      simFrom = boundary;
      adopted = -1;
      carried = restoration.files;
      events.push({
        kind: 'compact',
        afterCallPos: k,
        postTokens: baseTokens + simSum(),
        summaryTokens: summary,
      });
    };
    const clear = (items: number[]) => {
      const ids: string[] = [];
      const asLog = real.some(
        (r) =>
          r.kind === 'microcompact' &&
          r.afterCall === k &&
          r.cleared.length === items.length &&
          r.cleared.every((i) => items.includes(i)),
      );
      for (const i of items) {
        simCleared.set(i, asLog ? PLACEHOLDER_TOKENS : placeholder);
        ids.push(clearables.ids[i]!);
      }
      events.push({ kind: 'microcompact', afterCallPos: k, postTokens: 0, clearedToolIds: ids.sort() });
    };
    const micro = () => {
      growSim(boundary);
      const list = liveEligibleInCallOrder(boundary);
      const picked = selectMicrocompact(
        list.map((i) => clearables.estimate[i]!),
        {
          variant: knobs.microcompactVariant,
          keepRecent: knobs.microcompactKeepRecent,
          protectTokens: knobs.microcompactProtectTokens,
          minSavings: knobs.microcompactMinSavings,
        },
      );
      return picked ? picked.clear.map((j) => list[j]!) : undefined;
    };

    if ((k + 1 < n || stepsAfterLast) && !knobs.disableCompact) {
      const auto = knobs.autoCompactEnabled && T >= t.autoCompact;
      if (knobs.microcompactVariant === 'legacy') {
        if (auto) {
          const items = knobs.microcompactEnabled ? micro() : undefined;
          if (items) clear(items);
          else compact();
        }
      } else {
        // Edge case 6: the clearing first, then the full compaction over what it left.
        // Before 2.1.68 with auto-compact on, only when auto-compact is due.
        const due =
          knobs.microcompactTrigger === 'with-auto-compact' && knobs.autoCompactEnabled
            ? auto
            : S + output[k]! >= t.warning;
        if (knobs.microcompactEnabled && due) {
          const items = micro();
          if (items) clear(items);
        }
        if (auto) compact();
      }
    }

    for (const r of real) {
      if (r.afterCall !== k) continue;
      if (r.kind === 'microcompact') {
        for (const i of r.cleared) realCleared.add(i);
        continue;
      }
      growLog(logFrom, r.boundaryPos);
      logFrom = r.boundaryPos;
      logItems = [];
      logUnlogged = r.unloggedTokens;
      realCleared.clear();
      // A log compaction this history does not make or take: it carries the log's drift.
      if ((r.trigger === 'auto' || knobs.disableCompact) && adopted !== real.indexOf(r))
        sim.push({ synthetic: r.driftTokens });
      if (r.trigger !== 'auto' && !knobs.disableCompact && adopted !== real.indexOf(r)) {
        adopt(real.indexOf(r));
        events.push({
          kind: 'reset',
          afterCallPos: k,
          postTokens: baseTokens + r.artifactTokens,
          summaryTokens: r.summaryTokens,
        });
      }
    }
  }
  void session;
  void ctxEntry;
  return { simulatedTokens, checkTokens, events };
}
