import type { ByteSource } from '../engine/parse/source';
import { formatReplayDump } from '../engine/replay/dump';
import type { PreparedReplay } from '../engine/replay/prepare';
import { computeSubagentReplays } from '../engine/replay/subagent-replays';
import type { SubagentReplay } from '../engine/replay/types';

// `compactlab replay <session.jsonl> <subagent files…>`: after the session's own replay, one per
// subagent, under the sub-agent rules (engine/replay/subagent-replays.ts). Kept apart from
// replay.ts, whose flags another change extends.

/** The subagents' replays of a session given with its subagent files (none when there are none). */
export async function getSubagentReplays(
  prepared: PreparedReplay,
  sources: readonly ByteSource[],
  strategyId: string,
  overrides: Record<string, unknown>,
): Promise<SubagentReplay[]> {
  if (!prepared.session.files.some((f) => f.role === 'subagent')) return [];
  // Overrides given for the session (its window, its thresholds) are the user's for every loop.
  return computeSubagentReplays(prepared.session, sources, strategyId, overrides);
}

/** A section per subagent: a heading line, then its dump. */
export function formatSubagentReplays(subagents: readonly SubagentReplay[], withNotes = true): string[] {
  const lines: string[] = [];
  for (const s of subagents) {
    const compactions = s.result.events.filter((e) => e.kind === 'compact').length;
    lines.push(
      `== subagent ${s.agentId ?? s.fileName}${s.agentType ? ` (${s.agentType})` : ''}: ${s.apiCalls} calls, peak ${Math.round(s.peakRecordedTokens).toLocaleString('en-US')}, ${compactions} compaction${compactions === 1 ? '' : 's'} replayed · its calls are not the session's context`,
    );
    lines.push(formatReplayDump(undefined, s.result));
    if (withNotes) lines.push(...s.result.notes.map((n) => `note: ${n}`));
  }
  return lines;
}
