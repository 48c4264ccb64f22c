import type { Restoration } from '../../compact/restore';
import { getSafeCut, isSafeCut } from '../../simulation/cuts';
import type { PreparedReplay } from '../../simulation/prepared';
import { estimateTextTokens } from '../../tokens/estimate';
import type { Entry, TokenCount } from '../../types';
import type { ReplayView, StepOutcome, StrategyAction, StrategyRun } from '../types';
import { CLINE_BLOCKING_NOTE, type ClineKnobs, getClineBlockingTokens, getClineSdkTrigger } from './knobs';
import type { ClineProfile } from './profiles';

// Cline 4.x: the VS Code extension compacts through the Cline SDK (docs/sources.md#cline-sdk;
// cline/cline sdk/packages/core/src/extensions/context/{compaction.ts,agentic-compaction.ts,
// basic-compaction.ts,compaction-shared.ts}). Before each model request (`prepareTurn`):
//   - nothing unless compaction is enabled (`useAutoCondense`: off in 4.0.x, on from 4.1.0);
//   - the request's estimate against the trigger: 4.0.x the messages' estimate >
//     min(max input − 16,384, 90% of it); 4.1+ the whole request's (system prompt, messages,
//     tools) ≥ 90% of the usable input (the model's maxInputTokens, else 90% of its window);
//   - `basic` (4.0.x): every tool result before the latest turn cut to 2,000 characters, then
//     the oldest messages after the first prompt dropped (tool pairs whole) until the messages
//     fit the trigger; the latest turn stays;
//   - `agentic` (4.1+): every message before the newest ~20,000 tokens (the cut never past the
//     latest typed prompt, never inside a tool pair) summarized by a separate call (≤ 1,024
//     output tokens, 4,096 from 4.1.8) into one "Context summary:" message, a previous summary
//     folded in.
// The SDK estimates chars / 4 of the serialized messages; the replay counts the last response's
// usage plus the tokens attributed to what came after it, its own measure of the same request.

const NO_RESTORATION: Restoration = { files: [], overBudget: [], totalTokens: 0 };
/** A tool result cut to TOOL_RESULT_CHAR_LIMIT (2,000) characters and its `\n...[truncated N chars]`. */
const TOOL_RESULT_LIMIT_TOKENS = estimateTextTokens(2_000 + '\n...[truncated 00000 chars]'.length);
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
  readonly blockingNote = CLINE_BLOCKING_NOTE;
  private readonly trigger: TokenCount;
  private readonly sdk: NonNullable<ClineProfile['sdk']>;

  constructor(
    private readonly knobs: ClineKnobs,
    private readonly prepared: PreparedReplay,
    private readonly profile: ClineProfile,
  ) {
    this.blockingTokens = getClineBlockingTokens(knobs, prepared.session.meta.providers, prepared.recorded);
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
      const actions =
        this.sdk.strategy === 'basic'
          ? this.trim(view, Math.min(this.trigger, Math.floor(this.count(view) * 0.5)), 'manual')
          : [this.summarize(view, 'manual')].filter((a) => a !== undefined);
      return actions.length ? { actions } : undefined;
    }
    if (!this.knobs.useAutoCondense) return undefined;
    const count = this.count(view);
    const due = this.sdk.trigger === 'reserve' ? count > this.trigger : count >= this.trigger;
    if (!due) return undefined;
    const actions =
      this.sdk.strategy === 'basic'
        ? this.trim(view, this.trigger, 'auto')
        : [this.summarize(view, 'auto')].filter((a) => a !== undefined);
    if (actions.length === 0) return undefined;
    const first = actions[0]!;
    first.note = `request ${fmt(count)} ${this.sdk.trigger === 'reserve' ? '>' : '≥'} ${fmt(this.trigger)}; ${first.note ?? ''}`;
    return { actions };
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

  /**
   * basic-compaction.ts: every tool result before the latest turn cut to 2,000 characters
   * (`sanitizeMessageForBasic`), then the oldest messages after the first prompt dropped (tool pairs
   * whole) until the rest fits `target`; the latest turn stays.
   */
  private trim(view: ReplayView, target: TokenCount, trigger: 'auto' | 'manual'): StrategyAction[] {
    const from = this.restPos(view);
    const count = this.count(view);
    const last = this.lastTurnStart(view);
    const limit = last > from ? last : view.boundaryPos;
    if (count <= target) return [];
    const actions: StrategyAction[] = [];
    // Tool results over the limit, live and before the latest turn: cut to it.
    const { clearables } = this.prepared;
    const items: number[] = [];
    const savedAt: [number, number][] = [];
    let saved = 0;
    for (let i = view.clearableFrom; i < view.clearableTo; i++) {
      const pos = clearables.pos[i]!;
      if (clearables.tool[i]! < 0 || view.isCleared(i) || pos >= limit || !view.holds(pos)) continue;
      if (view.truncatedRanges.some(([a, b]) => pos >= a && pos < b)) continue;
      const over = clearables.tokens[i]! - TOOL_RESULT_LIMIT_TOKENS;
      if (over <= 0) continue;
      items.push(i);
      savedAt.push([pos, over]);
      saved += over;
    }
    if (items.length > 0)
      actions.push({
        kind: 'replace',
        items,
        noticeTokens: TOOL_RESULT_LIMIT_TOKENS,
        checkTokens: count,
        thresholdTokens: target,
        note: `basic compaction${trigger === 'manual' ? ' (manual)' : ''}: ${items.length} tool results cut to 2,000 characters (TOOL_RESULT_CHAR_LIMIT), about ${fmt(saved)} tokens`,
      });
    const excess = count - saved - target;
    if (excess <= 0 || from >= limit) return actions;
    // The first position whose drop [from, q) covers the rest of the excess, the cut results
    // counted at their new size (binary search: the dropped tokens grow with q).
    const dropped = (q: number) => {
      let t = view.getLiveTokens(from, q);
      for (const [pos, over] of savedAt) if (pos >= from && pos < q) t -= over;
      return t;
    };
    let lo = from + 1;
    let hi = limit;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (dropped(mid) >= excess) hi = mid;
      else lo = mid + 1;
    }
    // Tool pairs are removed whole (collectAtomicRemovalIndexes): move on to a safe cut.
    let to = lo;
    while (to < limit && !isSafeCut(this.prepared, to, view.boundaryPos)) to++;
    if (!isSafeCut(this.prepared, to, view.boundaryPos))
      to = getSafeCut(this.prepared, to, from, view.boundaryPos);
    if (to <= from) return actions;
    actions.push({
      kind: 'truncate',
      fromPos: from,
      toPos: to,
      noticeTokens: 0,
      checkTokens: count,
      thresholdTokens: target,
      note: `basic compaction${trigger === 'manual' ? ' (manual)' : ''}: the oldest ${fmt(dropped(to))} tokens after the first prompt dropped to fit ${fmt(target)}`,
    });
    return actions;
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
      summaryOverheadSource:
        'buildSummaryMessage’s “Context summary:” before the summary, at 4 characters per token',
      summaryMaxTokens: this.knobs.summaryMaxTokens,
      requestVariant: 'full',
      promptPresetId: this.profile.presetId,
      customInstructions: view.manual?.customInstructions,
      note: `agentic compaction: ${fmt(view.getLiveTokens(cut, end))} newest tokens kept verbatim (≥ ${fmt(this.knobs.preserveRecentTokens)}, not past the latest prompt), the rest summarized (≤ ${fmt(this.knobs.summaryMaxTokens)} tokens)`,
    };
  }
}
