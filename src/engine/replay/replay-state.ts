import { LoggedHistory, SimulatedHistory } from '../simulation/history';
import { type PreparedReplay, TOKEN_SOURCE } from '../simulation/prepared';
import type { EventDetail, StrategyAction, StrategyRun } from '../strategies/types';
import type { TokenCount } from '../types';
import { applySummarize } from './apply-summarize';
import { createTokenProvenance, withStrategyCount } from './provenance';
import type { SummarySizeModel } from './summary-size';
import type { CompactFailedEvent, ReplayEvent, TokenProvenance } from './types';

// What one replay holds while it walks the calls: the simulated history, the log's, the events
// so far, and how each strategy action and each logged compaction changes them. The loop itself
// is `computeReplay` (compute-replay.ts).

type ClearAction = Extract<StrategyAction, { kind: 'clear' }>;
type SummarizeAction = Extract<StrategyAction, { kind: 'summarize' }>;
type ReplaceAction = Extract<StrategyAction, { kind: 'replace' }>;
type TruncateAction = Extract<StrategyAction, { kind: 'truncate' }>;
type FailAction = Extract<StrategyAction, { kind: 'fail' }>;

interface ReplayStateOptions {
  model: SummarySizeModel;
  toleranceCalls: number;
  suppliedSummaryTokens?: Readonly<Record<number, TokenCount>>;
  /** Per logged compaction, its trigger as the run reads it (`StrategyRun.inferLoggedTrigger`). */
  loggedTriggers?: readonly string[];
}

export class ReplayState {
  readonly history: SimulatedHistory;
  readonly log: LoggedHistory;
  readonly events: ReplayEvent[] = [];
  readonly clearedToolIds: Record<string, number> = {};
  readonly summarizedRanges: [number, number][] = [];
  readonly simulatedTokens: Float64Array;
  readonly checkTokens: Float64Array;
  readonly diverged: Uint8Array;
  /** The simulated history differs from the log's (its figures are attributed, not recorded). */
  differs = false;
  /** The last call was refused: a run of refused calls is one event. */
  blocked = false;
  /** The compaction-failed event of the last call, when the step after it failed: a run of failures is one event. */
  failing: CompactFailedEvent | undefined;
  /** Index into `prepared.real` of the next logged compaction to apply. */
  realPtr = 0;
  readonly realAutoByCall = new Map<number, number>();
  /** Per logged compaction, its trigger as this run reads it. */
  readonly loggedTriggers: readonly string[];

  constructor(
    readonly prepared: PreparedReplay,
    readonly run: StrategyRun,
    readonly options: ReplayStateOptions,
  ) {
    const n = prepared.calls.length;
    this.history = new SimulatedHistory(prepared);
    this.log = new LoggedHistory(prepared);
    this.simulatedTokens = new Float64Array(n);
    this.checkTokens = new Float64Array(n);
    this.diverged = new Uint8Array(n);
    this.loggedTriggers = options.loggedTriggers ?? prepared.real.map((r) => r.trigger);
    prepared.real.forEach((r, i) => {
      if (r.kind === 'compact' && this.loggedTriggers[i] === 'auto') this.realAutoByCall.set(r.afterCall, i);
    });
  }

  /** Live context positions in [from, to) that no truncation hides. */
  countLive(from: number, to: number): number {
    let n = Math.max(0, to - from);
    for (const [a, b] of this.history.truncatedRanges) n -= Math.max(0, Math.min(b, to) - Math.max(a, from));
    return n;
  }

  /** Call k's simulated context: the recorded usage corrected by what differs between the histories. */
  contextTokens(k: number): TokenCount {
    const pos = this.prepared.callPos[k]!;
    return this.prepared.recorded[k]! + this.history.contextBefore(pos) - this.log.contextBefore(pos);
  }

