import { getPrice, type PriceOverrides } from '../cost/prices';
import { getLoggedCost } from '../cost/logged-cost';
import { computeReplayCost } from '../cost/replay-cost';
import { computeReplayErosion } from '../erosion/erosion';
import type { ModelStepInfo, ModelStepOptions } from '../erosion/model-step';
import { parseSession } from '../parse/parse-session';
import type { ByteSource } from '../parse/source';
import { computeReplay } from '../replay/compute-replay';
import { prepareReplay } from '../replay/prepare';
import { getStrategy } from '../strategies/registry';
import { getSessionInfo, type KnobValue } from '../strategies/types';
import { SETTING_COLUMNS, type SettingColumn, type SettingRow } from './records';

// `compactlab stats --strategy <id> [--knob k=v …] [--sweep knob=from:to:steps]`: every session
// replayed under one strategy at each setting (the knobs given, and each value of the swept
// knob), its cost beside its real cost (engine/cost/), compactions and tokens summarized; one row
// per session and setting, and the totals per setting. Plain numbers and strings, so the rows go
// to NDJSON or CSV as they are and DuckDB reads them.

/** What to replay every session under. */
export interface SettingsSpec {
  strategyId: string;
  /**
   * The strategy is a file's (`--strategy-file`): the path each CLI worker thread loads it from
   * before its sessions (cli/stats/stats-worker.ts), so that `getStrategy` finds it.
   */
  strategyFile?: string;
  /** Knob overrides over each session's own knobs. */
  overrides: Record<string, KnobValue>;
  /** The swept knob and its values; absent: one setting, the overrides alone. */
  sweep?: { knob: string; values: number[] };
  /**
   * Score what each setting's summaries keep (engine/erosion/: the built-in summarizer, offline):
   * the facts held since the start still kept after the last compaction, and those lost on the way.
   */
  retention?: boolean;
  /** A user's own prices over the list prices (`--prices`). */
  prices?: PriceOverrides;
}

/** Retention scored on a language model's summaries: the step's setting and session named to the caller. */
export interface SettingsModel {
  model: string;
  summarize(
    request: Parameters<ModelStepOptions['summarize']>[0],
    /** `estimatedInputUsd`: the request's estimate at the model's list price (absent: no list price). */
    info: ModelStepInfo & { file: string; setting: string; estimatedInputUsd?: number },
  ): Promise<string>;
}

/** The label of a setting: `autocompactPctOverride=70`, or the overrides given (`own knobs` when none). */
function getSettingLabels(spec: SettingsSpec): string[] {
  const given = Object.entries(spec.overrides).map(([k, v]) => `${k}=${v}`);
  if (!spec.sweep) return [given.join(' ') || 'own knobs'];
  return spec.sweep.values.map((v) => [...given, `${spec.sweep!.knob}=${v}`].join(' '));
}

/** USD rounded to a millionth (figures, not floating-point noise, in the output). */
const usd = (n: number) => Number(n.toFixed(6));

/** One session's rows, a row per setting; a session without API calls has none. */
export async function computeSettingRows(
  file: string,
  sources: ByteSource[],
  spec: SettingsSpec,
  signal?: AbortSignal,
  /** With `spec.retention`: each compaction's summary by this model rather than the built-in summarizer. */
  model?: SettingsModel,
): Promise<SettingRow[]> {
  const session = await parseSession(sources, { signal });
  if (session.apiCalls.length === 0) return [];
  const strategy = getStrategy(spec.strategyId);
  const prepared = prepareReplay(session);
  const { knobs: sessionKnobs } = strategy.getSessionKnobs(getSessionInfo(prepared));
  const labels = getSettingLabels(spec);
  let logged: ReturnType<typeof getLoggedCost> | undefined;
  const values: (number | undefined)[] = spec.sweep ? spec.sweep.values : [undefined];
  const rows: SettingRow[] = [];
  for (const [i, value] of values.entries()) {
    // A cancel lands between settings (the page's what-if over a library: worker/whatif-handlers.ts).
    signal?.throwIfAborted();
    const overrides = value === undefined ? spec.overrides : { ...spec.overrides, [spec.sweep!.knob]: value };
    const result = computeReplay(prepared, strategy.id, strategy.normalizeKnobs(overrides, sessionKnobs));
    const cost = computeReplayCost(session, result, { prices: spec.prices });
    const stepModel: ModelStepOptions | undefined = model && {
      model: model.model,
      summarize: (request, info) => {
        const price = getPrice(model.model, spec.prices);
        const estimatedInputUsd = price && (info.estimatedTokens * price.inputPerMTok) / 1_000_000;
        return model.summarize(request, { ...info, file, setting: labels[i]!, estimatedInputUsd });
      },
    };
    const retention = spec.retention ? await getRetention(sources, session, result, signal, stepModel) : {};
    let compactions = 0;
    let llmCalls = 0;
    let summarizedTokens = 0;
    for (const e of result.events) {
      if (e.kind !== 'compact') continue;
      compactions++;
      llmCalls += e.llmCalls;
      summarizedTokens += e.spanTokens;
    }
    const { calls, summaries } = cost;
    const priced = cost.real.calls.usd > 0;
    // The replayed line is the same at every setting (the log's): the session's logged cost once.
    logged ??= getLoggedCost(session, result.callIndex, spec.prices);
    rows.push({
      row: 'session',
      strategy: strategy.id,
      setting: labels[i],
      knob: spec.sweep?.knob,
      value,
      file,
      agent: session.meta.agent,
      model: session.meta.models.at(-1) ?? '',
      sessions: 1,
      pricedSessions: priced ? 1 : 0,
      apiCalls: result.callIndex.length,
      compactions,
      llmCalls,
      summarizedTokens,
      costUsd: usd(cost.usd),
      realCostUsd: usd(cost.real.usd),
      deltaUsd: usd(cost.usd - cost.real.usd),
      cacheReadTokens: Math.round(calls.cacheRead + summaries.cacheRead),
      cacheWriteTokens: Math.round(
        calls.cacheWrite5m + calls.cacheWrite1h + summaries.cacheWrite5m + summaries.cacheWrite1h,
      ),
      uncachedTokens: Math.round(calls.uncached + summaries.uncached),
      outputTokens: Math.round(calls.output + summaries.output),
      summaryCalls: summaries.calls,
      summaryUsd: usd(summaries.usd),
      realSummariesEstimated: cost.real.estimatedSummaries,
      realSummariesEstimatedUsd: usd(cost.real.estimatedSummariesUsd),
      loggedCostUsd: usd(logged.usd),
      subagentCostUsd: usd(logged.subagentsUsd),
      otherBranchCostUsd: usd(logged.otherBranchesUsd),
      unpricedCalls: calls.unpricedCalls + summaries.unpricedCalls,
      ...retention,
      errors: 0,
      pricesAsOf: cost.pricesSeen,
    });
  }
  return rows;
}

