import { describeExpectedReal } from './compare-words';
import { STRATEGIES } from '../strategies/registry';
import type { CompactionStrategy } from '../strategies/types';
import type { Session } from '../types';
import type { PreparedReplay } from './prepare';
import { formatTokenProvenance } from './provenance';
import type { CompactEvent, ReplayEvent, ReplayResult, TruncateEvent } from './types';

// A readable replay dump, one line per event, then one line per real compaction and how the
// replay compares: what golden tests store and `compactlab replay` prints.

const fmt = (n: number | undefined): string =>
  n === undefined ? '—' : Math.round(n).toLocaleString('en-US');

function knobSummary(result: ReplayResult, strategy: CompactionStrategy | undefined): string {
  const k = result.knobs;
  const parts = [`strategy ${result.strategyId}`];
  for (const key of strategy?.dumpKnobKeys ?? []) {
    const v = k[key];
    if (v === undefined) continue;
    // A fraction stays one: `--pct 50.5` read "autocompactPctOverride 51" over a threshold of 50.5%.
    const shown =
      typeof v !== 'number'
        ? String(v)
        : Number.isInteger(v)
          ? fmt(v)
          : v.toLocaleString('en-US', { maximumFractionDigits: 3 });
    parts.push(`${key} ${shown}`);
  }
  // Only a sub-agent's replay says so: the main session's dumps stay as they were.
  if (k.agentRole === 'subagent') parts.push('agentRole subagent');
  return parts.join(' · ');
}

/**
 * One line for one event (with what its strategy says of its `detail`), then how its before and
 * after were obtained.
 */
function formatReplayEvent(event: ReplayEvent, index: number, strategy?: CompactionStrategy): string {
  const detail = event.detail ? (strategy?.describeDetail?.(event.detail) ?? '') : '';
  return `${formatEventFigures(event, index)}${detail} | before: ${formatTokenProvenance(event.preSource)} | after: ${formatTokenProvenance(event.postSource)}`;
}

function formatEventFigures(event: ReplayEvent, index: number): string {
  // Counted from 1 as everywhere people read them (query/numbering.ts); JSON keeps 0-based indices.
  const head = `event ${index + 1} after API call ${event.afterApiCall + 1} (main call ${event.afterCallPos + 1})`;
  switch (event.kind) {
    case 'microcompact':
      return `${head} microcompact: check ${fmt(event.checkTokens)} ≥ ${fmt(event.thresholdTokens)}, cleared ${event.clearedToolIds?.length ?? 0} (est. ${fmt(event.estimatedSavedTokens)}, −${fmt(event.savedTokens)}) → ${fmt(event.postTokens)}`;
    case 'compact': {
      const restored = event.restored;
      const what = [
        `summary ${fmt(event.summaryTokens)} (${event.summarySource ?? '?'})`,
        restored
          ? `restored ${restored.files.length} files${restored.todo ? ' +todos' : ''}${restored.plan ? ' +plan' : ''}${restored.skills ? ` +${restored.skills.length} skills` : ''}${restored.planModeTokens ? ' +plan mode' : ''}${restored.sessionStartTokens ? ' +SessionStart' : ''} ${fmt(restored.totalTokens)}`
          : undefined,
        event.keptTokens !== undefined ? `kept ${fmt(event.keptTokens)}` : undefined,
        (event.llmCalls ?? 1) > 1 ? `${event.llmCalls} LLM calls` : undefined,
      ].filter(Boolean);
      const real =
        event.realCompactionIndex === undefined ? '' : ` [log compaction ${event.realCompactionIndex + 1}]`;
      const note = event.postTokens >= event.thresholdTokens ? ' [still over threshold]' : '';
      return `${head} compact ${event.trigger} ${event.mechanism}: check ${fmt(event.checkTokens)} ≥ ${fmt(event.thresholdTokens)}, span ${fmt(event.spanTokens)} → ${fmt(event.postTokens)}; ${what.join(', ')}${real}${note}${formatHidden(event)}`;
    }
    case 'truncate': {
      const real = event.note?.includes('still') ? ' [still over threshold]' : '';
      return `${head} truncate: check ${fmt(event.checkTokens)} ≥ ${fmt(event.thresholdTokens)}, dropped entries ${event.droppedFromEntryIndex}–${event.droppedToEntryIndex} (−${fmt(event.droppedTokens)}, notice ${fmt(event.noticeTokens)}) → ${fmt(event.postTokens)}${real}${formatHidden(event)}`;
    }
    case 'replace':
      return `${head} replace: check ${fmt(event.checkTokens)} ≥ ${fmt(event.thresholdTokens)}, ${event.clearedToolIds?.length ?? 0} results to a notice (−${fmt(event.savedTokens)}) → ${fmt(event.postTokens)}`;
    case 'reset':
      return `${head} reset from the log's manual compaction ${(event.realCompactionIndex ?? -1) + 1}: ${fmt(event.preTokens)} → ${fmt(event.postTokens)}`;
    case 'blocked':
      return `${head} blocked: ${fmt(event.preTokens)} ≥ ${fmt(event.thresholdTokens)}`;
    case 'compact-failed':
      if (event.failure === 'thrashing')
        return `${head} compact ${event.trigger} refused (thrashing): the third in a row within 3 calls of the one before, check ${fmt(event.checkTokens)} ≥ ${fmt(event.thresholdTokens)}; ${event.attempts === 1 ? 'once' : `${event.attempts} calls in a row`}, history unchanged`;
      return `${head} compact ${event.trigger} ${event.mechanism} failed (${event.failure}): request ${fmt(event.requestTokens)} > ${fmt(event.limitTokens)}, check ${fmt(event.checkTokens)} ≥ ${fmt(event.thresholdTokens)}; ${event.attempts === 1 ? 'once' : `${event.attempts} calls in a row`}, history unchanged`;
  }
}

