import fs from 'node:fs';
import { at } from '../engine/assert';
import type { PriceOverrides } from '../engine/cost/prices';
import { getSweepableKnobs, type SweepRange } from '../engine/replay/sweep';
import { MAX_SWEEP_STEPS } from '../engine/replay/sweep-score';
import { DEFAULT_STRATEGY_ID } from '../engine/strategies/descriptors';
import { getStrategy } from '../engine/strategies/registry';
import type { CompactionStrategy } from '../engine/strategies/types';
import { estimateTextTokens } from '../engine/tokens/estimate';
import { findKnobSpec, formatKnobFlags } from './replay-knobs';
import { MANUAL_OPTIONS, MANUAL_USAGE } from './replay-manual';
import { readPriceFile } from './price-file';
import { DEFAULT_STRATEGY_MEMORY_MB, STRATEGY_MEMORY_OPTION } from './strategy-thread';

// `compactlab replay`'s usage and the arguments its one-strategy run (replay.ts) and its compare
// table (replay-compare.ts) both read: the common flags, the session memory, the prices, a sweep.

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

export type Out = (text: string) => void;

export const COMMON_OPTIONS = {
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

/** `--session-memory` (a size or a file), else the session's own memory, in tokens; a string is the error. */
export function getSessionMemoryTokens(
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

/** `--prices <file.json>` read, undefined without it; a string is the error. */
export function readPrices(path: string | undefined): PriceOverrides | undefined | string {
  return path === undefined ? undefined : readPriceFile(path);
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
