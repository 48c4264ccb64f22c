import { isSafeCut } from '../../../src/engine/simulation/cuts';
import { collectFileOps, computeFileLists, estimatePiMessageTokens } from '../../../src/engine/strategies/pi';
import { getPiThreshold, type PiKnobs } from '../../../src/engine/strategies/pi/descriptor';
import type { Entry, TokenCount } from '../../../src/engine/types';
import { PLACEHOLDER_TOKENS, type PreparedReplay } from '../../../src/engine/replay/prepare';
import { createSummaryModel, type SummaryModelId } from '../../../src/engine/replay/summary-size';
import { limitedSummarySize } from '../../../src/engine/strategies/summary-size';
import { requestAfterLastCall } from '../reference-requests';

// A deliberately naive replay of pi's compaction (strategies/pi/index.ts through compute-replay.ts), the
// "summary with a kept range after it" family, to check the fast one on the same transcripts. The
// simulated history is an explicit list — a summary item (its tokens) and the positions held
// verbatim — re-priced in full at every call (quadratic). pi's rules are re-derived from
// research/ANCHORS.md §2.1 "pi coding agent" (pi-mono compaction.ts `findCutPoint`,
// `findValidCutPoints`, agent-session.ts `_checkCompaction`, utils.ts `formatFileOperations`):
// the run-end trigger `contextTokens > window − reserveTokens`, the mid-run overflow case, the
// cut search walking back from the newest message to keepRecentTokens. Shared with the fast path:
// the prepared attribution, the threshold formula, pi's per-message chars / 4 estimate, the
// file-operation collection, the safe-cut rule (simulation/cuts.ts) and the summary size model.
// No manual requests.

export interface NaivePiEvent {
  kind: 'compact' | 'reset';
  afterCallPos: number;
  postTokens: TokenCount;
  summaryTokens?: TokenCount;
  /** Compact: the first position kept verbatim after the summary (undefined: nothing kept). */
  keepFromPos?: number;
}

export interface NaivePiResult {
  simulatedTokens: number[];
  checkTokens: number[];
  events: NaivePiEvent[];
}

/** messages.ts: "The conversation history before this point was compacted into the following summary:\n\n<summary>\n" and "\n</summary>". */
const WRAPPER_PREFIX =
  'The conversation history before this point was compacted into the following summary:\n\n<summary>\n';
const WRAPPER_SUFFIX = '\n</summary>';

/** utils.ts `formatFileOperations`: the file lists appended to the summary text, built as text. */
function fileOperationsText(readFiles: string[], modifiedFiles: string[]): string {
  const sections: string[] = [];
  if (readFiles.length > 0) sections.push(`<read-files>\n${readFiles.join('\n')}\n</read-files>`);
  if (modifiedFiles.length > 0)
    sections.push(`<modified-files>\n${modifiedFiles.join('\n')}\n</modified-files>`);
  return sections.length === 0 ? '' : `\n\n${sections.join('\n\n')}`;
}