/** The retention figures of one replay: none when it made no summary (nothing was forgotten). */
async function getRetention(
  sources: ByteSource[],
  session: Parameters<typeof computeReplayErosion>[0],
  result: ReturnType<typeof computeReplay>,
  signal: AbortSignal | undefined,
  model: ModelStepOptions | undefined,
): Promise<SettingRow> {
  const chain = await computeReplayErosion(session, sources, result.events, result.strategyId, {
    signal,
    model,
  });
  const calls: SettingRow = model
    ? {
        retentionModel: model.model,
        retentionCalls: (chain.modelSteps ?? 0) + (chain.failures?.length ?? 0),
        retentionCallsFailed: chain.failures?.length ?? 0,
      }
    : {};
  const last = chain.steps.at(-1);
  if (!last) return calls;
  return {
    ...calls,
    retention: Number(last.ratio.toFixed(4)),
    retainedFacts: last.kept,
    heldFacts: last.total,
    factsLost: chain.steps.reduce((a, s) => a + s.lost.length, 0),
  };
}

/** Columns that name or describe a row, or a ratio (retention): every other column is summed. */
const NOT_SUMMED = new Set<SettingColumn>([
  'row',
  'strategy',
  'setting',
  'knob',
  'value',
  'file',
  'agent',
  'model',
  'retention',
  'retentionModel',
  'pricesAsOf',
  'error',
]);
const SUMMED: readonly SettingColumn[] = SETTING_COLUMNS.filter((c) => !NOT_SUMMED.has(c));

/** Totals per setting, in the settings' order: sums of the session rows, the failed sessions as `errors`. */
export class SettingTotals {
  private readonly totals: SettingRow[];
  private readonly retention: boolean;

  private readonly model: string | undefined;

  /** `model`: the retention's summaries are that model's (its calls counted), else the built-in summarizer's. */
  constructor(spec: SettingsSpec, pricesAsOf: string, model?: string) {
    this.retention = spec.retention === true;
    this.model = this.retention ? model : undefined;
    const values: (number | undefined)[] = spec.sweep ? spec.sweep.values : [undefined];
    this.totals = getSettingLabels(spec).map((setting, i) => ({
      row: 'total',
      strategy: spec.strategyId,
      setting,
      knob: spec.sweep?.knob,
      value: values[i],
      ...Object.fromEntries(SUMMED.map((c) => [c, 0])),
      pricesAsOf,
    }));
  }

  add(rows: readonly SettingRow[]): void {
    for (const row of rows) {
      const total = this.totals.find((t) => t.setting === row.setting);
      if (!total) continue;
      for (const c of SUMMED) total[c] = (total[c] as number) + ((row[c] as number | undefined) ?? 0);
    }
  }

  /** A session that could not be read counts against every setting. */
  addError(): void {
    for (const total of this.totals) total.errors = (total.errors as number) + 1;
  }

  rows(): SettingRow[] {
    for (const t of this.totals) {
      for (const c of [
        'costUsd',
        'realCostUsd',
        'deltaUsd',
        'summaryUsd',
        'realSummariesEstimatedUsd',
        'loggedCostUsd',
        'subagentCostUsd',
        'otherBranchCostUsd',
      ] as const)
        t[c] = usd(t[c] as number);
      // Facts kept over facts held, pooled over the sessions that summarized (none: no figure).
      const held = t.heldFacts as number;
      if (this.retention && held > 0) t.retention = Number(((t.retainedFacts as number) / held).toFixed(4));
      if (!this.retention) for (const c of ['retainedFacts', 'heldFacts', 'factsLost'] as const) delete t[c];
      if (this.model === undefined)
        for (const c of ['retentionCalls', 'retentionCallsFailed'] as const) delete t[c];
      else t.retentionModel = this.model;
    }
    return this.totals;
  }
}
