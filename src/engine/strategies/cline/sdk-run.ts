import type { Restoration } from '../../compact/restore';
import { getSafeCut, isSafeCut } from '../../simulation/cuts';
import type { PreparedReplay } from '../../simulation/prepared';
import { estimateTextTokens } from '../../tokens/estimate';
import type { Entry, TokenCount } from '../../types';
import type { ReplayView, StepOutcome, StrategyAction, StrategyRun } from '../types';
import { type ClineKnobs, getClineSdkTrigger } from './knobs';
import type { ClineProfile } from './profiles';

// Cline 4.x: the VS Code extension compacts through the Cline SDK (docs/sources.md#cline-sdk;
// cline/cline sdk/packages/core/src/extensions/context/{compaction.ts,agentic-compaction.ts,
// basic-compaction.ts,compaction-shared.ts}). Before each model request (`prepareTurn`):
//   - nothing unless compaction is enabled (`useAutoCondense`: off in 4.0.x, on from 4.1.0);
//   - the request's estimate against the trigger: 4.0.x the messages' estimate >
//     min(max input − 16,384, 90% of it); 4.1+ the whole request's (system prompt, messages,
//     tools) ≥ 90% of the usable input (the model's maxInputTokens, else 90% of its window);
//   - `basic` (4.0.x): the oldest messages after the first prompt dropped (tool pairs whole)
//     until the messages fit the trigger; the latest prompt and answer stay;
//   - `agentic` (4.1+): every message before the newest ~20,000 tokens (the cut never past the
//     latest typed prompt, never inside a tool pair) summarized by a separate call (≤ 1,024
//     output tokens, 4,096 from 4.1.8) into one "Context summary:" message, a previous summary
//     folded in.
// The SDK estimates chars / 4 of the serialized messages; the replay counts the last response's
// usage plus the tokens attributed to what came after it, its own measure of the same request.

const NO_RESTORATION: Restoration = { files: [], overBudget: [], totalTokens: 0 };
/** buildSummaryMessage: `Context summary:\n\n` before the summary. */
const SUMMARY_PREFIX_TOKENS = estimateTextTokens('Context summary:\n\n'.length);

const isToolResults = (e: Entry) =>
  e.kind === 'user' && e.blocks.length > 0 && e.blocks.every((b) => b.kind === 'tool-result');
/** `isTurnStartMessage`: a typed prompt, not tool results. */
const isTurnStart = (e: Entry) => e.kind === 'user' && !isToolResults(e);

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

export class ClineSdkRun implements StrategyRun {
  readonly allowsManualCompaction = true;
  readonly countsPending = false;
  readonly blockingTokens: TokenCount;
  private readonly trigger: TokenCount;
  private readonly sdk: NonNullable<ClineProfile['sdk']>;

  constructor(
    private readonly knobs: ClineKnobs,
    private readonly prepared: PreparedReplay,
    private readonly profile: ClineProfile,
  ) {
    this.blockingTokens = knobs.contextWindow;
    this.sdk = profile.sdk!;
    this.trigger = getClineSdkTrigger(knobs, this.sdk.trigger);
  }

  /** The next request as the replay counts it: the last usage plus what came after the response. */
  private count(view: ReplayView): TokenCount {
    const { session, ctxEntry, callPos } = this.prepared;
    let q = view.boundaryPos - 1;
    while (q > callPos[view.callPos]! && session.entries[ctxEntry[q]!]?.kind !== 'assistant') q--;
    const since = q + 1 < view.boundaryPos ? view.getLiveTokens(q + 1, view.boundaryPos) : 0;
    // 4.0.x counts the messages alone (no system prompt, no tools).
    const base = this.sdk.trigger === 'reserve' ? this.prepared.baseTokens : 0;
    return view.usageTokens + since - base;
  }

  step(view: ReplayView): StepOutcome | undefined {
    if (view.manual) {
      const action =
        this.sdk.strategy === 'basic'
          ? this.trim(view, Math.min(this.trigger, Math.floor(this.count(view) * 0.5)), 'manual')
          : this.summarize(view, 'manual');
      return action ? { actions: [action] } : undefined;
    }
    if (!this.knobs.useAutoCondense) return undefined;
    const count = this.count(view);
    const due = this.sdk.trigger === 'reserve' ? count > this.trigger : count >= this.trigger;
    if (!due) return undefined;
    const action =
      this.sdk.strategy === 'basic' ? this.trim(view, this.trigger, 'auto') : this.summarize(view, 'auto');
    if (!action) return undefined;
    action.note = `request ${fmt(count)} ${this.sdk.trigger === 'reserve' ? '>' : '≥'} ${fmt(this.trigger)}; ${action.note ?? ''}`;
    return { actions: [action] };
  }

