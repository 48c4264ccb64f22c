import { parseSession } from '../parse/parse-session';
import type { ByteSource } from '../parse/source';
import { getSessionSetup, getStrategy } from '../strategies/registry';
import { getSessionInfo } from '../strategies/types';
import type { Session } from '../types';
import { computeReplay } from './compute-replay';
import { prepareReplay } from './prepare';
import { getSubagentOverrides } from './subagent-knobs';
import type { SubagentReplay } from './types';

// Each subagent of a session folder replayed on its own line (docs/sources.md#cc-five-mechanisms: "Sub-agent compact — before turn in sub-agent loop — sub-agent
// history"). A subagent's calls run in its own context: the parent's replay never counts them
// (its call axis is the main thread's, replay/prepare-call-axis.ts), and each subagent's file is
// parsed again alone, so that its own calls are its main thread, under the strategy's knobs for a
// sub-agent transcript (its version, its model's window; Claude Code's `agentRole: 'subagent'`).

/**
 * Each file's entries in the session, by line: `lines[f]` ascending, `indices[f]` their entry
 * indices. A subagent's own parse numbers its entries from 0; its lines are the file's, so an entry
 * of it is the session's entry at the same line of the same file (or, when the session dropped that
 * record as a copy of another file's, the last one before it).
 */
function getEntriesByLine(session: Session): Map<number, { lines: number[]; indices: number[] }> {
  const byFile = new Map<number, { lines: number[]; indices: number[] }>();
  for (const e of session.entries) {
    let f = byFile.get(e.fileIndex);
    if (!f) {
      f = { lines: [], indices: [] };
      byFile.set(e.fileIndex, f);
    }
    f.lines.push(e.line);
    f.indices.push(e.index);
  }
  return byFile;
}

/** The session entry at `line` of a file, else the last one before it; −1 when none. */
function entryAtLine(f: { lines: number[]; indices: number[] } | undefined, line: number): number {
  if (!f) return -1;
  let lo = 0;
  let hi = f.lines.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (f.lines[mid]! <= line) lo = mid + 1;
    else hi = mid;
  }
  return lo === 0 ? -1 : f.indices[lo - 1]!;
}

/**
 * The replay of every subagent file of a session, under the strategy's own knobs for each with
 * the user's edits over them (`overrides`, less the main session's own: getSubagentOverrides); one
 * parse and one replay per file, in file order. `sources` are the session's, by file index.
 * Files with no API call are left out.
 */
export async function computeSubagentReplays(
  session: Session,
  sources: readonly ByteSource[],
  strategyId: string,
  overrides: Record<string, unknown> = {},
  signal?: AbortSignal,
): Promise<SubagentReplay[]> {
  const strategy = getStrategy(strategyId);
  const edits = getSubagentOverrides(overrides, strategy.knobSpecs);
  const byLine = getEntriesByLine(session);
  const out: SubagentReplay[] = [];
  for (const file of session.files) {
    if (file.role !== 'subagent') continue;
    const source = sources[file.index];
    if (!source) continue;
    signal?.throwIfAborted();
    const alone = await parseSession([source]);
    if (alone.apiCalls.length === 0) continue;
    const prepared = prepareReplay(alone);
    if (prepared.calls.length === 0) continue;
    const { knobs, notes } = getSessionSetup(strategy, getSessionInfo(prepared));
    const result = computeReplay(prepared, strategy.id, strategy.normalizeKnobs(edits, knobs));
    result.notes.push(...notes);
    let peak = 0;
    for (const r of prepared.recorded) peak = Math.max(peak, r);
    out.push({
      fileIndex: file.index,
      fileName: file.name,
      agentId: file.agentId,
      agentType: file.agentType,
      apiCalls: prepared.calls.length,
      peakRecordedTokens: peak,
      result,
      eventEntryIndices: result.events.map((e) => {
        const entry = alone.entries[e.afterEntryIndex];
        return entry ? entryAtLine(byLine.get(file.index), entry.line) : -1;
      }),
    });
  }
  return out;
}
