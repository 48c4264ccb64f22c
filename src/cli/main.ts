import { parseArgs } from 'node:util';
import { formatSessionDump } from '../engine/inspect/dump';
import { computeInspectReport, type InspectReport } from '../engine/inspect/report';
import { parseSession } from '../engine/parse/parse-session';
import { STATS_USAGE, STATUSLINE_USAGE, WATCH_USAGE } from './command-usage';
import { escapeJsonText, escapeTerminalText } from './terminal-text';
import { groupDigits } from '../engine/query/format';
import { formatOrdinal, formatOrdinalTitle } from '../engine/query/numbering';
import { openSessionFiles } from './session-files';

/**
 * The help text. The other commands' parts come from their own modules (replay's and summarize's
 * are built from the strategy and prompt registries), so they load only when the text is shown:
 * `inspect` loads none of them.
 */
const usage = async (): Promise<string> => {
  const [
    { REPLAY_USAGE },
    { SUMMARIZE_USAGE },
    { BASH_SUMMARIES_USAGE },
    { REPORT_USAGE },
    { EXPORT_USAGE },
    { EROSION_USAGE },
    { FIDELITY_USAGE },
  ] = await Promise.all([
    import('./replay'),
    import('./summarize'),
    import('./bash-summaries'),
    import('./report'),
    import('./export'),
    import('./erosion'),
    import('./fidelity'),
  ]);
  return `compactlab — see and replay how AI coding agents compact their context

Usage:
  compactlab inspect <session.jsonl> [subagent files…] [--json | --dump]
      Parse a transcript (plus the subagent / compaction-call files that belong to it) and
      print where compaction fired, the context of every API call and any parse issues.
      --dump prints one line per entry (the format of the golden test files).
${REPLAY_USAGE}
${SUMMARIZE_USAGE}
${STATUSLINE_USAGE}
${WATCH_USAGE}
${STATS_USAGE}
${BASH_SUMMARIES_USAGE}
${REPORT_USAGE}
${EXPORT_USAGE}
${EROSION_USAGE}
${FIDELITY_USAGE}

Options:
  --json      machine-readable output on stdout
  -h, --help  this text
`;
};

type Command = (args: string[], out: (text: string) => void) => Promise<number>;

const fmt = (n: number | undefined): string => (n === undefined ? '—' : groupDigits(n));

function renderInspect(report: InspectReport): string {
  const lines: string[] = [];
  const main = report.files[0];
  lines.push(`${main?.name ?? '(no file)'}  [${report.format}]`);
  const sub = report.subagentTranscript;
  if (sub)
    lines.push(
      `  sub-agent transcript${sub.agentType ? ` (${sub.agentType})` : ''}${sub.agentId ? ` · agent ${sub.agentId}` : ''}, opened without its parent session`,
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
    const what =
      c.kind === 'compact'
        ? `${fmt(c.preTokens)} → ${fmt(c.postTokens)} tokens`
        : `saved ${fmt(c.tokensSaved)} tokens, cleared ${c.clearedToolIds?.length ?? 0} tool results`;
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

const inspect: Command = async (args, out) => {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { json: { type: 'boolean' }, dump: { type: 'boolean' } },
  });
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
};

const COMMANDS: Record<string, Command> = {
  inspect,
  // Loaded on demand: other commands never load their code, and they load only their own chunks.
  summarize: async (args, out) => (await import('./summarize')).summarize(args, out),
  replay: async (args, out) => (await import('./replay')).replayCommand(args, out),
  statusline: async (args, out) => (await import('./live/statusline')).statuslineCommand(args, out),
  watch: async (args, out) => (await import('./live/watch')).watchCommand(args, out),
  stats: async (args, out) => (await import('./stats/stats')).statsCommand(args, out),
  'bash-summaries': async (args, out) => (await import('./bash-summaries')).bashSummariesCommand(args, out),
  report: async (args, out) => (await import('./report')).reportCommand(args, out),
  export: async (args, out) => (await import('./export')).exportCommand(args, out),
  erosion: async (args, out) => (await import('./erosion')).erosionCommand(args, out),
  fidelity: async (args, out) => (await import('./fidelity')).fidelityCommand(args, out),
};

/** Runs the CLI; returns the exit code. */
export async function main(
  argv: string[],
  out: (text: string) => void = (t) => process.stdout.write(`${t}\n`),
): Promise<number> {
  const [name, ...rest] = argv;
  // `replay --help` is the replay's own: it lists the chosen strategy's knobs.
  const help = name !== 'replay' && (rest.includes('--help') || rest.includes('-h'));
  if (!name || name === '-h' || name === '--help' || help) {
    out(await usage());
    return name ? 0 : 2;
  }
  const command = COMMANDS[name];
  if (!command) {
    process.stderr.write(`compactlab: unknown command "${name}"\n\n${await usage()}`);
    return 2;
  }
  // Transcript text reaches the output (models, paths, issue snippets, summaries): it is shown
  // inert, never able to move the cursor, retitle the terminal or reverse the line.
  const safeOut = rest.includes('--json')
    ? (text: string) => out(escapeJsonText(text))
    : (text: string) => out(escapeTerminalText(text));
  try {
    return await command(rest, safeOut);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`compactlab ${name}: ${escapeTerminalText(message)}\n`);
    return 1;
  }
}
