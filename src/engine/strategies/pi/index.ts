import { getLogWindow } from '../session-window';
import type { Restoration } from '../../compact/restore';
import { isSafeCut } from '../../simulation/cuts';
import type { PreparedReplay, RealCompactionInfo } from '../../simulation/prepared';
import { createPiDetail, describePiDetail, type PiEventDetail, type TrackedFiles } from './detail';
import type { Entry, TokenCount } from '../../types';
import type { CompactionStrategy, ReplayView, StepOutcome, StrategyAction, StrategyRun } from '../types';
import { PI } from './prompt';
import { DEFAULTS, PI_DESCRIPTOR, type PiKnobs, getPiThreshold } from './descriptor';
import { getPiTurnWindows, describePiModelWindows } from './model-windows';

/** OpenClaw's floor on pi's reserveTokens (`DEFAULT_PI_COMPACTION_RESERVE_TOKENS_FLOOR`). */
const OPENCLAW_RESERVE_FLOOR: TokenCount = 20_000;
const OPENCLAW_SOURCE =
  'openclaw/openclaw@013c24e74a262690bbe83a479f03f50404a8ef13:src/agents/pi-settings.ts:3-26';

// The pi coding agent's compaction (docs/sources.md#pi; badlogic/pi-mono
// packages/coding-agent/docs/compaction.md; code: packages/coding-agent/src/core/compaction/
// {compaction.ts, utils.ts}, src/core/agent-session.ts `_checkCompaction`, src/core/messages.ts):
//   - pi checks when an agent run ends (the model answered without calling a tool) and before the
//     next prompt, never between the tool calls of a run: `contextTokens > contextWindow −
//     reserveTokens` (16,384), with contextTokens the last response's `totalTokens` (input, cache
//     and output). Mid-run, only a request the window refuses compacts (the overflow case: compact
//     and retry); the replay takes a run whose next request would not fit (this call's total and
//     what follows it) as that case;
//   - `findCutPoint` walks back from the newest message adding chars / 4 estimates until
//     `keepRecentTokens` (20,000) is reached, and cuts at the first valid cut point at or after
//     that message: a user, assistant, bash or custom message, never a tool result (a cut at an
//     assistant message splits its turn; pi then summarizes the turn's prefix apart). Only
//     messages after the previous compaction are candidates;
//   - the messages before the cut become a structured summary (an update of the previous one),
//     sent as a user message inside "The conversation history before this point was compacted
//     into the following summary: <summary>…</summary>", followed by the kept messages;
//   - file operations: the `read`, `write` and `edit` tool calls of the summarized messages, with
//     the previous compaction's `details`, give `readFiles` (read, never modified) and
//     `modifiedFiles`, appended to the summary as `<read-files>` and `<modified-files>` and stored
//     in the compaction's `details`: they accumulate across compactions.
// The replay's summary span starts at its live history, so the kept messages of the previous
// compaction are in it; pi neither keeps nor re-summarizes those (its next summary is an update
// of the previous one): the context after is the same, the summarizer's request differs.

/** messages.ts `COMPACTION_SUMMARY_PREFIX` (96 characters) and `COMPACTION_SUMMARY_SUFFIX` (11). */
const SUMMARY_WRAPPER_CHARS = 96 + 11;
/** compaction.ts `estimateTokens`: an image is 4,800 characters. */
const IMAGE_CHARS = 4_800;

/** compaction.ts `estimateTokens`: ⌈chars / 4⌉ of a message's text, thinking, tool calls and results. */
export function estimatePiMessageTokens(entry: Entry): TokenCount {
  let chars = 0;
  for (const b of entry.blocks) {
    if (b.kind === 'text' || b.kind === 'thinking' || b.kind === 'other') chars += b.chars;
    else if (b.kind === 'tool-use') chars += b.name.length + b.inputChars;
    else if (b.kind === 'tool-result') chars += b.chars + b.images * IMAGE_CHARS;
    else if (b.kind === 'image' || b.kind === 'document') chars += IMAGE_CHARS;
  }
  return Math.ceil(chars / 4);
}

const isToolResult = (e: Entry): boolean =>
  e.kind === 'user' && e.blocks.length > 0 && e.blocks.every((b) => b.kind === 'tool-result');

/** A turn start (`findTurnStartIndex`): a prompt, a bash execution or a custom message, not results. */
const isTurnStart = (e: Entry): boolean => e.kind === 'user' && !isToolResult(e);

/** Tool names of utils.ts `extractFileOpsFromMessage` (`read`, `write`, `edit`), and other agents' same tools. */
const READ_TOOL = /^(read|read_?file)$/i;
const WRITE_TOOL = /^(write|write_?to_?file|create_?file)$/i;
const EDIT_TOOL = /^(edit|multi_?edit|str_replace_editor|replace_in_file|apply_diff)$/i;

