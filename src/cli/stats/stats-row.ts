import { getStatedCostUsd } from '../../engine/parse/stated-cost';
import { computeInspectReport } from '../../engine/inspect/report';
import { parseSession } from '../../engine/parse/parse-session';
import type { ByteSource } from '../../engine/parse/source';
import { computeReplay } from '../../engine/replay/compute-replay';
import { prepareReplay } from '../../engine/replay/prepare';
import { getStrategy } from '../../engine/strategies/registry';
import { getDefaultStrategyId } from '../../engine/strategies/descriptors';
import { getSessionInfo } from '../../engine/strategies/types';
import { computeCostUsd } from '../../engine/cost/prices';
import type { Usage } from '../../engine/types';

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
  'statedCostUsd',
  'format',
  'version',
  'model',
  'subagentFiles',
  'entries',
  'userTurns',
  'failedRequests',
  'autoCompactions',
  'microcompactions',
  'inputTokens',
  'cacheCreationInputTokens',
  'cacheReadInputTokens',
  'outputTokens',
  'issueErrors',
  'issueWarnings',
  'replayStrategy',
  'replayCompactions',
  'realCompactionsExpected',
  'realCompactionsReproduced',
  'summarizedTokens',
  'error',
] as const;

type StatsColumn = (typeof STATS_COLUMNS)[number];
export type StatsRow = Partial<Record<StatsColumn, string | number>>;

const addUsage = (sum: Usage, u: Usage) => {
  sum.inputTokens += u.inputTokens;
  sum.cacheCreationInputTokens += u.cacheCreationInputTokens;
  sum.cacheReadInputTokens += u.cacheReadInputTokens;
  sum.outputTokens += u.outputTokens;
};

/**
 * The row of one session: `sources[0]` is its main file, the rest its subagent and compaction
 * files. Sub-agent usage is priced at the session's main model (their records carry no model of
 * their own in the session's summary); calls of a model without a list price add no cost, and a
 * session with none priced has no `costUsd`.
 */
export async function computeStatsRow(file: string, sources: ByteSource[]): Promise<StatsRow> {
  const row: StatsRow = { file, subagentFiles: sources.length - 1, pricesAsOf: PRICES_AS_OF };
  const session = await parseSession(sources);
  const report = computeInspectReport(session);
  const model = report.models.at(-1);
  const usage: Usage = {
    inputTokens: 0,
    cacheCreationInputTokens: 0,
    cacheReadInputTokens: 0,
    outputTokens: 0,
  };
  let cost: number | undefined;
  const price = (m: string | undefined, u: Usage) => {
    const c = m ? computeCostUsd(m, u) : undefined;
    if (c !== undefined) cost = (cost ?? 0) + c;
  };
  for (const call of report.apiCalls) {
    addUsage(usage, call.usage);
    price(call.model, call.usage);
  }
  for (const side of session.sidechains ?? []) {
    addUsage(usage, side.usage);
    price(model, side.usage);
  }
  const stated = getStatedCostUsd(report);
  Object.assign(row, {
    agent: report.agent,
    sessionId: report.sessionId ?? '',
    title: report.title?.text ?? '',
    apiCalls: report.apiCalls.length,
    peakContextTokens: report.peakContextTokens,
    compactions: report.compactions.filter((c) => c.kind === 'compact').length,
    // Absent (null in NDJSON, an empty CSV cell) when nothing is priced: a number or nothing.
    costUsd: cost === undefined ? undefined : Number(cost.toFixed(6)),
    // The agent's own figure where it writes one (Cline's task cost, the SDK stream's total).
    statedCostUsd: stated === undefined ? undefined : Number(stated.toFixed(6)),
    format: report.format,
    version: report.versions.at(-1) ?? '',
    model: model ?? '',
    entries: report.entries,
    userTurns: report.userTurns,
    // Requests that brought back no answer: not in apiCalls (issue 18 item 5).
    failedRequests: report.failedRequests?.length ?? 0,
    autoCompactions: report.compactions.filter((c) => c.kind === 'compact' && c.trigger === 'auto').length,
    microcompactions: report.compactions.filter((c) => c.kind === 'microcompact').length,
    ...usage,
    issueErrors: report.issueCounts.error,
    issueWarnings: report.issueCounts.warning,
  });
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
