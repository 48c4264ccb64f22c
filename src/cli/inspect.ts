import { basename, dirname, isAbsolute, relative } from 'node:path';
import { parseArgs } from './cli-args';
import { formatSessionDump } from '../engine/inspect/dump';
import { computeInspectReport, type InspectReport } from '../engine/inspect/report';
import { parseSession } from '../engine/parse/parse-session';
import { describeModels, describePromptLog } from '../engine/parse/meta-words';
import { groupDigits } from '../engine/query/format';
import { formatOrdinal, formatOrdinalTitle, formatPlural } from '../engine/query/numbering';
import { formatUsd } from '../engine/replay/compare-table';
import { describeNothingRead, openSessionFiles } from './session-files';
import { escapeTerminalText } from './terminal-text';

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

/** What the other logs of a session are, by the roles the app's header names them with (session-header.tsx). */
const SIDECHAIN_KINDS: Record<string, [string, string]> = {
  main: ['inline in the main file', 'inline in the main file'],
  subagent: ['subagent log', 'subagent logs'],
  'compaction-call': ['compaction-call log', 'compaction-call logs'],
  'side-question': ['side-question log', 'side-question logs'],
};

/**
 * The session's sidechains in one line: how many, of which kind, their API calls. The figures
 * before it (API calls, peak context, user turns) are the main thread's only (session-builder.ts),
 * so without this line a 1.0.x log's inline sidechains (`isSidechain` records in its own file,
 * docs/sources.md#fmt-subagents) or a 2.x session's subagent logs went unsaid in the text.
 */
function describeSidechains(report: InspectReport): string | undefined {
  const list = report.sidechains;
  if (list.length === 0) return undefined;
  const byKind = new Map<string, number>();
  for (const s of list) byKind.set(s.role, (byKind.get(s.role) ?? 0) + 1);
  const kinds = [...byKind].map(([role, n]) => {
    const [one, many] = SIDECHAIN_KINDS[role] ?? [role, role];
    return `${fmt(n)} ${n === 1 ? one : many}`;
  });
  const calls = list.reduce((n, s) => n + s.apiCalls, 0);
  const peak = Math.max(0, ...list.map((s) => s.peakContextTokens));
  return `  sidechains: ${kinds.join(', ')}; ${fmt(calls)} API ${calls === 1 ? 'call' : 'calls'}, peak context ${fmt(peak)} tokens, not in the main thread's figures above (each one in --json: sidechains)`;
}

/** The tool pairs, each figure split between the main thread and the sidechains when there are any. */
function describeToolPairs(report: InspectReport): string {
  const all = report.toolPairs;
  const by = report.toolPairsByThread;
  const split = (key: keyof InspectReport['toolPairs']) =>
    by && all[key] > 0 ? ` (${fmt(by.main[key])} main thread, ${fmt(by.sidechains[key])} in sidechains)` : '';
  return `${fmt(all.matched)} matched${split('matched')}, ${fmt(all.unmatchedUses)} without result${split('unmatchedUses')}, ${fmt(all.unmatchedResults)} results without call${split('unmatchedResults')}`;
}

/**
 * The files read, when more than the one the header names: a transcript named alone brings its
 * session's files (session-files.ts), and what was read should be said, not left to `--json`.
 * Named from the main file's folder, where they are (`<id>/subagents/agent-….jsonl`).
 */
/** Files listed one a line; past this, the first LISTED_FILES and a count per role (ours). */
const MAX_LISTED_FILES = 20;
const LISTED_FILES = 10;