/** Collects the file operations of the tool calls in `entries` into `read` and `modified`. */
export function collectFileOps(entries: Iterable<Entry>, read: Set<string>, modified: Set<string>): void {
  for (const e of entries) {
    if (e.kind !== 'assistant') continue;
    for (const b of e.blocks) {
      if (b.kind !== 'tool-use' || b.filePath === undefined || b.filePath === '') continue;
      if (READ_TOOL.test(b.name)) read.add(b.filePath);
      else if (WRITE_TOOL.test(b.name) || EDIT_TOOL.test(b.name)) modified.add(b.filePath);
    }
  }
}

/** utils.ts `computeFileLists`: read-only files and modified files, each sorted. */
export function computeFileLists(read: ReadonlySet<string>, modified: ReadonlySet<string>): TrackedFiles {
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return {
    readFiles: [...read].filter((f) => !modified.has(f)).sort(cmp),
    modifiedFiles: [...modified].sort(cmp),
  };
}

/** Characters utils.ts `formatFileOperations` appends to a summary. */
function fileListChars(files: TrackedFiles): number {
  const section = (tag: string, list: string[]) =>
    list.length === 0 ? 0 : `<${tag}>\n${list.join('\n')}\n</${tag}>`.length;
  const parts = [
    section('read-files', files.readFiles),
    section('modified-files', files.modifiedFiles),
  ].filter((n) => n > 0);
  return parts.length === 0 ? 0 : 2 + parts.reduce((a, b) => a + b, 0) + 2 * (parts.length - 1);
}

const estimateCache = new WeakMap<PreparedReplay, Float64Array>();
/** pi's own estimate per context position (prefix sums, length n + 1). */
function getPiEstimatePrefix(prepared: PreparedReplay): Float64Array {
  let prefix = estimateCache.get(prepared);
  if (!prefix) {
    const { ctxEntry, session } = prepared;
    prefix = new Float64Array(ctxEntry.length + 1);
    // A logged compaction's artifacts count nothing: pi walks message entries only.
    for (let p = 0; p < ctxEntry.length; p++)
      prefix[p + 1] =
        prefix[p]! +
        (prepared.artifactOf[p] === 0 ? estimatePiMessageTokens(session.entries[ctxEntry[p]!]!) : 0);
    estimateCache.set(prepared, prefix);
  }
  return prefix;
}

/**
 * `findCutPoint` on the context positions [start, end): the first kept position, whether it
 * splits a turn, and where that turn starts (`turnStartIndex`: the nearest turn start before the
 * cut; none → not a split, badlogic/pi-mono@83378aad7e74a0e2bb8f37c007a9685fb4609d8a:packages/coding-agent/src/core/compaction/compaction.ts:430-436).
 */
function findPiCut(
  prepared: PreparedReplay,
  start: number,
  end: number,
  keepRecentTokens: TokenCount,
): { keepFromPos: number; splitTurn: boolean; turnStartPos: number } {
  const { session, ctxEntry, artifactOf } = prepared;
  const entryAt = (p: number) => session.entries[ctxEntry[p]!]!;
  // Valid cut points: not a tool result, and (a log's streamed response) not inside a response.
  // A logged compaction's summary (an artifact) is no message entry of pi's: never a cut point.
  const isCut = (p: number) =>
    artifactOf[p] === 0 && !isToolResult(entryAt(p)) && isSafeCut(prepared, p, end);
  const est = getPiEstimatePrefix(prepared);
  let cut = -1;
  for (let p = start; p < end; p++)
    if (isCut(p)) {
      cut = p;
      break;
    }
  if (cut < 0) return { keepFromPos: start, splitTurn: false, turnStartPos: -1 };
  for (let p = end - 1; p >= start; p--) {
    if (est[end]! - est[p]! < keepRecentTokens) continue;
    let c = p;
    while (c < end && !isCut(c)) c++;
    if (c < end) cut = c;
    break;
  }
  if (isTurnStart(entryAt(cut))) return { keepFromPos: cut, splitTurn: false, turnStartPos: -1 };
  let turnStartPos = -1;
  for (let p = cut - 1; p >= start; p--)
    if (artifactOf[p] === 0 && isTurnStart(entryAt(p))) {
      turnStartPos = p;
      break;
    }
  return { keepFromPos: cut, splitTurn: turnStartPos >= 0, turnStartPos };
}

const NO_RESTORATION: Restoration = { files: [], overBudget: [], totalTokens: 0 };

