import type { Restoration } from '../../compact/restore';
import { getSafeCut } from '../../simulation/cuts';
import { getMessageAt, getMessageRangePositions } from '../../simulation/message-pairs';
import type { PreparedReplay } from '../../simulation/prepared';
import { lowerBound } from '../../simulation/search';
import type { TokenCount } from '../../types';
import type { ReplayView, StepOutcome, StrategyAction, StrategyRun } from '../types';
import { CLINE_CONDENSE } from './condense-prompt';
import {
  CLINE_BLOCKING_NOTE,
  type ClineKnobs,
  getClineBlockingTokens,
  getClineCondenseThreshold,
  getClineMaxAllowed,
} from './knobs';

// Cline's classic context management (docs/sources.md#cline-auto-context, #cline-file-read-dedup, #cline-context-messages; docs/sources.md#cline-classic; code: cline/cline src/core/context/context-management/
// {ContextManager.ts, context-window-utils.ts}, src/core/prompts/{responses.ts,contextManagement.ts}):
//   - before each request, the previous request's tokensIn + tokensOut + cacheWrites + cacheReads
//     (`shouldCompactContextWindow`) is compared with `maxAllowedSize`, a table by window
//     (`getContextWindowInfo`: 64k → −27k, 128k → −30k, 200k → −40k, else max(−40k, 80%));
//   - at or above it, first the file-read dedup (`applyContextOptimizations`): every read of a
//     file but the latest is replaced by a notice; when that saves ≥ 30% of the in-context
//     characters, no truncation (`charactersSavedPercentage >= 0.3`);
//   - else truncation (`getNextTruncationRange`): the first user–assistant pair is always kept,
//     half of the remaining messages dropped in whole pairs (three quarters when the total is
//     over twice the limit: `keep = totalTokens / 2 > maxAllowedSize ? "quarter" : "half"`), and
//     the first assistant message's text becomes the truncation notice, once;
//   - with `useAutoCondense` (from v3.25.0; off by default; honoured for next-gen models only,
//     `isNextGenModelFamily`) the model is asked to call `summarize_task` instead, at
//     min(⌊window × autoCondenseThreshold⌋, maxAllowedSize): `autoCondenseThreshold` 0.75 from
//     v3.31.0 until v3.66.0 removed it (cline#9396), maxAllowedSize before and after; the history
//     then restarts from the first pair and the summary wrapped in the continuation prompt. The
//     prompt is the release's (profiles.ts).
// Cline counts in API history messages (one user and one assistant per request); the replay's
// call axis has the same pairs (simulation/message-pairs.ts), so the deleted range is computed
// in messages as Cline does and applied as whole calls.

const NO_RESTORATION: Restoration = { files: [], overBudget: [], totalTokens: 0 };
/** Tools whose result is a whole file (Cline's `read_file`, Claude Code's Read). */
const READ_TOOLS = /^(read|read_?file)$/i;

export class ClineRun implements StrategyRun {
  readonly allowsManualCompaction = true;
  readonly countsPending = false;
  readonly blockingTokens: TokenCount;
  readonly blockingNote = CLINE_BLOCKING_NOTE;
  /** Per replayed call, the limits of the window its request is checked against (model-windows.ts). */
  private readonly maxAllowedByCall: Float64Array;
  private readonly condenseAtByCall: Float64Array;
  /** The limits of the check under way (the request after the call just replayed). */
  private maxAllowed: TokenCount;
  private condenseAt: TokenCount;
  /** Per clearable: the file a read result holds, else undefined. */
  private readonly readPath: (string | undefined)[];
  /** Whether the history already holds the truncation notice (Cline sets it once). */
  private noticed = false;