function describeFiles(report: InspectReport): string[] {
  if (report.files.length < 2 || report.mainFile === undefined) return [];
  const folder = dirname(report.mainFile);
  const width = Math.max(...report.files.map((f) => f.role.length));
  // A session kept as one small file per message and part (OpenCode's storage, or its database
  // read as such) listed 154 lines of them for one session of 35 messages.
  const shown = report.files.length > MAX_LISTED_FILES ? report.files.slice(0, LISTED_FILES) : report.files;
  const rest = new Map<string, number>();
  for (const f of report.files.slice(shown.length)) rest.set(f.role, (rest.get(f.role) ?? 0) + 1);
  return [
    '',
    `Files read (${fmt(report.files.length)}):`,
    ...shown.map((f) => {
      const near = relative(folder, f.name);
      const name = near.startsWith('..') || isAbsolute(near) ? f.name : near;
      const lines =
        f.role === 'subagent-meta' || f.role === 'session-memory'
          ? ''
          : `  ${fmt(f.lines)} ${f.lines === 1 ? 'line' : 'lines'}`;
      return `  ${f.role.padEnd(width)}  ${name}${lines}`;
    }),
    ...(rest.size
      ? [
          `  … and ${fmt(report.files.length - shown.length)} more (${[...rest].map(([role, n]) => `${fmt(n)} ${role}`).join(', ')}; --json lists every file)`,
        ]
      : []),
  ];
}

function renderInspect(report: InspectReport): string {
  const lines: string[] = [];
  // The file whose session is shown (an empty file named first is only listed under "Files read").
  const main = report.files.find((f) => f.name === report.mainFile);
  lines.push(`${main?.name ?? '(no file)'}  [${report.format}]`);
  const sub = report.subagentTranscript;
  if (sub)
    lines.push(
      `  sub-agent transcript${sub.agentType ? ` (${sub.agentType})` : ''}${sub.agentId ? ` · agent ${sub.agentId}` : ''}, opened without its parent session`,
    );
  if (report.promptLog) lines.push(`  ${describePromptLog(report.promptLog)}`);
  if (report.title)
    lines.push(
      `  title ${JSON.stringify(report.title.text)} (the log's ${report.title.source}, line ${fmt(report.title.line)})`,
    );
  lines.push(
    `  agent ${report.agent} ${report.versions.join(', ') || '?'} · models ${describeModels(report) ?? '?'}`,
    `  cwd ${report.cwd ?? '?'} · branch ${report.gitBranch ?? '?'} · ${report.start ?? '?'} → ${report.end ?? '?'}`,
    `  entries ${fmt(report.entries)}${report.sidechains.length > 0 ? ' (all threads)' : ''} · user turns ${fmt(report.userTurns)} · API calls ${fmt(report.apiCalls.length)}${report.sidechains.length > 0 ? ' in the main thread' : ''} · peak context ${fmt(report.peakContextTokens)} tokens`,
  );
  const sidechains = describeSidechains(report);
  if (sidechains) lines.push(sidechains);
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
  if (tools.length)
    lines.push(
      `  tool calls${report.toolPairsByThread ? ' (all threads)' : ''} ${tools.map(([name, n]) => `${name} ${n}`).join(', ')}`,
    );
  lines.push(`  tool pairs: ${describeToolPairs(report)}`);
  lines.push(...describeFiles(report));
  lines.push('', `Compactions (${report.compactions.length}):`);
  for (const [i, c] of report.compactions.entries()) {
    const what = describeCompaction(c);
    // A subagent's compaction: its line is in its own log, named; the call numbers are the main
    // thread's, which its log is not on.
    const own = c.file === main?.name;
    const where = own ? `line ${c.line}` : `${basename(c.file)} line ${c.line}`;
    const after = !own
      ? 'in that log (not on the main thread)'
      : `after ${c.apiCallBefore === undefined ? 'no API call' : formatOrdinal('api-call', c.apiCallBefore, report.apiCalls.length)}`;
    lines.push(
      `  ${formatOrdinalTitle('compaction', i, report.compactions.length)}  ${where}  ${c.kind} (${c.trigger})  ${what}  ${after}`,
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
  lines.push(
    '',
    `Issues: ${formatPlural(error, 'error')}, ${formatPlural(warning, 'warning')}, ${formatPlural(info, 'note')}`,
  );
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
  // Exit 1 when nothing could be read as a transcript (an empty file included), so scripts can
  // tell, with the reason every command gives on stderr.
  if (session.entries.length > 0) return 0;
  process.stderr.write(`compactlab inspect: ${escapeTerminalText(describeNothingRead(session))}\n`);
  return 1;
}