class PiRun implements StrategyRun {
  readonly allowsManualCompaction = true;
  readonly countsPending = false;
  readonly blockingTokens: TokenCount;
  private readonly threshold: TokenCount;
  /** The window of each replayed call's model (model-windows). */
  private readonly windows: Float64Array;
  /** Where the last compaction's boundary was (pi's cut candidates start after it), and the live start it left. */
  private lastBoundary = 0;
  private lastLiveFrom = 0;
  /** File operations accumulated across the chain (pi's `details`). */
  private read = new Set<string>();
  private modified = new Set<string>();

  constructor(
    private readonly knobs: PiKnobs,
    private readonly prepared: PreparedReplay,
  ) {
    this.windows = getPiTurnWindows(prepared, knobs);
    this.blockingTokens = Math.max(knobs.contextWindow, ...this.windows);
    this.threshold = getPiThreshold(knobs);
  }

  /** window − reserveTokens for the model of replayed call `k`. */
  private thresholdAt(k: number): TokenCount {
    return this.windows[k]! - this.knobs.reserveTokens;
  }

  /** pi records no trigger: a compaction over the threshold was automatic, one under it `/compact`. */
  inferLoggedTrigger(real: RealCompactionInfo): 'auto' | 'manual' | undefined {
    if (real.kind !== 'compact' || real.trigger !== 'unrecorded' || real.preTokens === undefined)
      return undefined;
    // The check that made it: after the call it follows, on that call's and the next one's models.
    const k = Math.max(0, real.afterCall);
    const next = k + 1 < this.windows.length ? k + 1 : k;
    const threshold = this.windows.length
      ? Math.min(this.thresholdAt(k), this.thresholdAt(next))
      : this.threshold;
    return real.preTokens > threshold ? 'auto' : 'manual';
  }