  constructor(
    private readonly knobs: ClineKnobs,
    private readonly prepared: PreparedReplay,
    /** The summarize_task preset of the profile's release. */
    private readonly presetId: string,
    /** The window of each replayed call's model (every one `knobs.contextWindow` when absent). */
    windows?: Float64Array,
  ) {
    // One limit for the run, as pi has it: the largest of its models' windows (a request over its
    // own model's window is over that model's maxAllowedSize first).
    this.blockingTokens = Math.max(
      getClineBlockingTokens(knobs, prepared.session.meta.providers, prepared.recorded),
      ...(windows ?? []),
    );
    const n = prepared.calls.length;
    this.maxAllowedByCall = new Float64Array(n);
    this.condenseAtByCall = new Float64Array(n);
    for (let k = 0; k < n; k++) {
      const atWindow = { ...knobs, contextWindow: windows?.[k] ?? knobs.contextWindow };
      this.maxAllowedByCall[k] = getClineMaxAllowed(atWindow);
      this.condenseAtByCall[k] = getClineCondenseThreshold(atWindow);
    }
    this.maxAllowed = getClineMaxAllowed(knobs);
    this.condenseAt = getClineCondenseThreshold(knobs);
    const { session, ctxEntry, clearables, toolNames } = prepared;
    this.readPath = clearables.ids.map((id, i) => {
      const t = clearables.tool[i]!;
      const use = clearables.usePos[i]!;
      if (t < 0 || use < 0 || !READ_TOOLS.test(toolNames[t]!)) return undefined;
      const block = session.entries[ctxEntry[use]!]!.blocks.find((b) => b.kind === 'tool-use' && b.id === id);
      return block?.kind === 'tool-use' ? block.filePath : undefined;
    });
  }

  step(view: ReplayView): StepOutcome | undefined {
    // Before the next request, against the window of the model it is sent to (the last call's own
    // after the last call: a manual condense there).
    const next = Math.min(view.callPos + 1, this.maxAllowedByCall.length - 1);
    if (next >= 0) {
      this.maxAllowed = this.maxAllowedByCall[next]!;
      this.condenseAt = this.condenseAtByCall[next]!;
    }
    if (view.manual) return { actions: [this.condense(view, 'manual')] };
    // The previous request's tokensIn + tokensOut + cacheWrites + cacheReads.
    const total = view.usageTokens;
    if (this.knobs.useAutoCondense) {
      if (total < this.condenseAt) return undefined;
      return { actions: [this.condense(view, 'auto')] };
    }
    if (total < this.maxAllowed) return undefined;
    if (view.truncatedRanges.length === 0) this.noticed = false;
    const actions: StrategyAction[] = [];
    let saved = 0;
    if (this.knobs.dedupEnabled) {
      const dedup = this.dedup(view);
      if (dedup) {
        actions.push(dedup.action);
        saved = dedup.savedTokens;
      }
    }
    // Cline compares characters saved with the characters in context; tokens stand in for them.
    const inContext = view.getLiveTokens(view.liveFromPos, view.boundaryPos);
    if (saved > 0 && saved >= (inContext * this.knobs.dedupEnoughPercent) / 100) return { actions };
    const truncate = this.truncate(view, total);
    if (truncate) actions.push(truncate);
    return actions.length ? { actions } : undefined;
  }

  /** Every live read of a file but the latest, replaced by the notice. */
  private dedup(view: ReplayView): { action: StrategyAction; savedTokens: TokenCount } | undefined {
    const { pos, tokens } = this.prepared.clearables;
    const byPath = new Map<string, number[]>();
    for (let i = view.clearableFrom; i < view.clearableTo; i++) {
      const path = this.readPath[i];
      if (path === undefined || view.isCleared(i) || this.isTruncated(view, pos[i]!)) continue;
      const list = byPath.get(path);
      if (list) list.push(i);
      else byPath.set(path, [i]);
    }
    const items: number[] = [];
    let saved = 0;
    let files = 0;
    for (const list of byPath.values()) {
      if (list.length > 1) files++;
      for (const i of list.slice(0, -1)) {
        items.push(i);
        saved += Math.max(0, tokens[i]! - this.knobs.dedupNoticeTokens);
      }
    }
    if (items.length === 0) return undefined;
    items.sort((a, b) => a - b);
    return {
      savedTokens: saved,
      action: {
        kind: 'replace',
        items,
        noticeTokens: this.knobs.dedupNoticeTokens,
        checkTokens: view.usageTokens,
        thresholdTokens: this.maxAllowed,
        note: `${items.length} earlier reads of ${files} files replaced by the duplicate-read notice`,
      },
    };
  }

