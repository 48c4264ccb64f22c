import { inspectMicrocompact } from './microcompact';
import { lowerBound } from '../../simulation/search';
import { CLEARABLE_DOCUMENT, CLEARABLE_IMAGE, type PreparedReplay } from '../../simulation/prepared';
import { computeThresholds } from '../../thresholds';
import { estimateTextTokens } from '../../tokens/estimate';
import type { TokenCount } from '../../types';
import type { ClaudeCodeKnobs } from './knobs';
import { getClaudeCodeSessionKnobs } from './session-knobs';
import type {
  ClearingProbe,
  CompactionStrategy,
  ReplayView,
  StepOutcome,
  StrategyAction,
  StrategyRun,
} from '../types';
import { ClaudeCodeCompactions } from './compactions';
import { RefillBreaker } from './refill-breaker';
import { getPositionFacts } from '../../simulation/turns';
import { CLAUDE_CODE_DESCRIPTOR, clearsWithAutoCompact } from './descriptor';

// Claude Code's context management (v2.1.68 and legacy, per docs/sources.md):
//   after each response, the trigger count (usage, plus the 2.1.x estimate of later messages) is
//   compared with the thresholds (thresholds.ts):
//   - Claude Code 2.1.68 (docs/sources.md#cc-five-mechanisms, #cc-microcompact):
//     at the auto-compact threshold a full compaction (session memory first, edge case 7); else,
//     above the warning threshold, microcompact clears old tool results when that frees > 20k.
//     Both "can fire in the same turn" (edge case 6); a full compaction makes the clearing moot.
//   - legacy (docs/sources.md#ccs-main-dispatcher): at the
//     auto-compact threshold microcompact is tried first; a full compaction only when it fails.
//   Full compaction summarizes everything since the last boundary and re-attaches files, todos and
//   plan (compact/restore.ts). DISABLE_COMPACT stops everything, DISABLE_AUTO_COMPACT the automatic
//   compaction, DISABLE_MICROCOMPACT the clearing.

/** v2.1.68's placeholder for a cleared result ("Microcompact", step 5). */
export const V2168_PLACEHOLDER = '[Tool result cleared]';
/** The legacy placeholder (docs/sources.md#ccs-microcompact `Si`, step 5). */
export const LEGACY_PLACEHOLDER = '[Old tool result content cleared]';

class ClaudeCodeRun implements StrategyRun {
  readonly allowsManualCompaction: boolean;
  readonly countsPending: boolean;
  readonly blockingTokens: TokenCount;
  readonly blockingNote =
    'the simulated request reaches the blocking limit: Claude Code would refuse it ("prompt too long")';
  private readonly autoThreshold: TokenCount;
  private readonly warningThreshold: TokenCount;
  private readonly eligible: Uint8Array;
  private readonly placeholderTokens: TokenCount;
  /** Σ estimate of eligible, not cleared items in [from, to) of the clearable list. */
  private liveEligibleSum = 0;
  private liveFrom = -1;
  private liveTo = 0;
  private readonly clearedHere: Uint8Array;
  private readonly compactions: ClaudeCodeCompactions;
  private readonly breaker: RefillBreaker;

  constructor(
    private readonly knobs: ClaudeCodeKnobs,
    private readonly prepared: PreparedReplay,
  ) {
    const t = computeThresholds(knobs);
    this.autoThreshold = t.autoCompact;
    this.warningThreshold = t.warning;
    this.blockingTokens = t.blocking;
    this.allowsManualCompaction = !knobs.disableCompact;
    this.countsPending = knobs.countPendingMessages;
    this.compactions = new ClaudeCodeCompactions(knobs, prepared, t.autoCompact, t.contextWindow);
    this.breaker = new RefillBreaker(getPositionFacts(prepared).userTurnPos);
    const { clearables, toolNames } = prepared;
    const tools = new Set(knobs.microcompactTools);
    const toolOk = toolNames.map((name) => tools.has(name));
    const images = knobs.microcompactVariant === 'v2.1.68' && knobs.microcompactClearImages;
    this.eligible = new Uint8Array(clearables.pos.length);
    for (let i = 0; i < this.eligible.length; i++) {
      const tool = clearables.tool[i]!;
      this.eligible[i] =
        tool >= 0
          ? toolOk[tool]
            ? 1
            : 0
          : tool === CLEARABLE_IMAGE || tool === CLEARABLE_DOCUMENT
            ? images
              ? 1
              : 0
            : 0;
    }
    this.clearedHere = new Uint8Array(clearables.pos.length);
    this.placeholderTokens = estimateTextTokens(
      (knobs.microcompactVariant === 'v2.1.68' ? V2168_PLACEHOLDER : LEGACY_PLACEHOLDER).length,
    );
  }

