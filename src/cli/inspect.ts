import { parseArgs } from './cli-args';
import { formatSessionDump } from '../engine/inspect/dump';
import { computeInspectReport, type InspectReport } from '../engine/inspect/report';
import { parseSession } from '../engine/parse/parse-session';
import { groupDigits } from '../engine/query/format';
import { formatOrdinal, formatOrdinalTitle } from '../engine/query/numbering';
import { formatUsd } from '../engine/replay/compare-table';
import { openSessionFiles } from './session-files';

// `compactlab inspect`: where compaction fired, every call's context and the parse issues, as
// text, JSON (--json) or one line per entry (--dump). Loaded only when it runs (main.ts).

const fmt = (n: number | undefined): string => (n === undefined ? '—' : groupDigits(n));

/**
 * A compaction's sizes as its kind has them: a summary or a truncation, the context before and
 * after; a microcompaction, what it saved and cleared (a truncation clears no tool result: it
 * drops whole messages, Cline's deleted range).
 */
function describeCompaction(c: InspectReport['compactions'][number]): string {
  if (c.kind === 'microcompact')
    return `saved ${fmt(c.tokensSaved)} tokens, cleared ${c.clearedToolIds?.length ?? 0} tool results`;
  const sizes = `${fmt(c.preTokens)} → ${fmt(c.postTokens)} tokens`;
  if (c.kind !== 'truncate' || !c.deletedRange) return sizes;
  return `${sizes}, API history messages ${fmt(c.deletedRange[0])}–${fmt(c.deletedRange[1])} dropped`;
}

function renderInspect(report: InspectReport): string {
  const lines: string[] = [];
  const main = report.files.find((f) => f.role === 'main') ?? report.files[0];
  lines.push(`${main?.name ?? '(no file)'}  [${report.format}]`);
  const sub = report.subagentTranscript;
  if (sub)
    lines.push(
      `  sub-agent transcript${sub.agentType ? ` (${sub.agentType})` : ''}${sub.agentId ? ` · agent ${sub.agentId}` : ''}, opened without its parent session`,
    );
  if (report.title)
    lines.push(
      `  title ${JSON.stringify(report.title.text)} (the log's ${report.title.source}, line ${fmt(report.title.line)})`,
    );
  lines.push(
    `  agent ${report.agent} ${report.versions.join(', ') || '?'} · models ${report.models.join(', ') || '?'}`,
    `  cwd ${report.cwd ?? '?'} · branch ${report.gitBranch ?? '?'} · ${report.start ?? '?'} → ${report.end ?? '?'}`,
    `  entries ${fmt(report.entries)} · user turns ${fmt(report.userTurns)} · API calls ${fmt(report.apiCalls.length)} · peak context ${fmt(report.peakContextTokens)} tokens`,
  );
  const failed = report.failedRequests ?? [];
  if (failed.length) {
    const byReason = new Map<string, number>();
    for (const f of failed) byReason.set(f.reason, (byReason.get(f.reason) ?? 0) + 1);
    lines.push(
      `  ${fmt(failed.length)} failed ${failed.length === 1 ? 'request' : 'requests'}, not API calls (no answer, no usage): ${[...byReason].map(([r, n]) => `${r} ×${n}`).join(', ')}`,
    );
  }
  const stated = report.statedTotals;
  if (stated) {
    const u = stated.usage;
    const input = u.inputTokens + u.cacheCreationInputTokens + u.cacheReadInputTokens;
    const cost =
      stated.costUsd === undefined
        ? ''
        : ` · cost $${stated.costUsd.toFixed(2)} (every model, subagents too)`;
    lines.push(
      `  stated by the log over ${fmt(stated.runs)} ${stated.runs === 1 ? 'run' : 'runs'}${stated.errors ? ` (${fmt(stated.errors)} ended in an error)` : ''}: ${fmt(stated.turns)} turns · input ${fmt(input)} · output ${fmt(u.outputTokens)} tokens${cost}`,
    );
  }
  if (report.statedCost)
    lines.push(
      `  cost stated by the log: ${formatUsd(report.statedCost.usd)}, the agent's own figure summed over ${fmt(report.statedCost.records)} ${report.statedCost.records === 1 ? 'record' : 'records'}`,
    );
  if (report.foldedCopies > 0)
    lines.push(
      `  ${fmt(report.foldedCopies)} records folded: copies of records held once (a subagent log's copy of the main thread, or a record the log wrote again later)`,
    );
  const tools = Object.entries(report.toolCalls).sort((a, b) => b[1] - a[1]);
  if (tools.length) lines.push(`  tool calls ${tools.map(([name, n]) => `${name} ${n}`).join(', ')}`);
  lines.push(
    `  tool pairs: ${report.toolPairs.matched} matched, ${report.toolPairs.unmatchedUses} without result, ${report.toolPairs.unmatchedResults} results without call`,
  );
  lines.push('', `Compactions (${report.compactions.length}):`);
  for (const [i, c] of report.compactions.entries()) {
    const what = describeCompaction(c);
    lines.push(
      `  ${formatOrdinalTitle('compaction', i, report.compactions.length)}  line ${c.line}  ${c.kind} (${c.trigger})  ${what}  after ${c.apiCallBefore === undefined ? 'no API call' : formatOrdinal('api-call', c.apiCallBefore, report.apiCalls.length)}`,
    );
    const call = c.compactionCall;
    if (call) {
      const u = call.usage;
      lines.push(
        `    cost ${fmt(u.inputTokens + u.cacheCreationInputTokens + u.cacheReadInputTokens)} in · ${fmt(u.outputTokens)} out${call.partial ? ' (partial: streamed snapshot)' : ''}${call.calls.length > 1 ? ` · summary call of ${call.calls.length} in its log` : ''}`,
      );
    }
  }
  const { error, warning, info } = report.issueCounts;
  lines.push('', `Issues: ${error} errors, ${warning} warnings, ${info} notes`);
  for (const issue of report.issues.slice(0, 50)) {
    lines.push(`  ${issue.file}:${issue.line}  ${issue.severity} ${issue.code}  ${issue.message}`);
  }
  if (report.issues.length > 50) lines.push(`  … ${report.issues.length - 50} more (use --json)`);
  const unknown = Object.entries(report.unknownTypes);
  if (unknown.length)
    lines.push(`Unknown record types kept: ${unknown.map(([t, n]) => `${t} ×${n}`).join(', ')}`);
  return lines.join('\n');
}

/** `compactlab inspect`: `usage` is the help text, printed when no file is named. */
export async function inspectCommand(
  args: string[],
  out: (text: string) => void,
  usage: () => Promise<string>,
): Promise<number> {
  const { values, positionals } = parseArgs(
    {
      args,
      allowPositionals: true,
      options: { json: { type: 'boolean' }, dump: { type: 'boolean' } },
    },
    { exclusive: [['json', 'dump']] },
  );
  if (positionals.length === 0) {
    out(await usage());
    return 2;
  }
  const session = await parseSession(await openSessionFiles(positionals));
  const report = computeInspectReport(session);
  if (values.dump) out(formatSessionDump(session));
  else out(values.json ? JSON.stringify(report, null, 2) : renderInspect(report));
  // Exit 1 when nothing could be read as a transcript (an empty file included), so scripts can tell.
  return session.entries.length === 0 ? 1 : 0;
}
