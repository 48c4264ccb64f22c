import type { Restoration } from '../../compact/restore';
import { getDialectInfo } from '../../parse/dialects/descriptors';
import { isSafeCut } from '../../simulation/cuts';
import type { PreparedReplay } from '../../simulation/prepared';
import type { Entry, TokenCount } from '../../types';
import {
  type BoundaryMessage,
  estimateOwnMessageTokens,
  findCompactionBoundary,
  toBoundaryMessage,
} from './scores';
import { createBoundaryScoringDetail } from './detail';
import { createRuleBasedSummary } from './summary';
import type { CompactionStrategy, ReplayView, StepOutcome, StrategyRun } from '../types';
import { BOUNDARY_SCORING_DESCRIPTOR } from './descriptor';
import { type BoundaryScoringKnobs, DEFAULT_BOUNDARY_SCORING_KNOBS } from './knobs';

// Boundary-scoring microcompaction (docs/sources.md#mdd below): once the messages'
// estimate reaches the threshold (or their count 500) and there are at least 10, the split is
// searched ±5 messages around half the messages, each candidate scored ("Boundary Scoring
// Algorithm"); the messages before the best split become a rule-based summary (no LLM call) and
// the ones after it stay verbatim. Messages are the live context entries; an earlier simulated
// summary counts as its messages and its size. Scores and helpers: boundary-scoring-scores.ts;
// the summary: boundary-scoring-summary.ts.

const NO_RESTORATION: Restoration = { files: [], overBudget: [], totalTokens: 0 };

/** Per prepared session: each context position's estimate by the document's own estimator, summed. */
const ownPrefixCache = new WeakMap<PreparedReplay, Float64Array>();
function getOwnPrefix(prepared: PreparedReplay): Float64Array {
  let prefix = ownPrefixCache.get(prepared);
  if (!prefix) {
    const { ctxEntry, session } = prepared;
    prefix = new Float64Array(ctxEntry.length + 1);
    for (let p = 0; p < ctxEntry.length; p++)
      prefix[p + 1] = prefix[p]! + estimateOwnMessageTokens(session.entries[ctxEntry[p]!]!);
    ownPrefixCache.set(prepared, prefix);
  }
  return prefix;
}

/** Per prepared session: the context positions that are a logged compaction's artifacts, sorted. */
const artifactCache = new WeakMap<PreparedReplay, Int32Array>();
function getArtifactPositions(prepared: PreparedReplay, from: number, to: number): Int32Array {
  let list = artifactCache.get(prepared);
  if (!list) {
    const out: number[] = [];
    prepared.artifactOf.forEach((a, p) => {
      if (a !== 0) out.push(p);
    });
    list = Int32Array.from(out);
    artifactCache.set(prepared, list);
  }
  let lo = 0;
  while (lo < list.length && list[lo]! < from) lo++;
  let hi = lo;
  while (hi < list.length && list[hi]! < to) hi++;
  return list.subarray(lo, hi);
}

class BoundaryScoringRun implements StrategyRun {
  readonly allowsManualCompaction = true;
  readonly countsPending = false;
  readonly blockingTokens: TokenCount;
  private readonly own: Float64Array;
  private readonly shellTools: readonly string[];
  /** The last simulated summary: where its kept part starts, its messages and its own estimate. */
  private summaryFrom = -1;
  private summaryMessages = 0;
  private summaryOwnTokens = 0;

  constructor(
    private readonly knobs: BoundaryScoringKnobs,
    private readonly prepared: PreparedReplay,
  ) {
    this.blockingTokens = knobs.contextWindow;
    this.own = getOwnPrefix(prepared);
    this.shellTools = getDialectInfo(prepared.session.format)?.shellTools ?? ['Bash'];
  }