  /** The entry a boundary at `pos` follows (artifacts of compactions the history does not hold skipped). */
  entryBefore(pos: number): number {
    const { artifactOf, ctxEntry } = this.prepared;
    const adopted = this.history.adoptedReal + 1;
    for (let p = pos - 1; p >= 0; p--)
      if (artifactOf[p] === 0 || artifactOf[p] === adopted) return ctxEntry[p]!;
    return 0;
  }

  excludedArtifacts(from: number, to: number): number[] {
    const { artifactOf, ctxEntry } = this.prepared;
    const adopted = this.history.adoptedReal + 1;
    const out: number[] = [];
    for (let p = from; p < to; p++)
      if (artifactOf[p] !== 0 && artifactOf[p] !== adopted) out.push(ctxEntry[p]!);
    return out;
  }

  /** Adds the history's messages [from, to) by token source (replaced results not subtracted). */
  addMessages(p: TokenProvenance, from: number, to: number): void {
    const s = this.prepared.prefixBySource;
    p.exactTokens += s[TOKEN_SOURCE.exact]![to]! - s[TOKEN_SOURCE.exact]![from]!;
    p.splitTokens += s[TOKEN_SOURCE.split]![to]! - s[TOKEN_SOURCE.split]![from]!;
    p.estimatedTokens += s[TOKEN_SOURCE.estimated]![to]! - s[TOKEN_SOURCE.estimated]![from]!;
    p.clampedMessages += s[TOKEN_SOURCE.clamped]![to]! - s[TOKEN_SOURCE.clamped]![from]!;
  }

  addSynthetic(p: TokenProvenance): void {
    const { parts } = this.history;
    p.baseTokens = this.prepared.baseTokens;
    p.summaryTokens = parts.summaryTokens;
    p.summarySource = parts.summaryTokens > 0 ? parts.summarySource : undefined;
    p.restoredTokens = parts.restoredTokens;
    p.keptTokens = parts.keptTokens;
  }

  /** How call k's context (`withCheck`: its trigger count) was obtained, from the current state. */
  describeCall(k: number, withCheck: boolean): TokenProvenance {
    const { callPos, recorded, output, pendingEstimate } = this.prepared;
    const pos = callPos[k]!;
    const p = createTokenProvenance(this.diverged[k] ? 'attributed' : 'recorded');
    if (p.kind === 'recorded') {
      p.usageTokens = recorded[k]!;
      p.correctionTokens = this.simulatedTokens[k]! - recorded[k]!;
    } else {
      this.addSynthetic(p);
      this.addMessages(p, this.history.liveFrom, pos);
      p.clearedTokens = this.history.savedTokens + this.history.droppedTokens;
      // The falls of the usage the history holds (`PreparedReplay.prefixDrop`) count with the log's
      // usage less its priced messages: the correction.
      p.correctionTokens =
        recorded[k]! -
        this.log.contextBefore(pos) +
        this.history.carriedTokens -
        this.history.droppedByUsage(pos);
    }
    if (withCheck) {
      p.outputTokens = output[k]!;
      p.pendingTokens = this.run.countsPending ? pendingEstimate[k]! : 0;
    }
    return p;
  }

  /** The context right after adopting a real compaction: base + its summary and re-attachments. */
  describeAdopted(r: number): TokenProvenance {
    const info = this.prepared.real[r]!;
    const p = createTokenProvenance('attributed');
    p.baseTokens = this.prepared.baseTokens;
    p.summaryTokens = info.summaryTokens ?? 0;
    p.summarySource = 'recorded';
    p.restoredTokens = info.artifactTokens - p.summaryTokens;
    return p;
  }

  /** The head of an event after call k, at boundary `boundaryPos`. */
  eventHead(k: number, boundaryPos: number) {
    const entry = this.entryBefore(boundaryPos);
    return {
      afterApiCall: this.prepared.calls[k]!,
      afterCallPos: k,
      afterEntryIndex: entry,
      afterUuid: this.prepared.session.entries[entry]?.uuid,
    };
  }