/** Runs the naive pi replay; `knobs` must be complete (normalized). */
export function computeNaivePiReplay(
  prepared: PreparedReplay,
  knobs: PiKnobs,
  summaryModel: SummaryModelId = 'recorded',
  toleranceCalls = 1,
): NaivePiResult {
  const { session, calls, recorded, output, pendingEstimate, callPos, ctxEntry, tokens, artifactOf } =
    prepared;
  const { clearables, real, baseTokens } = prepared;
  // pi's summary size: Claude Code's ratio under generateSummary's ⌊0.8 × reserveTokens⌋.
  const model = createSummaryModel(
    summaryModel,
    limitedSummarySize(Math.floor(0.8 * knobs.reserveTokens), 'pi'),
  );
  const n = calls.length;
  // The step after the last call: only when the log holds a request after it.
  const stepsAfterLast = requestAfterLastCall(prepared);
  const threshold = getPiThreshold(knobs);
  const entryAt = (p: number): Entry => session.entries[ctxEntry[p]!]!;
  // pi records no trigger: over the threshold a logged compaction was automatic, under it /compact.
  const loggedTrigger = real.map((r) =>
    r.kind === 'compact' && r.trigger === 'unrecorded' && r.preTokens !== undefined
      ? r.preTokens > threshold
        ? 'auto'
        : 'manual'
      : r.trigger,
  );

  // The simulated history: a summary (or the adopted log summary) and the positions held verbatim.
  let summaryItem = 0;
  let held: number[] = [];
  /** Positions below this were seen (held, summarized or not in this history). */
  let grownTo = 0;
  /** The first position of the live history (pi's kept range, or the adopted log boundary). */
  let simFrom = 0;
  let adopted = -1;
  /** The log's drift carried from a log compaction this history did not make or take (driftTokens). */
  let carriedDrift = 0;
  // pi's chain: cut candidates start after the last compaction; file operations accumulate.
  let lastBoundary = 0;
  let lastLiveFrom = 0;
  let read = new Set<string>();
  let modified = new Set<string>();
  // The log's history: its positions from its last compaction, less what its microcompacts cleared.
  let logFrom = 0;
  // What the log's context holds beyond its records since its last compaction (unloggedTokens).
  let logUnlogged = 0;
  const logCleared = new Set<number>();
  const events: NaivePiEvent[] = [];
  const simulatedTokens: number[] = [];
  const checkTokens: number[] = [];

  const holds = (p: number) => artifactOf[p] === 0 || artifactOf[p] === adopted + 1;
  const grow = (to: number) => {
    for (let p = grownTo; p < to; p++) if (holds(p)) held.push(p);
    grownTo = Math.max(grownTo, to);
  };
  // An adopted log compaction brings what it holds unlogged.
  const simSum = () =>
    carriedDrift +
    baseTokens +
    summaryItem +
    (adopted >= 0 ? real[adopted]!.unloggedTokens : 0) +
    held.reduce((a, p) => a + tokens[p]!, 0);
  const logSum = (to: number) => {
    let sum = baseTokens + logUnlogged;
    for (let p = logFrom; p < to; p++) sum += tokens[p]!;
    for (const i of logCleared) sum -= Math.max(0, clearables.tokens[i]! - PLACEHOLDER_TOKENS);
    return sum;
  };
  const adopt = (r: number) => {
    carriedDrift = 0;
    // The log's summary and re-attachments are positions (its artifacts) the history then holds.
    adopted = r;
    summaryItem = 0;
    held = [];
    grownTo = real[r]!.boundaryPos;
    simFrom = real[r]!.boundaryPos;
  };
  const realAutoAt = (k: number) =>
    real.findIndex((r, i) => r.kind === 'compact' && loggedTrigger[i] === 'auto' && r.afterCall === k);

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
    checkTokens.push(S + output[k]!);
    const boundary = callPos[k + 1]!;

    if ((k + 1 < n || stepsAfterLast) && knobs.enabled) {
      grow(boundary);
      // A log compaction adopted since pi's last one: the chain restarts at its boundary, and the
      // files of every tool call before it stand in for its `details`.
      const from = simFrom;
      if (from !== lastLiveFrom) {
        lastBoundary = from;
        lastLiveFrom = from;
        read = new Set();
        modified = new Set();
        const before: Entry[] = [];
        for (let p = 0; p < from; p++) before.push(entryAt(p));
        collectFileOps(before, read, modified);
      }
      // The run ends when the response calls no tool.
      let callsTool = false;
      for (let p = callPos[k]!; p < boundary; p++) {
        const e = entryAt(p);
        if (e.kind === 'assistant' && e.blocks.some((b) => b.kind === 'tool-use')) callsTool = true;
      }
      const total = S + output[k]!;
      const fires = callsTool
        ? knobs.overflowRecovery && total + pendingEstimate[k]! > knobs.contextWindow
        : total > threshold;
      if (fires) {
        // findValidCutPoints over the messages after the last compaction (in this history); a
        // compaction's summary is no message entry of pi's: neither a cut point nor counted.
        const start = Math.max(from, lastBoundary);
        const candidates = held.filter((p) => p >= start && p < boundary && artifactOf[p] === 0);
        const isToolResult = (e: Entry) =>
          e.kind === 'user' && e.blocks.length > 0 && e.blocks.every((b) => b.kind === 'tool-result');
        const cutPoints = candidates.filter(
          (p) => !isToolResult(entryAt(p)) && isSafeCut(prepared, p, boundary),
        );
        let cut = start;
        if (cutPoints.length > 0) {
          cut = cutPoints[0]!;
          // findCutPoint: walk back adding estimates until keepRecentTokens, then the first cut
          // point at or after that message.
          let accumulated = 0;
          for (let i = candidates.length - 1; i >= 0; i--) {
            accumulated += estimatePiMessageTokens(entryAt(candidates[i]!));
            if (accumulated < knobs.keepRecentTokens) continue;
            const at = cutPoints.find((c) => c >= candidates[i]!);
            if (at !== undefined) cut = at;
            break;
          }
        }
        const summarized = held.filter((p) => p >= start && p < cut).map(entryAt);
        collectFileOps(summarized, read, modified);
        const files = computeFileLists(read, modified);
        lastBoundary = boundary;
        lastLiveFrom = cut;
        const keep = cut < boundary;
        // The summary replaces everything before the cut: the previous summary and kept range too.
        const spanTokens =
          summaryItem +
          (adopted >= 0 ? real[adopted]!.unloggedTokens : 0) +
          held.filter((p) => p < cut).reduce((a, p) => a + tokens[p]!, 0);
        const exact = realAutoAt(k);
        if (exact >= 0 && model.id === 'recorded') {
          adopt(exact);
          lastLiveFrom = cut;
          events.push({
            kind: 'compact',
            afterCallPos: k,
            postTokens: baseTokens + real[exact]!.artifactTokens,
            summaryTokens: real[exact]!.summaryTokens,
            keepFromPos: undefined,
          });
        } else {
          let near = -1;
          for (let d = 1; d <= toleranceCalls && near < 0; d++) {
            near = realAutoAt(k + d);
            if (near < 0) near = realAutoAt(k - d);
          }
          const nearInfo = near >= 0 && model.id === 'recorded' && !keep ? real[near] : undefined;
          let summary: TokenCount;
          let rest: TokenCount;
          if (nearInfo && nearInfo.summaryTokens !== undefined) {
            summary = nearInfo.summaryTokens;
            rest = Math.max(0, nearInfo.artifactTokens - nearInfo.summaryTokens);
          } else {
            summary = model.getSummaryTokens({ spanTokens, mechanism: keep ? 'partial' : 'full' }).tokens;
            const text =
              WRAPPER_PREFIX + WRAPPER_SUFFIX + fileOperationsText(files.readFiles, files.modifiedFiles);
            rest = Math.ceil(text.length / 4);
          }
          summaryItem = summary + rest;
          held = held.filter((p) => p >= cut);
          simFrom = keep ? cut : boundary;
          adopted = -1;
          carriedDrift = 0;
          events.push({
            kind: 'compact',
            afterCallPos: k,
            postTokens: simSum(),
            summaryTokens: summary,
            keepFromPos: keep ? cut : undefined,
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
        if (loggedTrigger[r] === 'auto' && adopted !== r) carriedDrift += info.driftTokens;
        if (loggedTrigger[r] !== 'auto' && adopted !== r) {
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
  return { simulatedTokens, checkTokens, events };
}
