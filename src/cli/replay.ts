import fs from 'node:fs';
import { parseArgs, readArg } from './cli-args';
import { createReplayPricer, getCostFigures, computeReplayCost } from '../engine/cost/replay-cost';
import { parseSession } from '../engine/parse/parse-session';
import { computeReplay } from '../engine/replay/compute-replay';
import { formatReplayDump } from '../engine/replay/dump';
import { prepareReplay } from '../engine/replay/prepare';
import type { SummaryModelId } from '../engine/replay/summary-size';
import { computeSweep } from '../engine/replay/sweep';
import { getSessionSetup, getStrategy, STRATEGIES } from '../engine/strategies/registry';
import { DEFAULT_STRATEGY_ID, getDefaultStrategyId } from '../engine/strategies/descriptors';
import type { Session } from '../engine/types';
import { getSessionInfo } from '../engine/strategies/types';
import { formatKnobHelp, getKnobFlagOptions, getKnobOverrides } from './replay-knobs';
import { parseManualArgs } from './replay-manual';
import { formatSubagentReplays, getSubagentReplays } from './replay-subagents';
import {
  COMMON_OPTIONS,
  getSessionMemoryTokens,
  type Out,
  parseSweepArg,
  readPrices,
  REPLAY_USAGE,
} from './replay-args';
import { compareCommand } from './replay-compare';
import { formatCostLine } from './cost-line';
import { formatSweepLines, toJson } from './replay-format';
import { describeNoCalls, openSessionFiles } from './session-files';
import { escapeTerminalText } from './terminal-text';
import { isStrategyPath, loadStrategyFile } from './strategy-file';
import { canStartStrategyThread, parseStrategyMemory, runCommandInStrategyThread } from './strategy-thread';

// `compactlab replay`: the same engine code as the app's replay, on the command line. Its usage
// and shared arguments are replay-args.ts; several strategies' table, replay-compare.ts.

export { REPLAY_USAGE };

