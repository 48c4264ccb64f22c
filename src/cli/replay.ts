import { at } from '../engine/assert';
import fs from 'node:fs';
import { parseArgs, readArg } from './cli-args';
import type { PriceOverrides } from '../engine/cost/prices';
import { createReplayPricer, getCostFigures, computeReplayCost } from '../engine/cost/replay-cost';
import { parseSession } from '../engine/parse/parse-session';
import { computeReplay } from '../engine/replay/compute-replay';
import { compareStrategies } from '../engine/replay/compare-strategies';
import { formatCompareTable } from '../engine/replay/compare-table';
import { formatCostLine } from './cost-line';
import { formatReplayDump } from '../engine/replay/dump';
import { prepareReplay } from '../engine/replay/prepare';
import type { SummaryModelId } from '../engine/replay/summary-size';
import { computeSweep, getSweepableKnobs, type SweepRange, type SweepResult } from '../engine/replay/sweep';
import { getSweepScore, MAX_SWEEP_STEPS } from '../engine/replay/sweep-score';
import { getSessionSetup, getStrategy, STRATEGIES } from '../engine/strategies/registry';
import { DEFAULT_STRATEGY_ID, getDefaultStrategyId } from '../engine/strategies/descriptors';
import type { Session } from '../engine/types';
import { type CompactionStrategy, getSessionInfo, type KnobValue } from '../engine/strategies/types';
import { estimateTextTokens } from '../engine/tokens/estimate';
import { formatOrdinal } from '../engine/query/numbering';
import {
  findKnobSpec,
  formatKnobFlags,
  formatKnobHelp,
  getAllKnobFlagOptions,
  getKnobFlagOptions,
  getMultiKnobOverrides,
  getKnobOverrides,
} from './replay-knobs';
import { MANUAL_OPTIONS, MANUAL_USAGE, parseManualArgs } from './replay-manual';
import { formatSubagentReplays, getSubagentReplays } from './replay-subagents';
import { readPriceFile } from './price-file';
import { describeNoCalls, openSessionFiles } from './session-files';
import { escapeTerminalText } from './terminal-text';
import { isStrategyPath, loadStrategyFile } from './strategy-file';
import {
  canStartStrategyThread,
  DEFAULT_STRATEGY_MEMORY_MB,
  parseStrategyMemory,
  runCommandInStrategyThread,
  STRATEGY_MEMORY_OPTION,
} from './strategy-thread';

// `compactlab replay`: the same engine code as the app's replay, on the command line.

const DEFAULT_STRATEGY = getStrategy(DEFAULT_STRATEGY_ID);

export const REPLAY_USAGE = `  compactlab replay <session.jsonl> [subagent files…] [--strategy <id>] [--strategy-file <file.ts>] [knobs…] [--json]
      Re-run compaction over the transcript under the log's own knobs (or yours) and compare
      with where it really compacted. The strategy is the log's own agent's (claude-code for a
      Claude Code log, pi for a pi log, …) unless --strategy names one. --strategies lists them;
      --strategy <id> --help lists a strategy's knobs (flag, label, unit, default, range,
      source). Any knob:
      --knob <key>=<value>. Knobs of ${DEFAULT_STRATEGY_ID}:
${formatKnobFlags(DEFAULT_STRATEGY)}
      --session-memory N|<summary.md> --summary-model recorded|ratio
      Session memory: a size in tokens, or a text file (Claude Code's
      <session-id>/session-memory/summary.md; also taken when given among the files) sized by
      Claude Code's estimate.
      --sweep <knob>=<from>:<to>:<steps>  re-run for each value of one numeric knob (a knob key
      or its flag, e.g. pct=100:30:15) and print one line per value.
      --strategy a,b,c (or all): each strategy on the same transcript, one table (events by kind,
      tokens cleared / replaced / truncated / summarized, LLM calls, peak and final context, the
      log's compactions each strategy reproduces); --json one object per strategy.
      Each replay, sweep value and table row gives its cost at list prices beside the real cost
      (the log's usage, same prices), the difference, and its cache reads / writes / uncached
      input (docs/cost.md); --prices <file.json> replaces list prices by price key
      ({"opus-4-6": {"inputPerMTok": 5, "outputPerMTok": 25, "cacheReadPerMTok": 0.5}}).
      --knob <strategy>.<key>=<value> sets one strategy's knob; --knob <key>=<value> and named
      flags set it in every strategy that has it.
      --strategy-file <my-strategy.ts>: your own strategy, written against the public API
      (docs/custom-strategies.md), compiled and run in a context without Node or the network, its
      code limited to 10 s a replay; in a list it is a path: --strategy
      claude-code,codex,./my-strategy.ts. Its knobs take --knob <key>=<value>. The replay that
      names a file runs in a worker thread of ${DEFAULT_STRATEGY_MEMORY_MB.toLocaleString('en-US')} MB of heap (ours);
      --strategy-memory <MB> sets it.
${MANUAL_USAGE}`;

type Out = (text: string) => void;