  step(view: ReplayView): StepOutcome | undefined {
    const k = this.knobs;
    if (k.disableCompact) return undefined;
    if (view.manual)
      return { actions: [this.compactions.checkRequest(view, this.compactions.manualCompaction(view))] };
    const T = view.checkTokens;
    const auto = k.autoCompactEnabled && T >= this.autoThreshold;
    if (k.microcompactVariant === 'legacy') {
      if (!auto) return undefined;
      const clear = k.microcompactEnabled ? this.selectLegacy(view) : undefined;
      return { actions: [clear ?? this.autoCompaction(view)] };
    }
    // Microcompact looks at the latest response's usage (`ZK`, docs/sources.md#ccs-token-counting):
    // the 2.1.9–2.1.19 boundaries fire on it, not on the pending estimate (docs/replay-accuracy.md).
    // Before 2.1.68, with auto-compact on, it is tried only when auto-compact is due
    // (`microcompactTrigger`): the logs clear after the same call as the compaction, never alone.
    const due = clearsWithAutoCompact(k) ? auto : view.usageTokens >= this.warningThreshold;
    const clear = k.microcompactEnabled && due ? this.selectV2168(view) : undefined;
    // Edge case 6: both can fire in the same turn, microcompact inline as the messages are
    // serialized, the full compaction after it, over the cleared history. The trigger count is
    // the usage (with the pending estimate), which the clearing does not lower.
    const actions: StrategyAction[] = [];
    if (clear) actions.push(clear);
    if (auto) actions.push(this.autoCompaction(view));
    return actions.length > 0 ? { actions } : undefined;
  }

  /** The automatic compaction due at this call, unless the rapid-refill breaker refuses it. */
  private autoCompaction(view: ReplayView): StrategyAction {
    if (!this.knobs.rapidRefillBreaker || !this.breaker.refuses(view.callPos, view.boundaryPos)) {
      const action = this.compactions.checkRequest(view, this.compactions.autoCompaction(view));
      if (action.kind !== 'fail') this.breaker.made(view.callPos, view.boundaryPos);
      return action;
    }
    return {
      kind: 'fail',
      failure: 'thrashing',
      mechanism: 'full',
      trigger: 'auto',
      checkTokens: view.checkTokens,
      thresholdTokens: this.autoThreshold,
      requestTokens: view.checkTokens,
      limitTokens: this.autoThreshold,
      note: 'Autocompact is thrashing: the context refilled to the threshold within 3 calls of the previous compaction, 3 times in a row; Claude Code makes no compaction and ends the request',
    };
  }

  /** Keeps `liveEligibleSum` in step with the view's live range and the clears it saw. */
  private syncLive(view: ReplayView): void {
    const { estimate } = this.prepared.clearables;
    if (view.clearableFrom !== this.liveFrom || view.clearableTo < this.liveTo) {
      this.liveFrom = view.clearableFrom;
      this.liveTo = view.clearableFrom;
      this.liveEligibleSum = 0;
    }
    for (let i = this.liveTo; i < view.clearableTo; i++) {
      if (this.eligible[i] && !view.isCleared(i)) this.liveEligibleSum += estimate[i]!;
    }
    this.liveTo = view.clearableTo;
  }

  private clearAction(
    view: ReplayView,
    items: number[],
    savings: number,
    threshold: number,
    note: string,
  ): StrategyAction {
    const { estimate } = this.prepared.clearables;
    for (const i of items) {
      this.clearedHere[i] = 1;
      this.liveEligibleSum -= estimate[i]!;
    }
    return {
      kind: 'clear',
      items,
      placeholderTokens: this.placeholderTokens,
      estimatedSavedTokens: savings,
      checkTokens: view.checkTokens,
      thresholdTokens: threshold,
      note,
    };
  }

  /** An eligible tool result, not cleared yet, in the live history (after the last boundary). */
  private isLiveEligible(view: ReplayView, i: number): boolean {
    const pos = this.prepared.clearables.pos[i]!;
    return this.eligible[i] === 1 && !view.isCleared(i) && pos >= view.liveFromPos && pos < view.boundaryPos;
  }