  /** The simulated request reached the blocking limit. */
  block(k: number, contextTokens: TokenCount): void {
    if (!this.blocked) {
      const source = this.describeCall(k, false);
      this.events.push({
        kind: 'blocked',
        trigger: 'auto',
        ...this.eventHead(k, this.prepared.callPos[k + 1]!),
        checkTokens: contextTokens,
        thresholdTokens: this.run.blockingTokens,
        preTokens: contextTokens,
        postTokens: contextTokens,
        preSource: source,
        postSource: source,
        failure: 'blocking-limit',
        note:
          this.run.blockingNote ??
          "the simulated request reaches the model's window: the API would refuse it (the prompt is too long)",
      });
    }
    this.blocked = true;
  }

  /**
   * A compaction that could not be made: the history is unchanged. Consecutive failures of the
   * same kind (each call retries, as auto-compact does on every turn over the threshold) extend
   * one event and count its attempts.
   */
  applyFail(k: number, boundaryPos: number, action: FailAction, preSource: TokenProvenance): void {
    const last = this.failing;
    if (last && last.failure === action.failure && last.trigger === action.trigger) {
      last.attempts += 1;
      last.requestTokens = Math.max(last.requestTokens, action.requestTokens);
      return;
    }
    const event: CompactFailedEvent = {
      kind: 'compact-failed',
      mechanism: action.mechanism,
      trigger: action.trigger,
      ...this.eventHead(k, boundaryPos),
      checkTokens: action.checkTokens,
      thresholdTokens: action.thresholdTokens,
      preTokens: action.checkTokens,
      postTokens: action.checkTokens,
      preSource: withStrategyCount(preSource, action.checkTokens),
      postSource: withStrategyCount(preSource, action.checkTokens),
      failure: action.failure,
      requestTokens: action.requestTokens,
      limitTokens: action.limitTokens,
      attempts: 1,
      note: action.note,
      ...withDetail(action),
    };
    this.events.push(event);
    this.failing = event;
  }

  /** `count`: the simulated trigger count before clearing (net of earlier clears). */
  applyClear(
    k: number,
    boundaryPos: number,
    action: ClearAction,
    count: TokenCount,
    preSource: TokenProvenance,
  ): void {
    // Clearing exactly what the log's microcompact cleared at this call keeps the histories equal:
    // those results are priced with the log's placeholder.
    const sameAsReal = this.prepared.real.some(
      (r) =>
        r.kind === 'microcompact' &&
        r.afterCall === k &&
        r.cleared.length === action.items.length &&
        r.cleared.every((i) => action.items.includes(i)),
    );
    const eventIndex = this.events.length;
    const { items, savedTokens } = this.history.clear(action.items, action.placeholderTokens, sameAsReal);
    const ids = items.map((i) => this.prepared.clearables.ids[i]!);
    for (const id of ids) this.clearedToolIds[id] = eventIndex;
    if (!sameAsReal) this.differs = true;
    this.events.push({
      kind: 'microcompact',
      trigger: 'auto',
      ...this.eventHead(k, boundaryPos),
      checkTokens: action.checkTokens,
      thresholdTokens: action.thresholdTokens,
      preTokens: count,
      postTokens: count - savedTokens,
      preSource,
      postSource: { ...preSource, clearedTokens: preSource.clearedTokens + savedTokens },
      clearedToolIds: ids,
      savedTokens,
      estimatedSavedTokens: action.estimatedSavedTokens,
      note: action.note,
      ...withDetail(action),
    });
  }