/** A built-in's id, or a custom strategy's a file registered. */
function isKnownStrategy(id: string): boolean {
  try {
    getStrategy(id);
    return true;
  } catch {
    return false;
  }
}

/** Converts typed arrays to plain arrays for JSON. */
function toJson(value: unknown): unknown {
  return JSON.parse(
    JSON.stringify(value, (_key, v) =>
      ArrayBuffer.isView(v) ? Array.from(v as unknown as ArrayLike<number>) : v,
    ),
  );
}

const COMMON_OPTIONS = {
  json: { type: 'boolean' },
  strategy: { type: 'string' },
  'strategy-file': { type: 'string' },
  ...STRATEGY_MEMORY_OPTION,
  strategies: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  'summary-model': { type: 'string' },
  'session-memory': { type: 'string' },
  sweep: { type: 'string' },
  prices: { type: 'string' },
  ...MANUAL_OPTIONS,
} as const;

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
      `compactlab replay: ${(error as Error).message} (compactlab replay --strategy ${strategy.id} --help lists its knobs)\n`,
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

/** `--session-memory` (a size or a file), else the session's own memory, in tokens; a string is the error. */
function getSessionMemoryTokens(
  memory: string | undefined,
  ownText: string | undefined,
): number | undefined | string {
  if (memory !== undefined && /^[\d_,.]+$/.test(memory.trim())) return Number(memory.replace(/[_,]/g, ''));
  let text = ownText;
  if (memory !== undefined) {
    try {
      text = fs.readFileSync(memory, 'utf8');
    } catch (error) {
      return `--session-memory expects a number of tokens or a readable file: ${(error as Error).message}`;
    }
  }
  return text?.trim() ? estimateTextTokens(text.length) : undefined;
}

/**
 * `--strategy a,b,c` or `--strategy all`: every strategy over the same prepared transcript, one
 * table (engine/replay/compare-strategies.ts), or one object per strategy with `--json`.
 */
async function compareCommand(args: string[], strategyArg: string, out: Out): Promise<number> {
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
  if (values.sweep !== undefined) {
    process.stderr.write('compactlab replay: --sweep takes one strategy\n');
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

/** `<knob>=<from>:<to>:<steps>`, the knob a key of the strategy or its flag; a string is the error. */
// biome-ignore lint/suspicious/noExplicitAny: strategies differ in their knob types.
export function parseSweepArg(arg: string, strategy: CompactionStrategy<any>): SweepRange | string {
  const m = /^([\w-]+)=([^:]+):([^:]+):(\d+)$/.exec(arg.trim());
  const knobs = getSweepableKnobs(strategy.id).map((s) => s.key);
  if (!m) return `expects <knob>=<from>:<to>:<steps>, got "${arg}"`;
  const knob = findKnobSpec(strategy, at(m, 1))?.key ?? at(m, 1);
  if (!knobs.includes(knob)) return `"${m[1]}" is not a numeric knob of ${strategy.id} (${knobs.join(', ')})`;
  const [from, to, steps] = [
    Number(at(m, 2).replace(/[_,]/g, '')),
    Number(at(m, 3).replace(/[_,]/g, '')),
    Number(m[4]),
  ];
  if (!Number.isFinite(from) || !Number.isFinite(to))
    return `expects numbers for <from> and <to>, got "${arg}"`;
  if (steps < 1 || steps > MAX_SWEEP_STEPS) return `expects 1 to ${MAX_SWEEP_STEPS} steps, got ${steps}`;
  return { knob, from, to, steps };
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

const formatF1 = (f1: number): string => f1.toFixed(2);

/** One line per swept value. */
export function formatSweepLines(sweep: SweepResult): string[] {
  return sweep.points.map((p) =>
    [
      `${sweep.knob}=${p.value}`,
      `compactions ${p.events.compact}`,
      `clearings ${p.events.microcompact}`,
      p.events.truncate > 0 ? `truncations ${p.events.truncate}` : '',
      p.events.blocked > 0 ? `blocked ${p.events.blocked}` : '',
      p.events['compact-failed'] > 0 ? `failed ${p.events['compact-failed']}` : '',
      `matched ${p.matchedReal}/${p.expectedReal}`,
      `extra ${p.extraSimulated}`,
      `missed ${p.expectedReal - p.matchedReal}`,
      `F1 ${formatF1(getSweepScore(p).f1)}`,
      `peak ${fmt(p.peakContextTokens)}`,
      `summarized ${fmt(p.summarizedTokens)}`,
      `summaries ${fmt(p.summaryTokens)}`,
      `first ${p.firstCompactApiCall === undefined ? '-' : formatOrdinal('api-call', p.firstCompactApiCall)}`,
      p.cost ? formatCostLine(p.cost) : '',
    ]
      .filter(Boolean)
      .join('  '),
  );
}

/** `--prices <file.json>` read, undefined without it; a string is the error. */
function readPrices(path: string | undefined): PriceOverrides | undefined | string {
  return path === undefined ? undefined : readPriceFile(path);
}