  step(view: ReplayView): StepOutcome | undefined {
    this.followHistory(view);
    if (view.manual)
      return this.compact(
        view,
        'manual',
        view.usageTokens,
        this.thresholdAt(view.callPos),
        'by hand (/compact)',
      );
    // `_checkCompaction` returns at once when compaction is off, the overflow case included.
    if (!this.knobs.enabled) return undefined;
    const total = view.usageTokens;
    const k = view.callPos;
    if (this.endsRun(view)) {
      // After the run, against the model it ran on (agent-session.ts:509), then before the next
      // prompt against the model then selected (:948-951): a switch between them checks both.
      const next = k + 1 < this.windows.length ? k + 1 : k;
      const threshold = Math.min(this.thresholdAt(k), this.thresholdAt(next));
      if (!(total > threshold)) return undefined;
      const switched = this.windows[next]! < this.windows[k]!;
      return this.compact(
        view,
        'auto',
        total,
        threshold,
        `the run ended at ${fmt(total)} > window − reserveTokens ${fmt(threshold)}${switched ? ` (the next prompt's model, ${fmt(this.windows[next]!)}-token window, checked before it is sent)` : ''}`,
      );
    }
    // Mid-run: only a request the window refuses compacts (and is retried); the next request runs
    // on this call's model (pi skips an overflow from another model's response).
    const next = total + view.pendingEstimate;
    const window = this.windows[k]!;
    if (!this.knobs.overflowRecovery || next <= window) return undefined;
    return this.compact(
      view,
      'auto',
      next,
      window,
      `mid-run, the next request (${fmt(next)}: this call's total and what follows it) overflows the ${fmt(window)} window: compact and retry`,
    );
  }

  /** A compaction the run did not make (the log's, adopted) restarts the chain at its boundary. */
  private followHistory(view: ReplayView): void {
    if (view.liveFromPos === this.lastLiveFrom) return;
    const { session, ctxEntry } = this.prepared;
    this.lastBoundary = view.liveFromPos;
    this.lastLiveFrom = view.liveFromPos;
    // Its `details` are not parsed: the files of every tool call before it stand in for them.
    this.read = new Set();
    this.modified = new Set();
    const before: Entry[] = [];
    for (let p = 0; p < view.liveFromPos; p++) before.push(session.entries[ctxEntry[p]!]!);
    collectFileOps(before, this.read, this.modified);
  }

  /** The call's response ends the agent run: it called no tool. */
  private endsRun(view: ReplayView): boolean {
    const { session, ctxEntry, callPos } = this.prepared;
    for (let p = callPos[view.callPos]!; p < view.boundaryPos; p++) {
      const e = session.entries[ctxEntry[p]!]!;
      if (e.kind === 'assistant' && e.blocks.some((b) => b.kind === 'tool-use')) return false;
    }
    return true;
  }

  private compact(
    view: ReplayView,
    trigger: 'auto' | 'manual',
    checkTokens: TokenCount,
    thresholdTokens: TokenCount,
    why: string,
  ): StepOutcome | undefined {
    const { prepared, knobs } = this;
    const start = Math.max(view.liveFromPos, this.lastBoundary);
    const { keepFromPos, splitTurn, turnStartPos } = findPiCut(
      prepared,
      start,
      view.boundaryPos,
      knobs.keepRecentTokens,
    );
    // A split turn is summarized by two requests in parallel, the history before the turn and the
    // turn's prefix, merged into one summary; with no history before the turn the first is the
    // literal "No prior history." and only the prefix is asked for
    // (badlogic/pi-mono@83378aad7e74a0e2bb8f37c007a9685fb4609d8a:packages/coding-agent/src/core/compaction/compaction.ts:727-745).
    const llmCalls = splitTurn && turnStartPos > start ? 2 : 1;
    // Less than keepRecentTokens in all: pi still compacts, keeping everything from the first cut
    // point after a summary of what precedes it (nothing, or only the earlier summary).
    const { session, ctxEntry } = prepared;
    const summarized: Entry[] = [];
    for (let p = start; p < keepFromPos; p++) summarized.push(session.entries[ctxEntry[p]!]!);
    collectFileOps(summarized, this.read, this.modified);
    const files = computeFileLists(this.read, this.modified);
    this.lastBoundary = view.boundaryPos;
    this.lastLiveFrom = keepFromPos;
    const keep = keepFromPos < view.boundaryPos;
    const action: StrategyAction = {
      kind: 'summarize',
      mechanism: keep ? 'partial' : 'full',
      trigger,
      checkTokens,
      thresholdTokens,
      restoration: NO_RESTORATION,
      keepFromPos: keep ? keepFromPos : undefined,
      keepDirection: keep ? 'up-to' : undefined,
      continuation: { format: 'v2.1.68', auto: trigger === 'auto' },
      summaryOverheadTokens: Math.ceil((SUMMARY_WRAPPER_CHARS + fileListChars(files)) / 4),
      summaryOverheadSource: `messages.ts COMPACTION_SUMMARY_PREFIX and _SUFFIX (107 characters) and the ${files.readFiles.length + files.modifiedFiles.length} read and modified files listed, at 4 characters per token`,
      requestVariant: keep ? 'partial' : 'full',
      promptPresetId: PI.id,
      customInstructions: view.manual?.customInstructions,
      detail: createPiDetail(files),
      llmCalls,
      note: `${why}; kept from the ${splitTurn ? `middle of a turn (its prefix summarized apart: ${llmCalls} summarization requests)` : 'start of a turn'} (keepRecentTokens ${fmt(knobs.keepRecentTokens)}); ${files.readFiles.length} read and ${files.modifiedFiles.length} modified files listed`,
    };
    return { actions: [action] };
  }
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

export const PI_STRATEGY: CompactionStrategy<PiKnobs, PiEventDetail> = {
  ...PI_DESCRIPTOR,
  getSessionKnobs: (info) => {
    const logWindow = getLogWindow(info, {
      fallback: DEFAULTS.contextWindow,
      fallbackNote: `The log names no window: pi's default here, ${fmt(DEFAULTS.contextWindow)}.`,
    });
    const contextWindow = logWindow.tokens;
    const notes: string[] = [logWindow.note];
    // One model: its window is the session's. Several: each turn's own, as pi checks.
    const knobs: PiKnobs = { ...DEFAULTS, contextWindow, windowPerModel: (info.callModels?.length ?? 0) > 1 };
    notes.push(...describePiModelWindows(info, contextWindow));
    const openClaw = info.host === 'OpenClaw';
    if (openClaw) knobs.reserveTokens = Math.max(knobs.reserveTokens, OPENCLAW_RESERVE_FLOOR);
    notes.push(
      openClaw
        ? `OpenClaw ran this session: it raises pi's reserveTokens to at least ${fmt(OPENCLAW_RESERVE_FLOOR)} (ensurePiCompactionReserveTokens, ${OPENCLAW_SOURCE}; its own setting, agents.defaults.compaction.reserveTokensFloor, is not in the session file), so reserveTokens ${fmt(knobs.reserveTokens)} and keepRecentTokens ${fmt(knobs.keepRecentTokens)}, compacting over ${fmt(getPiThreshold(knobs))}.`
        : `pi's settings are not in its session file: reserveTokens ${fmt(knobs.reserveTokens)} and keepRecentTokens ${fmt(knobs.keepRecentTokens)} (the defaults), compacting over ${fmt(getPiThreshold(knobs))}.`,
    );
    if (info.format === 'pi')
      notes.push(
        "pi records no trigger: the log's compactions with tokensBefore over the threshold are taken as automatic (expected to match), the others as /compact.",
      );
    else notes.push('The log is not a pi session, so its compactions are not expected to match.');
    return { knobs, notes };
  },
  createRun: (knobs, prepared) => new PiRun(knobs, prepared),
  getCallWindows: (knobs, prepared) => getPiTurnWindows(prepared, knobs),
  describeDetail: describePiDetail,
};