/** Tagged, not deleted (Roo): what a rewind restores. */
function formatHidden(event: TruncateEvent | CompactEvent): string {
  const h = event.hidden;
  return h
    ? `; hidden (${h.tag}) entries ${h.fromEntryIndex}–${h.toEntryIndex}: ${h.entries} entries, ${fmt(h.tokens)} a rewind restores`
    : '';
}

/** The whole dump (stable text: no timings). */
export function formatReplayDump(prepared: PreparedReplay | undefined, result: ReplayResult): string {
  const lines: string[] = [];
  const strategy = STRATEGIES.find((s) => s.id === result.strategyId);
  lines.push(knobSummary(result, strategy));
  lines.push(
    `thresholds ${result.thresholds
      .filter((t) => !t.off)
      .map((t) => `${t.id} ${fmt(t.tokens)}`)
      .join(' · ')} · base ${fmt(result.baseTokens)} · calls ${result.callIndex.length}`,
  );
  const forked = describeFork(prepared, result);
  if (forked) lines.push(forked);
  result.events.forEach((e, i) => {
    lines.push(formatReplayEvent(e, i, strategy));
  });
  const c = result.comparison;
  lines.push(
    `log: ${c.reproduced}/${c.expected} ${describeExpectedReal(c).replace(/^real /, '')} reproduced (±${c.toleranceCalls}) · matched ${c.counts.matched} · early ${c.counts.early} · late ${c.counts.late} · missing ${c.counts.missing} · manual ${c.counts.manual} · extra ${c.counts.extra}${c.leftOut.length > 0 ? ` · left out ${c.leftOut.length} (on a branch not replayed)` : ''}`,
  );
  const session = prepared?.session;
  // A log compaction and what replaced it in the replay, in log order; left-out ones among them.
  const rows: { index: number; text: string }[] = [];
  for (const o of c.outcomes) {
    // "API call N" numbers the log's calls as inspect and the page do; "main call N" the
    // replayed line's (they differ after an abandoned branch's calls).
    const where =
      o.afterCallPos >= 0
        ? `after ${o.afterApiCall === undefined ? '' : `API call ${o.afterApiCall + 1} `}(main call ${o.afterCallPos + 1})`
        : 'before the first call';
    const delta =
      o.delta === undefined
        ? ''
        : ` (${o.delta > 0 ? '+' : ''}${o.delta}, event ${(o.eventIndex ?? -1) + 1})`;
    rows.push({
      index: o.compactionIndex,
      text: `  log compaction ${o.compactionIndex + 1} ${o.kind} ${o.trigger} ${where} pre ${fmt(o.preTokens)}: ${o.status}${delta}${o.note ? ` — ${o.note}` : ''}${describeFileOrder(session, o.compactionIndex, o.afterApiCall)}`,
    });
  }
  for (const l of c.leftOut) {
    const branch = l.branchId >= 0 ? `branch ${l.branchId}` : 'a branch';
    const why = l.continued
      ? `on ${branch}, not the one replayed`
      : `on ${branch}, which the log did not go on with${l.continuedAtLine !== undefined && l.forkLine !== undefined ? ` (at line ${l.continuedAtLine} it went on from line ${l.forkLine}, before this compaction)` : ''}`;
    rows.push({
      index: l.compactionIndex,
      text: `  log compaction ${l.compactionIndex + 1} ${l.kind} ${l.trigger} at line ${l.line}${l.afterApiCall === undefined ? '' : ` after API call ${l.afterApiCall + 1}`} pre ${fmt(l.preTokens)}: left out — ${why}; the replay follows the main line`,
    });
  }
  for (const row of rows.sort((a, b) => a.index - b.index)) lines.push(row.text);
  return lines.join('\n');
}

/**
 * On a forked log (parse/branches.ts), which calls the replay walks: the main line's, numbered
 * "main call N", beside the log's own "API call N" (inspect's and the page's numbering).
 */
function describeFork(prepared: PreparedReplay | undefined, result: ReplayResult): string | undefined {
  const session = prepared?.session;
  const branches = session?.branches;
  if (!session || !branches) return undefined;
  const abandoned = branches.forks.reduce(
    (n, f) =>
      n + f.childApiCalls.filter((_, k) => f.branchIds[k] !== f.continuedBranchId).reduce((a, b) => a + b, 0),
    0,
  );
  return `branches: ${branches.forks.length} fork${branches.forks.length === 1 ? '' : 's'} (${branches.branches.length} branches, ${abandoned} API call${abandoned === 1 ? '' : 's'} on the ones not gone on with); the replay follows the main line: ${result.callIndex.length} of the log's ${session.apiCalls.length} API calls, "main call N" counting them and "API call N" numbering all the log's, as inspect does`;
}

/**
 * Where the log wrote a compaction, when that is after another branch's call: inspect's "after API
 * call N" is the last call written before the boundary, which an abandoned branch may hold
 * (c76ab3a5: compaction 3 written after API call 57, of the branch abandoned at line 256; on its
 * own line it follows API call 45).
 */
function describeFileOrder(
  session: Session | undefined,
  compactionIndex: number,
  afterApiCall?: number,
): string {
  const written = session?.compactions[compactionIndex]?.apiCallBefore;
  if (!session || written === undefined || afterApiCall === undefined || written === afterApiCall) return '';
  const call = session.apiCalls[written];
  const branch = call && session.branches?.branchOfEntry[call.firstEntryIndex];
  return ` — in the file it comes after API call ${written + 1} (inspect's "after"), of ${branch !== undefined && branch >= 0 ? `branch ${branch}` : 'another branch'}`;
}
