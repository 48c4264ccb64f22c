import { getStatedCostUsd } from '../../engine/parse/stated-cost';
import { computeInspectReport } from '../../engine/inspect/report';
import { parseSession } from '../../engine/parse/parse-session';
import type { ByteSource } from '../../engine/parse/source';
import { computeReplay } from '../../engine/replay/compute-replay';
import { prepareReplay } from '../../engine/replay/prepare';
import { getStrategy } from '../../engine/strategies/registry';
import { getDefaultStrategyId } from '../../engine/strategies/descriptors';
import { getSessionInfo } from '../../engine/strategies/types';
import { describePromptLog } from '../../engine/parse/meta-words';
import { getLibraryRow } from '../../engine/library/library-row';
import type { InspectReport } from '../../engine/inspect/report';
import { describeNothingRead } from '../session-files';

// One row of `compactlab stats` per session: the figures of `inspect --json`, the cost at list
// prices and the replay under the log's own knobs. Plain numbers and strings, so the row goes to
// NDJSON or CSV as is.

/** When the list prices of summarize/prices.ts were read ("seen 2026-11"). */
const PRICES_AS_OF = '2026-11';

/** Column order of the CSV; every NDJSON row carries the same keys, null where a value is absent (records.ts). */
export const STATS_COLUMNS = [
  'file',
  'agent',
  'sessionId',
  'title',
  'apiCalls',
  'peakContextTokens',
  'compactions',
  'costUsd',
  'pricesAsOf',
  'unpricedCalls',
  'statedCostUsd',
  'format',
  'version',
  'model',
  'subagentFiles',
  'subagentApiCalls',
  'subagentCompactions',
  'entries',
  'userTurns',
  'failedRequests',
  'autoCompactions',
  'microcompactions',
  'truncations',
  'inputTokens',
  'cacheCreationInputTokens',
  'cacheReadInputTokens',
  'outputTokens',
  'issueErrors',
  'issueWarnings',
  'firstIssue',
  'replayStrategy',
  'replayCompactions',
  'realCompactionsExpected',
  'realCompactionsReproduced',
  'summarizedTokens',
  'error',
] as const;

type StatsColumn = (typeof STATS_COLUMNS)[number];
export type StatsRow = Partial<Record<StatsColumn, string | number>>;

/** The file is an agent's but no session (a prompt history): `stats` leaves it out, saying so. */
export class NotSessionError extends Error {
  constructor(readonly what: string) {
    super(`not a session: it is ${what}`);
  }
}

/**
 * The first error of the session's parse (else its first warning) as `<file>:<line>: <message>`
 * (`<file>: <message>` for the whole file): which line to look at and why, where the counts
 * `issueErrors` and `issueWarnings` alone sent a reader to `inspect` for each row.
 */
function describeFirstIssue(report: InspectReport): string | undefined {
  const issue =
    report.issues.find((i) => i.severity === 'error') ?? report.issues.find((i) => i.severity === 'warning');
  if (!issue) return undefined;
  return `${issue.file}${issue.line > 0 ? `:${issue.line}` : ''}: ${issue.message}`;
}

/**
 * The row of one session: `sources[0]` is its main file, the rest its subagent and compaction
 * files. Its figures are the library's (library/library-row.ts), so the two never disagree:
 * `apiCalls`, `peakContextTokens` and the compaction counts are the main thread's (as `inspect`
 * and the page's timeline count them), `subagentApiCalls` the calls of its other transcripts and
 * `subagentCompactions` the compactions in them;
 * the usage totals and `costUsd` cover every call once over all its files, each call priced at its
 * own model (cost/session-calls.ts), the figures `stats --by` sums. A session with no priced
 * call has no `costUsd` (its calls are `unpricedCalls`).
 */
export async function computeStatsRow(file: string, sources: ByteSource[]): Promise<StatsRow> {
  const row: StatsRow = { file, pricesAsOf: PRICES_AS_OF };
  const session = await parseSession(sources);
  const listed = getLibraryRow(session);
  if (listed.notSession !== undefined) throw new NotSessionError(listed.notSession);
  const report = computeInspectReport(session);
  const model = report.models.at(-1);
  let [inputTokens, cacheCreationInputTokens, cacheReadInputTokens, outputTokens] = [0, 0, 0, 0];
  for (const b of listed.usage) {
    inputTokens += b.input;
    cacheCreationInputTokens += b.cacheWrite;
    cacheReadInputTokens += b.cacheRead;
    outputTokens += b.output;
  }
  const calls = listed.usage.reduce((n, b) => n + b.calls, 0);
  const stated = getStatedCostUsd(report);
  Object.assign(row, {
    agent: report.agent,
    sessionId: report.sessionId ?? '',
    // A prompt log is said as one: its first prompt's session is not its name (parse/meta-words.ts).
    title: report.promptLog ? describePromptLog(report.promptLog) : (report.title?.text ?? ''),
    apiCalls: listed.apiCalls,
    peakContextTokens: listed.peakContextTokens,
    compactions: listed.compactions.auto + listed.compactions.manual,
    // Absent (null in NDJSON, an empty CSV cell) when nothing is priced: a number or nothing.
    costUsd: listed.unpricedCalls === calls ? undefined : Number(listed.costUsd.toFixed(6)),
    unpricedCalls: listed.unpricedCalls,
    // The agent's own figure where it writes one (Cline's task cost, the SDK stream's total).
    statedCostUsd: stated === undefined ? undefined : Number(stated.toFixed(6)),
    format: report.format,
    version: report.versions.at(-1) ?? '',
    model: model ?? '',
    subagentFiles: listed.subagentFiles,
    subagentApiCalls: listed.sidechainCalls,
    // Compactions of the subagents' own contexts, none of them in the counts below (the header's
    // "· 9 in subagents").
    subagentCompactions: listed.compactions.inSubagents,
    entries: report.entries,
    userTurns: report.userTurns,
    // Requests that brought back no answer: not in apiCalls (issue 18 item 5).
    failedRequests: report.failedRequests?.length ?? 0,
    autoCompactions: listed.compactions.auto,
    microcompactions: listed.compactions.micro,
    truncations: listed.compactions.truncated,
    inputTokens,
    cacheCreationInputTokens,
    cacheReadInputTokens,
    outputTokens,
    issueErrors: report.issueCounts.error,
    issueWarnings: report.issueCounts.warning,
    firstIssue: describeFirstIssue(report),
  });
  // Nothing read as a transcript (binary data, an empty file, another program's JSON): the row
  // says why, as inspect does with its exit 1, and the run counts it among those not read.
  if (session.entries.length === 0) row.error = describeNothingRead(session);
  if (session.apiCalls.length > 0) {
    const prepared = prepareReplay(session);
    const strategy = getStrategy(getDefaultStrategyId(session.format, session.meta.agent));
    const { knobs } = strategy.getSessionKnobs(getSessionInfo(prepared));
    const result = computeReplay(prepared, strategy.id, knobs);
    let summarizedTokens = 0;
    let replayCompactions = 0;
    for (const e of result.events) {
      if (e.kind !== 'compact') continue;
      replayCompactions++;
      summarizedTokens += e.spanTokens ?? 0;
    }
    Object.assign(row, {
      replayStrategy: strategy.id,
      replayCompactions,
      realCompactionsExpected: result.comparison.expected,
      realCompactionsReproduced: result.comparison.reproduced,
      summarizedTokens,
    });
  }
  return row;
}
