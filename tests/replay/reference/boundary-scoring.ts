import { getDialect } from '../../../src/engine/parse/dialects/registry';
import { isSafeCut } from '../../../src/engine/simulation/cuts';
import type { BoundaryScoringKnobs } from '../../../src/engine/strategies/boundary-scoring/knobs';
import {
  type BoundaryMessage,
  estimateOwnMessageTokens,
  findCompactionBoundary,
  toBoundaryMessage,
} from '../../../src/engine/strategies/boundary-scoring/scores';
import { createRuleBasedSummary } from '../../../src/engine/strategies/boundary-scoring/summary';
import type { Entry, TokenCount } from '../../../src/engine/types';
import { PLACEHOLDER_TOKENS, type PreparedReplay } from '../../../src/engine/replay/prepare';
import type { SummaryModelId } from '../../../src/engine/replay/summary-size';
import { requestAfterLastCall } from '../reference-requests';

// A deliberately naive replay of the boundary-scoring design (strategies/boundary-scoring/index.ts
// through compute-replay.ts; microcompaction-deep-dive.md), a summary with a kept range after it,
// to check the fast one's bookkeeping on the same transcripts. The simulated history is an
// explicit message list — the earlier summary's messages, then the positions held verbatim —
// re-counted in full at every call. Shared with the fast path: the prepared attribution, the
// document's estimator, scores and split search (boundary-scoring-scores.ts), its rule-based
// summary (boundary-scoring-summary.ts) and the safe-cut rule. Independent: the message list the
// search runs over, the trigger, where the split lands in the history, the summary's span and
// what the context holds after it. No manual requests.

export interface NaiveBoundaryEvent {
  kind: 'compact' | 'reset';
  afterCallPos: number;
  postTokens: TokenCount;
  summaryTokens?: TokenCount;
  /** Compact: the first position kept verbatim. */
  keepFromPos?: number;
}

export interface NaiveBoundaryResult {
  simulatedTokens: number[];
  events: NaiveBoundaryEvent[];
}

/** An earlier summary's message as the scores see it: a system message (MD "Summary Generation"). */
const SUMMARY_AS_MESSAGE: BoundaryMessage = {
  type: 'system',
  firstIsToolResult: false,
  hasToolResult: false,
  hasToolUse: false,
  hasError: false,
  text: '',
  isUserText: false,
};

type Item = { summary: true } | { pos: number };