  /**
   * What microcompact would clear at this call, by `inspectMicrocompact` on the live eligible
   * results in call order (the list the incremental selections walk), and why it does not act.
   */
  probeClearing(view: ReplayView): ClearingProbe {
    const k = this.knobs;
    const { estimate, order, orderKey } = this.prepared.clearables;
    const considered: number[] = [];
    const endRank = lowerBound(orderKey, view.boundaryPos);
    for (let r = lowerBound(orderKey, view.liveFromPos); r < endRank; r++)
      if (this.isLiveEligible(view, order[r]!)) considered.push(order[r]!);
    const pick = inspectMicrocompact(
      considered.map((i) => estimate[i]!),
      {
        variant: k.microcompactVariant,
        keepRecent: k.microcompactKeepRecent,
        protectTokens: k.microcompactProtectTokens,
        minSavings: k.microcompactMinSavings,
      },
    );
    const auto = k.autoCompactEnabled && view.checkTokens >= this.autoThreshold;
    const legacy = k.microcompactVariant === 'legacy';
    const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
    const reason = k.disableCompact
      ? 'compaction is disabled (DISABLE_COMPACT)'
      : !k.microcompactEnabled
        ? 'microcompact is off in this version (the microcompactEnabled knob)'
        : legacy && !auto
          ? 'under the auto-compact threshold: the legacy microcompact is tried only there'
          : !legacy && clearsWithAutoCompact(k) && !auto
            ? 'under the auto-compact threshold: in these versions microcompact is tried only when auto-compact is due, before it'
            : !legacy && auto && !clearsWithAutoCompact(k)
              ? 'the auto-compact threshold is reached: a full compaction runs, microcompact is tried only between the warning and the auto-compact thresholds'
              : !legacy && !clearsWithAutoCompact(k) && view.usageTokens < this.warningThreshold
                ? `the usage, ${fmt(view.usageTokens)}, is under the warning threshold, ${fmt(this.warningThreshold)}`
                : !pick.passes
                  ? `the savings, ${fmt(pick.savings)}, do not pass the minimum, ${fmt(k.microcompactMinSavings)}`
                  : undefined;
    return {
      mechanism: 'microcompact',
      considered,
      items: pick.clear.map((j) => considered[j]!),
      savings: pick.savings,
      minSavings: k.microcompactMinSavings,
      passes: pick.passes,
      acts: reason === undefined,
      reason,
      source: legacy ? 'docs/sources.md#ccs-microcompact' : 'docs/sources.md#cc-microcompact',
    };
  }

  /** v2.1.68 `Rg` (docs/sources.md#cc-microcompact), incrementally (same rules as `selectMicrocompact`), in call order. */
  private selectV2168(view: ReplayView): StrategyAction | undefined {
    this.syncLive(view);
    const k = this.knobs;
    const { estimate, order, orderKey } = this.prepared.clearables;
    const isLive = (i: number) => this.isLiveEligible(view, i);
    let seen = 0;
    let protectedTokens = 0;
    let cutRank = -1;
    const firstRank = lowerBound(orderKey, view.liveFromPos);
    for (let r = lowerBound(orderKey, view.boundaryPos) - 1; r >= firstRank; r--) {
      const i = order[r]!;
      if (!isLive(i)) continue;
      protectedTokens += estimate[i]!;
      seen++;
      if (seen <= k.microcompactKeepRecent) continue;
      if (protectedTokens > k.microcompactProtectTokens) {
        cutRank = r;
        break;
      }
    }
    if (cutRank < 0) return undefined;
    const savings = this.liveEligibleSum - (protectedTokens - estimate[order[cutRank]!]!);
    if (!(savings >= k.microcompactMinSavings)) return undefined;
    const items: number[] = [];
    for (let r = firstRank; r <= cutRank; r++) if (isLive(order[r]!)) items.push(order[r]!);
    items.sort((a, b) => a - b);
    const withAuto = clearsWithAutoCompact(k);
    return this.clearAction(
      view,
      items,
      savings,
      withAuto ? this.autoThreshold : this.warningThreshold,
      `${withAuto ? 'auto-compact is due: tried first, the full compaction after it' : 'above the warning threshold'}; ${items.length} results beyond the ${k.microcompactProtectTokens.toLocaleString('en-US')} most recent result tokens`,
    );
  }

  /** Legacy `Si`, incrementally (same rules as `selectMicrocompact`), in call order. */
  private selectLegacy(view: ReplayView): StrategyAction | undefined {
    this.syncLive(view);
    const k = this.knobs;
    const { estimate, order, orderKey } = this.prepared.clearables;
    const isLive = (i: number) => this.isLiveEligible(view, i);
    const firstRank = lowerBound(orderKey, view.liveFromPos);
    const endRank = lowerBound(orderKey, view.boundaryPos);
    let keepRank = endRank;
    let kept = 0;
    for (let r = endRank - 1; r >= firstRank && kept < k.microcompactKeepRecent; r--) {
      if (!isLive(order[r]!)) continue;
      keepRank = r;
      kept++;
    }
    if (kept < k.microcompactKeepRecent) keepRank = firstRank;
    const total = this.liveEligibleSum;
    let savings = 0;
    const items: number[] = [];
    for (let r = firstRank; r < keepRank; r++) {
      const i = order[r]!;
      if (!isLive(i)) continue;
      if (total - savings > k.microcompactProtectTokens) {
        items.push(i);
        savings += estimate[i]!;
      } else break;
    }
    items.sort((a, b) => a - b);
    if (savings < k.microcompactMinSavings) return undefined;
    return this.clearAction(
      view,
      items,
      savings,
      this.autoThreshold,
      'at the auto-compact threshold, tried before a full compaction',
    );
  }
}

export const CLAUDE_CODE_STRATEGY: CompactionStrategy<ClaudeCodeKnobs> = {
  ...CLAUDE_CODE_DESCRIPTOR,
  getSessionKnobs: getClaudeCodeSessionKnobs,
  createRun: (knobs, prepared) => new ClaudeCodeRun(knobs, prepared),
};