export async function replayCommand(args: string[], out: Out): Promise<number> {
  // The strategy decides which knob flags exist: read it first, then parse strictly.
  const loose = parseArgs({ args, allowPositionals: true, strict: false, options: COMMON_OPTIONS });
  const first = loose.values;
  if (first.strategies) {
    out(STRATEGIES.map((s) => `${s.id}  ${s.label}`).join('\n'));
    return 0;
  }
  // A strategy file's code runs in a thread with a heap limit: the whole replay goes there.
  const files = [
    ...(typeof first['strategy-file'] === 'string' ? [first['strategy-file']] : []),
    ...(typeof first.strategy === 'string' ? first.strategy.split(',').map((s) => s.trim()) : []).filter(
      isStrategyPath,
    ),
  ];
  const memory = parseStrategyMemory(first['strategy-memory']);
  if (typeof memory === 'string') {
    process.stderr.write(`compactlab replay: ${memory}\n`);
    return 2;
  }
  if (files.length > 0 && canStartStrategyThread())
    return runCommandInStrategyThread('replay', args, out, memory, files);
  // A strategy file (docs/custom-strategies.md): compiled, registered, then named by its id.
  let fileStrategyId: string | undefined;
  try {
    if (typeof first['strategy-file'] === 'string') {
      if (typeof first.strategy === 'string') {
        process.stderr.write(
          'compactlab replay: --strategy-file and --strategy: give one (or --strategy a,./file.ts)\n',
        );
        return 2;
      }
      fileStrategyId = await loadStrategyFile(first['strategy-file']);
    } else if (
      typeof first.strategy === 'string' &&
      !first.strategy.includes(',') &&
      isStrategyPath(first.strategy)
    )
      fileStrategyId = await loadStrategyFile(first.strategy);
  } catch (error) {
    process.stderr.write(`compactlab replay: ${(error as Error).message}\n`);
    return 2;
  }
  // Without --strategy, the log's own agent's (as the app opens it): its flags are the ones parsed.
  let preparsed: { paths: string[]; session: Session } | undefined;
  if (typeof first.strategy !== 'string' && fileStrategyId === undefined && !first.help)
    preparsed = await parseNamedFiles(loose.positionals);
  const strategyArg =
    fileStrategyId !== undefined
      ? fileStrategyId
      : typeof first.strategy === 'string'
        ? first.strategy
        : preparsed
          ? getDefaultStrategyId(preparsed.session.format, preparsed.session.meta.agent)
          : DEFAULT_STRATEGY_ID;
  if (strategyArg === 'all' || strategyArg.includes(',')) return compareCommand(args, strategyArg, out);
  const strategy = readArg(() => getStrategy(strategyArg));
  if (first.help) {
    out(`Usage:\n${REPLAY_USAGE}\n\n${formatKnobHelp(strategy)}`);
    return 0;
  }
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      tokens: true,
      options: { ...COMMON_OPTIONS, ...getKnobFlagOptions(strategy) },
    });
  } catch (error) {
    process.stderr.write(
      `compactlab replay: ${(error as Error).message} (compactlab replay ${fileStrategyId === undefined ? `--strategy ${strategy.id}` : `--strategy-file ${String(first['strategy-file'] ?? first.strategy)}`} --help lists its knobs)\n`,
    );
    return 2;
  }
  const { positionals } = parsed;
  const values = parsed.values as Record<string, unknown> & {
    json?: boolean;
    'summary-model'?: string;
    'session-memory'?: string;
    sweep?: string;
    prices?: string;
  };
  if (positionals.length === 0) {
    out(`Usage:\n${REPLAY_USAGE}`);
    return 2;
  }
  const knobFlags = getKnobOverrides(strategy, values);
  if ('error' in knobFlags) {
    process.stderr.write(`compactlab replay: ${knobFlags.error}\n`);
    return 2;
  }
  const prices = readPrices(values.prices);
  if (typeof prices === 'string') {
    process.stderr.write(`compactlab replay: ${prices}\n`);
    return 2;
  }
  const sources = await openSessionFiles(positionals);
  const session =
    preparsed && preparsed.paths.join('\0') === positionals.join('\0')
      ? preparsed.session
      : await parseSession(sources);
  if (session.apiCalls.length === 0) {
    process.stderr.write(`compactlab replay: ${escapeTerminalText(describeNoCalls(session))}\n`);
    return 1;
  }
  const prepared = prepareReplay(session);
  const { knobs: sessionKnobs, notes } = getSessionSetup(strategy, getSessionInfo(prepared));
  const overrides = knobFlags.overrides;
  const memoryTokens = getSessionMemoryTokens(values['session-memory'], session.sessionMemory?.text);
  if (typeof memoryTokens === 'string') {
    process.stderr.write(`compactlab replay: ${memoryTokens}\n`);
    return 2;
  }
  if (memoryTokens !== undefined) overrides.sessionMemoryTokens = memoryTokens;
  const knobs = strategy.normalizeKnobs(overrides, sessionKnobs);
  const summaryModel = (values['summary-model'] ?? 'recorded') as SummaryModelId;
  if (summaryModel !== 'recorded' && summaryModel !== 'ratio') {
    process.stderr.write(`compactlab replay: --summary-model is recorded or ratio, got "${summaryModel}"\n`);
    return 2;
  }
  if (values.sweep !== undefined) {
    // A sweep replays without manual compactions (computeSweep takes none): not one silently dropped.
    if (values['compact-at'] !== undefined) {
      process.stderr.write('compactlab replay: --sweep and --compact-at: give one\n');
      return 2;
    }
    const range = parseSweepArg(values.sweep, strategy);
    if (typeof range === 'string') {
      process.stderr.write(`compactlab replay: --sweep ${range}\n`);
      return 2;
    }
    const sweep = await computeSweep(prepared, strategy.id, knobs as never, range, {
      summaryModel,
      costOf: createReplayPricer(session, { prices }),
    });
    if (values.json) out(JSON.stringify(sweep, null, 2));
    else out([...formatSweepLines(sweep), ...notes.map((n) => `note: ${n}`)].join('\n'));
    return 0;
  }
  const manual = parseManualArgs(parsed.tokens ?? [], prepared);
  if (typeof manual === 'string') {
    process.stderr.write(`compactlab replay: ${manual}\n`);
    return 2;
  }
  const result = computeReplay(prepared, strategy.id, knobs, { summaryModel, manual });
  result.notes.push(...notes);
  const cost = getCostFigures(computeReplayCost(session, result, { prices }));
  const subagents = await getSubagentReplays(prepared, sources, strategy.id, knobFlags.overrides);
  if (subagents.length > 0) result.subagents = subagents;
  if (values.json) out(JSON.stringify({ ...(toJson(result) as object), cost }, null, 2));
  else
    out(
      [
        formatReplayDump(prepared, result),
        formatCostLine(cost),
        ...notes.map((n) => `note: ${n}`),
        ...formatSubagentReplays(subagents),
      ].join('\n'),
    );
  return 0;
}

/**
 * The files (and session folders) among a loose parse's positionals (a knob flag's value, `--window 200000`, is one
 * there too: it names no file), parsed; undefined when none is a file.
 */
async function parseNamedFiles(
  positionals: string[],
): Promise<{ paths: string[]; session: Session } | undefined> {
  const paths = positionals.filter((p) => {
    try {
      const stat = fs.statSync(p);
      return stat.isFile() || stat.isDirectory();
    } catch {
      return false;
    }
  });
  if (paths.length === 0) return undefined;
  return { paths, session: await parseSession(await openSessionFiles(paths)) };
}