  private isTruncated(view: ReplayView, p: number): boolean {
    return view.truncatedRanges.some(([a, b]) => p >= a && p < b);
  }

  /** `getNextTruncationRange` in API messages (one pair per call), applied as whole calls. */
  private truncate(view: ReplayView, total: TokenCount): StrategyAction | undefined {
    const { callPos } = this.prepared;
    // What follows the first pair (the live history's first call stands for it when a summary
    // has replaced the original one), past what earlier truncations dropped.
    let restPos =
      view.liveFromPos < view.firstPairEndPos
        ? view.firstPairEndPos
        : (callPos[lowerBound(callPos, view.liveFromPos + 1)] ?? view.boundaryPos);
    for (const [a, b] of view.truncatedRanges) if (a <= restPos && b > restPos) restPos = b;
    const nextCall = view.callPos + 1;
    // Cline's history when it truncates: the task, one user and one assistant per call so far,
    // and the request being started (2n + 1 messages for call n).
    const messages = 2 * nextCall + 1;
    const startOfRest = getMessageAt(callPos, restPos);
    const keep =
      this.knobs.truncateKeep === 'auto'
        ? total / 2 > this.maxAllowed
          ? 'quarter'
          : 'half'
        : this.knobs.truncateKeep;
    const remaining = Math.max(0, messages - startOfRest);
    const remove = keep === 'half' ? Math.floor(remaining / 4) * 2 : Math.floor((remaining * 3) / 4 / 2) * 2;
    if (remove <= 0) return undefined;
    const lastMessage = startOfRest + remove - 1;
    const [from0, to0] = getMessageRangePositions(callPos, startOfRest, lastMessage);
    const fromPos = getSafeCut(this.prepared, from0, view.liveFromPos, view.boundaryPos);
    const toPos = getSafeCut(
      this.prepared,
      Math.min(to0, view.boundaryPos),
      view.liveFromPos,
      view.boundaryPos,
    );
    if (toPos <= fromPos) return undefined;
    const notice = this.noticed ? 0 : this.knobs.truncationNoticeTokens;
    this.noticed = true;
    return {
      kind: 'truncate',
      fromPos,
      toPos,
      noticeTokens: notice,
      checkTokens: total,
      thresholdTokens: this.maxAllowed,
      note: `keep ${keep}: API history messages ${startOfRest}–${lastMessage} dropped (${describeResultCalls(startOfRest, lastMessage)}), the first pair kept`,
    };
  }

  /** summarize_task: the first pair kept, the rest summarized, the continuation prompt around it. */
  private condense(view: ReplayView, trigger: 'auto' | 'manual'): StrategyAction {
    const keepPair = view.liveFromPos < view.firstPairEndPos && view.firstPairEndPos < view.boundaryPos;
    return {
      kind: 'summarize',
      mechanism: 'full',
      trigger,
      checkTokens: view.usageTokens,
      thresholdTokens: this.knobs.useAutoCondense ? this.condenseAt : this.maxAllowed,
      restoration: NO_RESTORATION,
      keepFromPos: keepPair ? view.firstPairEndPos : undefined,
      keepDirection: keepPair ? 'from' : undefined,
      continuation: { format: 'v2.1.68', auto: trigger === 'auto' },
      summaryOverheadTokens: this.knobs.continuationTokens,
      summaryOverheadSource: 'the continuation prompt around the condensed summary (the knob)',
      requestVariant: 'full',
      // `/compact` (`/smol`) sends the condense tool's prompt; auto-condense the release's summarize_task.
      promptPresetId: trigger === 'manual' ? CLINE_CONDENSE.id : this.presetId,
      customInstructions: view.manual?.customInstructions,
      note: keepPair
        ? 'summarize_task: the first user–assistant pair kept before the summary'
        : 'summarize_task',
    };
  }
}

/**
 * The calls whose results API history messages `first`–`last` hold: message 2j + 2 holds call j's
 * (0-based), named from 1 as every call is shown ("calls 0–7" read as 0-based beside "API call 17").
 */
function describeResultCalls(first: number, last: number): string {
  const [from, to] = [first / 2, Math.floor(last / 2)];
  return from === to ? `the results of API call ${from}` : `the results of API calls ${from}–${to}`;
}