  /** Results replaced by a notice (the same bookkeeping as a clear: each once, never back). */
  applyReplace(
    k: number,
    boundaryPos: number,
    action: ReplaceAction,
    count: TokenCount,
    preSource: TokenProvenance,
  ): void {
    const eventIndex = this.events.length;
    const { items, savedTokens } = this.history.replace(action.items, action.noticeTokens);
    const ids = items.map((i) => this.prepared.clearables.ids[i]!);
    for (const id of ids) this.clearedToolIds[id] = eventIndex;
    if (items.length > 0) this.differs = true;
    this.events.push({
      kind: 'replace',
      trigger: 'auto',
      ...this.eventHead(k, boundaryPos),
      checkTokens: action.checkTokens,
      thresholdTokens: action.thresholdTokens,
      preTokens: count,
      postTokens: count - savedTokens,
      preSource,
      postSource: { ...preSource, clearedTokens: preSource.clearedTokens + savedTokens },
      clearedToolIds: ids,
      savedTokens,
      noticeTokens: action.noticeTokens,
      note: action.note,
      ...withDetail(action),
    });
  }

  /**
   * Live positions [fromPos, toPos) dropped. `history.truncate` refuses a cut that splits a tool
   * pair (RangeError: a strategy bug). Dropping what the log's own truncation after this call
   * drops keeps the histories equal: the notice is then what the log's truncation left unlogged
   * (its notice, as the log's next usage shows it).
   */
  applyTruncate(
    k: number,
    boundaryPos: number,
    action: TruncateAction,
    count: TokenCount,
    preSource: TokenProvenance,
  ): void {
    const { prepared, history } = this;
    const same = prepared.real.find(
      (r) =>
        r.kind === 'truncate' &&
        r.afterCall === k &&
        r.droppedRange !== undefined &&
        sameRanges(
          [...history.truncatedRanges, [action.fromPos, action.toPos]],
          [...this.log.truncated, r.droppedRange],
        ),
    );
    const sameAsReal = same !== undefined;
    const hiddenEntries = action.hide ? this.countLive(action.fromPos, action.toPos) : 0;
    const dropped = history.truncate(action.fromPos, action.toPos, boundaryPos);
    const notice = same ? same.unloggedTokens : action.noticeTokens;
    if (notice !== 0) history.addNotice(notice);
    if (!sameAsReal) this.differs = true;
    const post = count - dropped + notice;
    const postSource = { ...preSource, clearedTokens: preSource.clearedTokens + dropped };
    postSource.restoredTokens += notice;
    let note = action.note;
    if (post >= action.thresholdTokens)
      note = joinNotes(
        note,
        `still ${post.toLocaleString('en-US')} tokens after truncating, not under the ${action.thresholdTokens.toLocaleString('en-US')} threshold: the first pair and the kept messages hold the rest`,
      );
    this.events.push({
      kind: 'truncate',
      trigger: 'auto',
      ...this.eventHead(k, boundaryPos),
      checkTokens: action.checkTokens,
      thresholdTokens: action.thresholdTokens,
      preTokens: count,
      postTokens: post,
      preSource,
      postSource,
      droppedFromEntryIndex: prepared.ctxEntry[action.fromPos],
      droppedToEntryIndex: prepared.ctxEntry[action.toPos - 1],
      droppedTokens: dropped,
      noticeTokens: notice,
      note,
      ...withDetail(action),
      ...(action.hide
        ? {
            hidden: {
              tag: 'truncation' as const,
              fromEntryIndex: prepared.ctxEntry[action.fromPos]!,
              toEntryIndex: prepared.ctxEntry[action.toPos - 1]!,
              entries: hiddenEntries,
              tokens: dropped,
            },
          }
        : {}),
    });
  }

  /** A summary: the simulated history from the boundary on, or the log's own where it compacted here (apply-summarize.ts). */
  applySummarize(k: number, boundary: number, action: SummarizeAction, preSource: TokenProvenance): void {
    applySummarize(this, k, boundary, action, preSource);
  }

  /** Whether the log has a compaction to apply after call k. */
  hasLoggedUpTo(k: number): boolean {
    return this.realPtr < this.prepared.real.length && this.prepared.real[this.realPtr]!.afterCall <= k;
  }

