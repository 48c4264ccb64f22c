import { at } from '../engine/assert';
import { createReplayPricer } from '../engine/cost/replay-cost';
import { parseSession } from '../engine/parse/parse-session';
import { compareStrategies } from '../engine/replay/compare-strategies';
import { formatCompareTable } from '../engine/replay/compare-table';
import { prepareReplay } from '../engine/replay/prepare';
import type { SummaryModelId } from '../engine/replay/summary-size';
import { getStrategy, STRATEGIES } from '../engine/strategies/registry';
import type { KnobValue } from '../engine/strategies/types';
import { parseArgs } from './cli-args';
import { COMMON_OPTIONS, getSessionMemoryTokens, type Out, readPrices, REPLAY_USAGE } from './replay-args';
import { formatKnobHelp, getAllKnobFlagOptions, getMultiKnobOverrides } from './replay-knobs';
import { describeNoCalls, openSessionFiles } from './session-files';
import { isStrategyPath, loadStrategyFile } from './strategy-file';
import { escapeTerminalText } from './terminal-text';

// `compactlab replay --strategy a,b,c` (or `all`): the compare table, apart from the one-strategy
// replay (replay.ts), which hands it the command line.

/** A built-in's id, or a custom strategy's a file registered. */
function isKnownStrategy(id: string): boolean {
  try {
    getStrategy(id);
    return true;
  } catch {
    return false;
  }
}

/**
 * `--strategy a,b,c` or `--strategy all`: every strategy over the same prepared transcript, one
 * table (engine/replay/compare-strategies.ts), or one object per strategy with `--json`.
 */
export async function compareCommand(args: string[], strategyArg: string, out: Out): Promise<number> {
  const ids =
    strategyArg === 'all'
      ? STRATEGIES.map((s) => s.id)
      : strategyArg
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
  // Items naming a file are custom strategies: loaded and registered, then named by their id.
  try {
    for (let i = 0; i < ids.length; i++)
      if (isStrategyPath(ids[i]!)) ids[i] = await loadStrategyFile(ids[i]!);
  } catch (error) {
    process.stderr.write(`compactlab replay: ${(error as Error).message}\n`);
    return 2;
  }
  const unknown = ids.filter((id) => !isKnownStrategy(id));
  if (unknown.length > 0 || ids.length === 0) {
    process.stderr.write(
      `compactlab replay: unknown strategy ${unknown.map((u) => `"${u}"`).join(', ') || '(none given)'} (known: ${STRATEGIES.map((s) => s.id).join(', ')}, or all; a path such as ./my-strategy.ts is a strategy file)\n`,
    );
    return 2;
  }
  const strategies = [...new Set(ids)].map((id) => getStrategy(id));
  if (parseArgs({ args, allowPositionals: true, strict: false, options: COMMON_OPTIONS }).values.help) {
    out(`Usage:\n${REPLAY_USAGE}\n\n${strategies.map((s) => formatKnobHelp(s)).join('\n\n')}`);
    return 0;
  }
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: {
        ...COMMON_OPTIONS,
        ...getAllKnobFlagOptions(strategies),
        knob: { type: 'string', multiple: true },
      },
    });
  } catch (error) {
    process.stderr.write(
      `compactlab replay: ${(error as Error).message} (compactlab replay --strategy <id> --help lists a strategy's knobs)\n`,
    );
    return 2;
  }
  const values = parsed.values as Record<string, unknown> & {
    json?: boolean;
    'summary-model'?: string;
    'session-memory'?: string;
    sweep?: string;
    prices?: string;
  };
  if (parsed.positionals.length === 0) {
    out(`Usage:\n${REPLAY_USAGE}`);
    return 2;
  }
  // A sweep, a manual compaction: one strategy's (the table has no place for them).
  for (const flag of ['sweep', 'compact-at'])
    if (values[flag] !== undefined) {
      process.stderr.write(`compactlab replay: --${flag} takes one strategy\n`);
      return 2;
    }
  const knobFlags = getMultiKnobOverrides(strategies, values);
  if ('error' in knobFlags) {
    process.stderr.write(`compactlab replay: ${knobFlags.error}\n`);
    return 2;
  }
  const summaryModel = (values['summary-model'] ?? 'recorded') as SummaryModelId;
  if (summaryModel !== 'recorded' && summaryModel !== 'ratio') {
    process.stderr.write(`compactlab replay: --summary-model is recorded or ratio, got "${summaryModel}"\n`);
    return 2;
  }
  const prices = readPrices(values.prices);
  if (typeof prices === 'string') {
    process.stderr.write(`compactlab replay: ${prices}\n`);
    return 2;
  }
  const session = await parseSession(await openSessionFiles(parsed.positionals));
  if (session.apiCalls.length === 0) {
    process.stderr.write(`compactlab replay: ${escapeTerminalText(describeNoCalls(session))}\n`);
    return 1;
  }
  const memoryTokens = getSessionMemoryTokens(values['session-memory'], session.sessionMemory?.text);
  if (typeof memoryTokens === 'string') {
    process.stderr.write(`compactlab replay: ${memoryTokens}\n`);
    return 2;
  }
  const entries = strategies.map((s) => {
    const overrides = { ...knobFlags.overrides[s.id] } as Record<string, KnobValue>;
    // The session memory is a knob of the strategies that have one.
    if (memoryTokens !== undefined && s.knobSpecs.some((k) => k.key === 'sessionMemoryTokens'))
      overrides.sessionMemoryTokens ??= memoryTokens;
    return { strategyId: s.id, overrides };
  });
  // Prepared once: every strategy reads the same call axis, attribution and restoration sources.
  const prepared = prepareReplay(session);
  const compared = await compareStrategies(prepared, entries, {
    summaryModel,
    costOf: createReplayPricer(session, { prices }),
  });
  if (values.json) {
    out(
      JSON.stringify(
        compared.rows.map((row, i) => {
          const r = at(compared.results, i);
          return { ...row, knobs: r.knobs, notes: r.notes };
        }),
        null,
        2,
      ),
    );
    return 0;
  }
  const notes = compared.rows.flatMap((row, i) =>
    at(compared.results, i).notes.map((n) => `note (${row.strategyId}): ${n}`),
  );
  out([formatCompareTable(compared.rows), ...notes].join('\n'));
  return 0;
}