  step(view: ReplayView): StepOutcome | undefined {
    const { knobs, prepared } = this;
    const from = view.liveFromPos;
    const carried = from === this.summaryFrom;
    // The history's messages: the live positions less a logged compaction's artifacts it does not
    // hold (few: walked apart instead of listing every position at every call).
    let unheld = 0;
    let unheldOwn = 0;
    for (const p of getArtifactPositions(prepared, from, view.boundaryPos))
      if (!view.holds(p)) {
        unheld++;
        unheldOwn += this.own[p + 1]! - this.own[p]!;
      }
    const live = view.boundaryPos - from - unheld;
    const length = live + (carried ? this.summaryMessages : 0);
    const counted =
      knobs.counter === 'context'
        ? view.usageTokens
        : this.own[view.boundaryPos]! - this.own[from]! - unheldOwn + (carried ? this.summaryOwnTokens : 0);
    const manual = view.manual !== undefined;
    // "Compaction Triggers": (over the tokens or over 500 messages) and at least 10 messages.
    if (!manual && counted < knobs.thresholdTokens && length <= knobs.maxMessages) return undefined;
    if (length < knobs.minMessages) return undefined;

    // The summary's messages lead the list: a split among them is a split before the first live one.
    const head = carried ? this.summaryMessages : 0;
    const { ctxEntry, session } = prepared;
    const held: number[] = [];
    for (let p = from; p < view.boundaryPos; p++) if (view.holds(p)) held.push(p);
    const posAt = (i: number) => held[Math.max(0, i - head)] ?? view.boundaryPos;
    const cache = new Map<number, BoundaryMessage>();
    const at = (i: number): BoundaryMessage | undefined => {
      if (i < 0 || i >= length) return undefined;
      if (i < head) return { ...SUMMARY_MESSAGE };
      let m = cache.get(i);
      if (!m) {
        m = toBoundaryMessage(session.entries[ctxEntry[posAt(i)]!]!);
        cache.set(i, m);
      }
      return m;
    };
    const entryAt = (i: number) => ctxEntry[posAt(i)] ?? -1;
    const { best, candidates } = findCompactionBoundary(at, length, knobs, entryAt, (i) =>
      isSafeCut(prepared, posAt(i), view.boundaryPos),
    );
    // A split among the earlier summary's own messages, or before the first live one, summarizes nothing new.
    if (!best || best.messageIndex <= head) return undefined;
    const keepFromPos = posAt(best.messageIndex);
    const spanEntries: Entry[] = [];
    let spanOwn = carried ? this.summaryOwnTokens : 0;
    for (const p of held) {
      if (p >= keepFromPos) break;
      spanEntries.push(session.entries[ctxEntry[p]!]!);
      spanOwn += this.own[p + 1]! - this.own[p]!;
    }
    const summary = createRuleBasedSummary(spanEntries, {
      messageCount: best.messageIndex,
      timestampMs: session.entries[best.entryIndex]?.timestampMs,
      originalTokens: spanOwn,
      targetRatioPercent: knobs.targetRatioPercent,
      preserveToolCalls: knobs.preserveToolCalls,
      preserveToolResults: knobs.preserveToolResults,
      criticalTools: knobs.criticalTools,
      systemCommands: knobs.systemCommands,
      shellTools: this.shellTools,
    });
    this.summaryFrom = keepFromPos;
    this.summaryMessages = summary.messages.length;
    this.summaryOwnTokens = summary.tokens;
    const factors = best.factors
      .filter((f) => f.id !== 'base')
      .map((f) => `${f.id} ${f.points > 0 ? '+' : ''}${f.points}`);
    const fmt = (x: number) => Math.round(x).toLocaleString('en-US');
    const why = manual
      ? `${length} messages`
      : counted >= knobs.thresholdTokens
        ? `${fmt(counted)} tokens (${knobs.counter === 'own' ? 'its own estimate' : 'context + output'}) ≥ ${fmt(knobs.thresholdTokens)}, ${length} messages`
        : `${length} messages > ${knobs.maxMessages} (${fmt(counted)} tokens by ${knobs.counter === 'own' ? 'its own estimate' : 'the context'})`;
    return {
      actions: [
        {
          kind: 'summarize',
          mechanism: 'partial',
          trigger: manual ? 'manual' : 'auto',
          // The replay's count: the event's "before" and its provenance are the simulated context.
          checkTokens: view.checkTokens,
          thresholdTokens: knobs.thresholdTokens,
          restoration: NO_RESTORATION,
          keepFromPos,
          keepDirection: 'up-to',
          summaryTokens: summary.tokens,
          summarySource: 'model',
          // The summary messages carry their own headings: no continuation text around them.
          summaryOverheadTokens: 0,
          continuation: { format: 'v2.1.68', auto: !manual },
          requestVariant: 'partial',
          customInstructions: view.manual?.customInstructions,
          detail: createBoundaryScoringDetail(candidates),
          // The summary is rule-based (boundary-scoring-summary.ts): no LLM request.
          llmCalls: 0,
          note: `${why}; split at message ${best.messageIndex} of ${length} (score ${best.score}${factors.length ? `: ${factors.join(', ')}` : ''}); rule-based summary in ${summary.messages.length} messages, ${summary.preserved.length} tool results preserved in it`,
        },
      ],
    };
  }
}

/** An earlier summary's message as the scores see it (a system message, MD "Summary Generation"). */
const SUMMARY_MESSAGE: BoundaryMessage = {
  type: 'system',
  firstIsToolResult: false,
  hasToolResult: false,
  hasToolUse: false,
  hasError: false,
  text: '',
  isUserText: false,
};

export const BOUNDARY_SCORING_STRATEGY: CompactionStrategy<BoundaryScoringKnobs> = {
  ...BOUNDARY_SCORING_DESCRIPTOR,
  getSessionKnobs: (info) => {
    const window = info.windowInference?.windowTokens;
    const knobs = { ...DEFAULT_BOUNDARY_SCORING_KNOBS };
    if (window !== undefined && window > 0) knobs.contextWindow = window;
    return {
      knobs,
      notes: [
        `A model of a published boundary-scoring design (docs/sources.md#mdd), not an agent's release: no log is expected to match its compactions.`,
        `Window ${knobs.contextWindow.toLocaleString('en-US')} tokens${window ? ' (inferred from the log)' : ''}.`,
      ],
    };
  },
  createRun: (knobs, prepared) => new BoundaryScoringRun(knobs, prepared),
};