  /** A real compaction before the first call: both histories start from it. */
  applyLoggedBeforeFirstCall(): void {
    const { real } = this.prepared;
    while (this.realPtr < real.length && real[this.realPtr]!.afterCall < 0) {
      const r = real[this.realPtr]!;
      if (r.kind === 'compact') {
        this.log.compact(r.boundaryPos, r.unloggedTokens);
        this.history.adopt(this.realPtr);
      }
      this.realPtr++;
    }
  }

  /** What the log did after call k: its microcompacts and compactions, a manual one adopted. */
  applyLogged(k: number, callSource: TokenProvenance | undefined): void {
    const { real, calls, baseTokens: base, session } = this.prepared;
    const { history } = this;
    while (this.hasLoggedUpTo(k)) {
      const r = real[this.realPtr]!;
      if (r.kind === 'microcompact') {
        this.log.clear(r.cleared);
        if (!r.cleared.every((i) => history.isReplaced(i))) this.differs = true;
      } else if (r.kind === 'truncate' && r.droppedRange) {
        this.log.truncate(r.droppedRange[0], r.droppedRange[1], r.unloggedTokens);
        if (!sameRanges(history.truncatedRanges, this.log.truncated)) {
          this.differs = true;
          history.carry(r.driftTokens);
        }
      } else {
        this.log.compact(r.boundaryPos, r.unloggedTokens);
        const adopted = history.adoptedReal === this.realPtr;
        const trigger = this.loggedTriggers[this.realPtr];
        if (trigger !== 'auto' && this.run.allowsManualCompaction && !adopted) {
          const pre = this.checkTokens[k]!;
          history.adopt(this.realPtr);
          this.differs = false;
          this.events.push({
            kind: 'reset',
            trigger: 'log',
            afterApiCall: calls[k]!,
            afterCallPos: k,
            afterEntryIndex: this.entryBefore(r.boundaryPos),
            afterUuid: r.logicalParentUuid ?? session.entries[this.entryBefore(r.boundaryPos)]?.uuid,
            checkTokens: pre,
            thresholdTokens: 0,
            preTokens: pre,
            postTokens: base + r.artifactTokens,
            preSource: callSource!,
            postSource: this.describeAdopted(this.realPtr),
            summaryTokens: r.summaryTokens,
            summarySource: 'recorded',
            realCompactionIndex: r.compactionIndex,
            note: `manual /compact in the log (${r.trigger}): the replay continues from the log's post-compaction history`,
          });
        } else if (!adopted) {
          this.differs = true;
          // The drift prices the messages before the log's boundary: carried while this history
          // still holds them, not when it summarized them itself at this call (its own summary,
          // not the log's: a supplied or ratio-sized one). A real Codex rollout's −35,060 carried
          // past such a summary put the next call at −17,830 tokens.
          if (history.liveFrom < r.boundaryPos) history.carry(r.driftTokens);
        } else if (trigger === 'auto') this.differs = false;
      }
      this.realPtr++;
    }
  }
}

function sameRanges(
  a: readonly (readonly [number, number])[],
  b: readonly (readonly [number, number])[],
): boolean {
  const norm = (list: readonly (readonly [number, number])[]) => {
    const out: [number, number][] = [];
    for (const [x, y] of [...list].sort((p, q) => p[0] - q[0])) {
      const last = out[out.length - 1];
      if (last && x <= last[1]) last[1] = Math.max(last[1], y);
      else if (y > x) out.push([x, y]);
    }
    return out;
  };
  const na = norm(a);
  const nb = norm(b);
  return na.length === nb.length && na.every(([x, y], i) => x === nb[i]![0] && y === nb[i]![1]);
}

/** The action's `detail`, as a spread: absent, not undefined, when it has none. */
function withDetail(action: StrategyAction): { detail?: EventDetail } {
  return action.detail ? { detail: action.detail } : {};
}

export function joinNotes(a: string | undefined, b: string): string {
  return a ? `${a}; ${b}` : b;
}
