import { parseArgs } from './cli-args';
import {
  BASH_SUMMARY_SHAPE,
  type BashSummaries,
  computeBashSummaries,
  SPEW_RULES,
} from '../engine/query/bash-summaries';
import { parseSession } from '../engine/parse/parse-session';
import { describeNothingRead, openSessionFiles } from './session-files';
import { escapeTerminalText } from './terminal-text';

// `compactlab bash-summaries`: the shell results Claude Code's bash-output summarization would
// catch (docs/sources.md#csa-bash-summaries), our log-spew judgement and the tokens saved.

export const BASH_SUMMARIES_USAGE = `  compactlab bash-summaries <session.jsonl> [subagent files…] [--json]
      Shell results over 5,000 characters (§4 of docs/sources.md#csa):
      whether each looks like log spew (our heuristics), the summary it would get (overview,
      detailed summary, errors, 3+ verbatim snippets) and the tokens that saves; a total.`;

const fmt = (n: number) => n.toLocaleString('en-US');

function render(name: string, r: BashSummaries): string {
  const lines = [
    `${name}: ${r.rows.length} of ${fmt(r.shellResults)} shell results (${r.shellTools.join(', ')}) over ${fmt(r.thresholdChars)} characters; ${r.spewCount} judged log spew`,
  ];
  for (const row of r.rows) {
    const cmd = row.command === undefined ? '' : `  $ ${row.command.split('\n')[0]!.slice(0, 60)}`;
    const why = row.reasons.length ? ` (${row.reasons.join(', ')})` : '';
    lines.push(
      `  entry ${row.entryIndex}  ${row.toolName}  ${fmt(row.chars)} chars  ${fmt(row.resultTokens)} tokens  ${row.judgement}${why}  saved ${fmt(row.savedTokens)}${cmd}`,
    );
  }
  lines.push(
    `Total: ${fmt(r.totalResultTokens)} tokens of long shell output, ${fmt(r.totalSavedTokens)} saved by summarizing the log spew.`,
    `Summary shape asked for: ${BASH_SUMMARY_SHAPE.join('; ')}; the raw output saved to disk.`,
    `Log spew (ours): ${SPEW_RULES.map((s) => `${s.label} ≥ ${s.minShare * 100}%`).join('; ')}.`,
  );
  return lines.join('\n');
}

export async function bashSummariesCommand(args: string[], out: (text: string) => void): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { json: { type: 'boolean' } },
  });
  if (positionals.length === 0) {
    out(BASH_SUMMARIES_USAGE);
    return 2;
  }
  const session = await parseSession(await openSessionFiles(positionals));
  const result = computeBashSummaries(session);
  out(values.json ? JSON.stringify(result, null, 2) : render(positionals[0]!, result));
  if (session.entries.length > 0) return 0;
  // Nothing was read: the exit status says so, and so does the reason every command gives.
  const what = `no record read from ${positionals.join(', ')}: ${describeNothingRead(session)}`;
  process.stderr.write(`compactlab bash-summaries: ${escapeTerminalText(what)}\n`);
  return 1;
}