/** Runs the naive boundary-scoring replay; `knobs` must be complete (normalized). */
export function computeNaiveBoundaryScoringReplay(
  prepared: PreparedReplay,
  knobs: BoundaryScoringKnobs,
  summaryModel: SummaryModelId = 'recorded',
): NaiveBoundaryResult {
  const { session, calls, recorded, output, callPos, ctxEntry, tokens, artifactOf } = prepared;
  const { clearables, real, baseTokens } = prepared;
  const n = calls.length;
  // The step after the last call: only when the log holds a request after it.
  const stepsAfterLast = requestAfterLastCall(prepared);
  const shellTools = getDialect(session.format)?.shellTools ?? ['Bash'];
  const entryAt = (p: number): Entry => session.entries[ctxEntry[p]!]!;

  let list: Item[] = [];
  let summaryTokens = 0;
  let summaryOwn = 0;
  let grownTo = 0;
  let adopted = -1;
  /** The log's drift carried from a log compaction this history did not make or take (driftTokens). */
  let carriedDrift = 0;
  let logFrom = 0;
  // What the log's context holds beyond its records since its last compaction (unloggedTokens).
  let logUnlogged = 0;
  const logCleared = new Set<number>();
  const events: NaiveBoundaryEvent[] = [];
  const simulatedTokens: number[] = [];

  const holds = (p: number) => artifactOf[p] === 0 || artifactOf[p] === adopted + 1;
  const grow = (to: number) => {
    for (let p = grownTo; p < to; p++) if (holds(p)) list.push({ pos: p });
    grownTo = Math.max(grownTo, to);
  };
  const positions = () => list.flatMap((it) => ('pos' in it ? [it.pos] : []));
  // An adopted log compaction brings what it holds unlogged.
  const simSum = () =>
    carriedDrift +
    baseTokens +
    summaryTokens +
    (adopted >= 0 ? real[adopted]!.unloggedTokens : 0) +
    positions().reduce((a, p) => a + tokens[p]!, 0);
  const logSum = (to: number) => {
    let sum = baseTokens + logUnlogged;
    for (let p = logFrom; p < to; p++) sum += tokens[p]!;
    for (const i of logCleared) sum -= Math.max(0, clearables.tokens[i]! - PLACEHOLDER_TOKENS);
    return sum;
  };
  const adopt = (r: number) => {
    carriedDrift = 0;
    adopted = r;
    list = [];
    summaryTokens = 0;
    summaryOwn = 0;
    grownTo = real[r]!.boundaryPos;
  };
  const realAutoAt = (k: number) =>
    real.findIndex((r) => r.kind === 'compact' && r.trigger === 'auto' && r.afterCall === k);

  for (let r = 0; r < real.length && real[r]!.afterCall < 0; r++) {
    if (real[r]!.kind !== 'compact') continue;
    logFrom = real[r]!.boundaryPos;
    logUnlogged = real[r]!.unloggedTokens;
    logCleared.clear();
    adopt(r);
  }

  for (let k = 0; k < n; k++) {
    grow(callPos[k]!);
    const S = recorded[k]! + simSum() - logSum(callPos[k]!);
    simulatedTokens.push(S);
    const boundary = callPos[k + 1]!;

    if (k + 1 < n || stepsAfterLast) {
      grow(boundary);
      const length = list.length;
      const head = list.filter((it) => 'summary' in it).length;
      const counted =
        knobs.counter === 'context'
          ? S + output[k]!
          : summaryOwn + positions().reduce((a, p) => a + estimateOwnMessageTokens(entryAt(p)), 0);
      // "Compaction Triggers": over the tokens or over maxMessages, and at least minMessages.
      const due =
        (counted >= knobs.thresholdTokens || length > knobs.maxMessages) && length >= knobs.minMessages;
      // The position a split before item i keeps from (a split among the summary's messages: the first live one).
      const keptAt = (i: number) => {
        const it = list[Math.max(i, head)];
        return it && 'pos' in it ? it.pos : boundary;
      };
      const { best } = due
        ? findCompactionBoundary(
            (i) => {
              const it = list[i];
              if (!it) return undefined;
              return 'summary' in it ? { ...SUMMARY_AS_MESSAGE } : toBoundaryMessage(entryAt(it.pos));
            },
            length,
            knobs,
            (i) => ctxEntry[keptAt(i)] ?? -1,
            (i) => isSafeCut(prepared, keptAt(i), boundary),
          )
        : { best: undefined };
      // A split at or before the first live message summarizes nothing new.
      if (best && best.messageIndex > head) {
        const keep = keptAt(best.messageIndex);
        const span = list.slice(0, best.messageIndex);
        const spanEntries = span.flatMap((it) => ('pos' in it ? [entryAt(it.pos)] : []));
        const summary = createRuleBasedSummary(spanEntries, {
          messageCount: best.messageIndex,
          timestampMs: session.entries[ctxEntry[keep]!]?.timestampMs,
          originalTokens: summaryOwn + spanEntries.reduce((a, e) => a + estimateOwnMessageTokens(e), 0),
          targetRatioPercent: knobs.targetRatioPercent,
          preserveToolCalls: knobs.preserveToolCalls,
          preserveToolResults: knobs.preserveToolResults,
          criticalTools: knobs.criticalTools,
          systemCommands: knobs.systemCommands,
          shellTools,
        });
        const exact = realAutoAt(k);
        if (exact >= 0 && summaryModel === 'recorded') {
          adopt(exact);
          events.push({
            kind: 'compact',
            afterCallPos: k,
            postTokens: baseTokens + real[exact]!.artifactTokens,
            summaryTokens: real[exact]!.summaryTokens,
          });
        } else {
          const kept = list.slice(best.messageIndex);
          list = [...summary.messages.map((): Item => ({ summary: true })), ...kept];
          summaryTokens = summary.tokens;
          summaryOwn = summary.tokens;
          adopted = -1;
          carriedDrift = 0;
          events.push({
            kind: 'compact',
            afterCallPos: k,
            postTokens: simSum(),
            summaryTokens: summary.tokens,
            keepFromPos: keep,
          });
        }
      }
    }

    for (let r = 0; r < real.length; r++) {
      const info = real[r]!;
      if (info.afterCall !== k) continue;
      if (info.kind === 'microcompact') {
        for (const i of info.cleared) if (clearables.pos[i]! >= logFrom) logCleared.add(i);
      } else if (info.kind === 'compact') {
        logFrom = info.boundaryPos;
        logUnlogged = info.unloggedTokens;
        logCleared.clear();
        if (info.trigger === 'auto' && adopted !== r) carriedDrift += info.driftTokens;
        if (info.trigger !== 'auto' && adopted !== r) {
          adopt(r);
          events.push({
            kind: 'reset',
            afterCallPos: k,
            postTokens: baseTokens + info.artifactTokens,
            summaryTokens: info.summaryTokens,
          });
        }
      }
    }
  }
  return { simulatedTokens, events };
}