  /** Where the rest starts: after the first prompt, past what earlier trims dropped. */
  private restPos(view: ReplayView): number {
    let rest = Math.max(view.liveFromPos, view.firstPairEndPos);
    for (const [a, b] of view.truncatedRanges) if (a <= rest && b > rest) rest = b;
    return rest;
  }

  /** The latest typed prompt in the live history, or -1. */
  private lastTurnStart(view: ReplayView): number {
    const { session, ctxEntry, artifactOf } = this.prepared;
    for (let p = view.boundaryPos - 1; p > view.liveFromPos; p--)
      if (artifactOf[p] === 0 && isTurnStart(session.entries[ctxEntry[p]!]!)) return p;
    return -1;
  }

  /** basic-compaction.ts: the oldest messages after the first prompt dropped until the rest fits `target`. */
  private trim(view: ReplayView, target: TokenCount, trigger: 'auto' | 'manual'): StrategyAction | undefined {
    const from = this.restPos(view);
    const excess = this.count(view) - target;
    // The latest prompt's turn and the last answer stay.
    const last = this.lastTurnStart(view);
    const limit = last > from ? last : view.boundaryPos;
    if (excess <= 0 || from >= limit) return undefined;
    // The first position whose drop [from, q) covers the excess (binary search: live tokens grow with q).
    let lo = from + 1;
    let hi = limit;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (view.getLiveTokens(from, mid) >= excess) hi = mid;
      else lo = mid + 1;
    }
    // Tool pairs are removed whole (collectAtomicRemovalIndexes): move on to a safe cut.
    let to = lo;
    while (to < limit && !isSafeCut(this.prepared, to, view.boundaryPos)) to++;
    if (!isSafeCut(this.prepared, to, view.boundaryPos))
      to = getSafeCut(this.prepared, to, from, view.boundaryPos);
    if (to <= from) return undefined;
    return {
      kind: 'truncate',
      fromPos: from,
      toPos: to,
      noticeTokens: 0,
      checkTokens: this.count(view),
      thresholdTokens: target,
      note: `basic compaction${trigger === 'manual' ? ' (manual)' : ''}: the oldest ${fmt(view.getLiveTokens(from, to))} tokens after the first prompt dropped to fit ${fmt(target)}`,
    };
  }

  /** agentic-compaction.ts: all but the newest `preserveRecentTokens` summarized. */
  private summarize(view: ReplayView, trigger: 'auto' | 'manual'): StrategyAction | undefined {
    const { liveFromPos: from, boundaryPos: end } = view;
    // findCutIndex: walking back from the end, the first message at which the kept tail reaches
    // preserveRecentTokens (binary search: the tail shrinks as the cut moves on).
    let lo = from;
    let hi = end - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (view.getLiveTokens(mid, end) >= this.knobs.preserveRecentTokens) lo = mid;
      else hi = mid - 1;
    }
    let cut = lo;
    const last = this.lastTurnStart(view);
    if (last > 0) cut = Math.min(cut, last);
    while (cut > from && !isSafeCut(this.prepared, cut, end)) cut--;
    if (cut <= from) return undefined;
    return {
      kind: 'summarize',
      mechanism: 'full',
      trigger,
      checkTokens: trigger === 'auto' ? this.count(view) : view.usageTokens,
      thresholdTokens: this.trigger,
      restoration: NO_RESTORATION,
      keepFromPos: cut,
      keepDirection: 'up-to',
      continuation: { format: 'v2.1.68', auto: trigger === 'auto' },
      summaryOverheadTokens: SUMMARY_PREFIX_TOKENS,
      summaryMaxTokens: this.knobs.summaryMaxTokens,
      requestVariant: 'full',
      promptPresetId: this.profile.presetId,
      customInstructions: view.manual?.customInstructions,
      note: `agentic compaction: ${fmt(view.getLiveTokens(cut, end))} newest tokens kept verbatim (≥ ${fmt(this.knobs.preserveRecentTokens)}, not past the latest prompt), the rest summarized (≤ ${fmt(this.knobs.summaryMaxTokens)} tokens)`,
    };
  }
}
