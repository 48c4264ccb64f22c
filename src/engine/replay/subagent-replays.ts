import { parseSession } from '../parse/parse-session';
import type { ByteSource } from '../parse/source';
import { getStrategy } from '../strategies/registry';
import { getSessionInfo } from '../strategies/types';
import type { Session } from '../types';
import { computeReplay } from './compute-replay';
import { prepareReplay } from './prepare';
import type { SubagentReplay } from './types';

// Each subagent of a session folder replayed on its own line (claude-code-compaction-v2.1.68.txt
// "Five compaction mechanisms": "Sub-agent compact — before turn in sub-agent loop — sub-agent
// history"). A subagent's calls run in its own context: the parent's replay never counts them
// (its call axis is the main thread's, replay/prepare-call-axis.ts), and each subagent's file is
// parsed again alone, so that its own calls are its main thread, under the strategy's knobs for a
// sub-agent transcript (its version, its model's window; Claude Code's `agentRole: 'subagent'`).

/**
 * The replay of every subagent file of a session, under the strategy's own knobs for each (one
 * parse and one replay per file, in file order). `sources` are the session's, by file index.
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
    const { knobs, notes } = strategy.getSessionKnobs(getSessionInfo(prepared));
    const result = computeReplay(prepared, strategy.id, strategy.normalizeKnobs(overrides, knobs));
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
    });
  }
  return out;
}
