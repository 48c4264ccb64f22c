import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { parseSession } from '../engine/parse/parse-session';
import { computeReplay } from '../engine/replay/compute-replay';
import { formatReplayDump } from '../engine/replay/dump';
import { prepareReplay } from '../engine/replay/prepare';
import type { SummaryModelId } from '../engine/replay/summary-size';
import {
  computeSweep,
  getSweepableKnobs,
  getSweepScore,
  MAX_SWEEP_STEPS,
  type SweepRange,
  type SweepResult,
} from '../engine/replay/sweep';
import { DEFAULT_STRATEGY_ID, getStrategy } from '../engine/strategies/registry';
import { getSessionInfo } from '../engine/strategies/types';
import { estimateTextTokens } from '../engine/tokens/estimate';
import { createNodeFileSource } from './node-source';
import { formatOrdinal } from '../engine/query/numbering';

// `compactlab replay`: the same engine code as the app's replay, on the command line.

export const REPLAY_USAGE = `  compactlab replay <session.jsonl> [subagent files…] [--strategy claude-code] [knobs…] [--json]
      Re-run compaction over the transcript under the log's own knobs (or yours) and compare
      with where it really compacted. Knobs: --profile v2.1.68|v2.0|legacy --window N
      --max-output N --pct N --keep-recent N --protect N --min-savings N --no-microcompact
      --[no-]auto-compact --no-compact --session-memory N|<summary.md> --summary-model recorded|ratio
      Session memory: a size in tokens, or a text file (Claude Code's
      <session-id>/session-memory/summary.md; also taken when given among the files) sized by
      Claude Code's estimate.
      --sweep <knob>=<from>:<to>:<steps>  re-run for each value of one numeric knob (a knob key
      or one of the flags above, e.g. pct=100:30:15) and print one line per value.`;

type Out = (text: string) => void;

const NUMBER_FLAGS: Record<string, string> = {
  window: 'contextWindow',
  'max-output': 'maxOutputTokens',
  pct: 'autocompactPctOverride',
  'keep-recent': 'microcompactKeepRecent',
  protect: 'microcompactProtectTokens',
  'min-savings': 'microcompactMinSavings',
  'blocking-limit': 'blockingLimitOverride',
};

/** Converts typed arrays to plain arrays for JSON. */
function toJson(value: unknown): unknown {
  return JSON.parse(
    JSON.stringify(value, (_key, v) =>
      ArrayBuffer.isView(v) ? Array.from(v as unknown as ArrayLike<number>) : v,
    ),
  );
}

export async function replayCommand(args: string[], out: Out): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      json: { type: 'boolean' },
      strategy: { type: 'string', default: DEFAULT_STRATEGY_ID },
      profile: { type: 'string' },
      'summary-model': { type: 'string' },
      'no-microcompact': { type: 'boolean' },
      'no-auto-compact': { type: 'boolean' },
      'auto-compact': { type: 'boolean' },
      'no-compact': { type: 'boolean' },
      'session-memory': { type: 'string' },
      sweep: { type: 'string' },
      ...Object.fromEntries(Object.keys(NUMBER_FLAGS).map((k) => [k, { type: 'string' as const }])),
    },
  });
  if (positionals.length === 0) {
    out(`Usage:\n${REPLAY_USAGE}`);
    return 2;
  }
  const strategy = getStrategy(values.strategy ?? DEFAULT_STRATEGY_ID);
  const session = await parseSession(positionals.map((p) => createNodeFileSource(p)));
  if (session.apiCalls.length === 0) {
    process.stderr.write('compactlab replay: no API call in this transcript: nothing to replay\n');
    return 1;
  }
  const prepared = prepareReplay(session);
  const { knobs: sessionKnobs, notes } = strategy.getSessionKnobs(getSessionInfo(prepared));
  const overrides: Record<string, unknown> = {};
  const v = values as Record<string, unknown>;
  for (const [flag, key] of Object.entries(NUMBER_FLAGS)) {
    if (v[flag] === undefined) continue;
    const x = Number(v[flag]);
    if (!Number.isFinite(x)) {
      process.stderr.write(`compactlab replay: --${flag} expects a number, got "${String(v[flag])}"\n`);
      return 2;
    }
    overrides[key] = x;
  }
  const memory = values['session-memory'];
  if (memory !== undefined && /^[\d_,.]+$/.test(memory.trim())) {
    overrides.sessionMemoryTokens = Number(memory.replace(/[_,]/g, ''));
  } else {
    let text = session.sessionMemory?.text;
    if (memory !== undefined) {
      try {
        text = fs.readFileSync(memory, 'utf8');
      } catch (error) {
        process.stderr.write(
          `compactlab replay: --session-memory expects a number of tokens or a readable file: ${(error as Error).message}\n`,
        );
        return 2;
      }
    }
    if (text?.trim()) overrides.sessionMemoryTokens = estimateTextTokens(text.length);
  }
  if (values.profile !== undefined) overrides.profile = values.profile;
  if (values['no-microcompact']) overrides.microcompactEnabled = false;
  if (values['auto-compact']) overrides.autoCompactEnabled = true;
  if (values['no-auto-compact']) overrides.autoCompactEnabled = false;
  if (values['no-compact']) overrides.disableCompact = true;
  const knobs = strategy.normalizeKnobs(overrides, sessionKnobs);
  const summaryModel = (values['summary-model'] ?? 'recorded') as SummaryModelId;
  if (summaryModel !== 'recorded' && summaryModel !== 'ratio') {
    process.stderr.write(`compactlab replay: --summary-model is recorded or ratio, got "${summaryModel}"\n`);
    return 2;
  }
  if (values.sweep !== undefined) {
    const range = parseSweepArg(values.sweep, strategy.id);
    if (typeof range === 'string') {
      process.stderr.write(`compactlab replay: --sweep ${range}\n`);
      return 2;
    }
    const sweep = await computeSweep(prepared, strategy.id, knobs as never, range, { summaryModel });
    if (values.json) out(JSON.stringify(sweep, null, 2));
    else out([...formatSweepLines(sweep), ...notes.map((n) => `note: ${n}`)].join('\n'));
    return 0;
  }
  const result = computeReplay(prepared, strategy.id, knobs, { summaryModel });
  result.notes.push(...notes);
  if (values.json) out(JSON.stringify(toJson(result), null, 2));
  else out([formatReplayDump(prepared, result), ...notes.map((n) => `note: ${n}`)].join('\n'));
  return 0;
}

/** `<knob>=<from>:<to>:<steps>`, the knob a key of the strategy or a flag name; a string is the error. */
function parseSweepArg(arg: string, strategyId: string): SweepRange | string {
  const m = /^([\w-]+)=([^:]+):([^:]+):(\d+)$/.exec(arg.trim());
  const knobs = getSweepableKnobs(strategyId).map((s) => s.key);
  if (!m) return `expects <knob>=<from>:<to>:<steps>, got "${arg}"`;
  const knob = NUMBER_FLAGS[m[1]!] ?? m[1]!;
  if (!knobs.includes(knob)) return `"${m[1]}" is not a numeric knob of ${strategyId} (${knobs.join(', ')})`;
  const [from, to, steps] = [
    Number(m[2]!.replace(/[_,]/g, '')),
    Number(m[3]!.replace(/[_,]/g, '')),
    Number(m[4]),
  ];
  if (!Number.isFinite(from) || !Number.isFinite(to))
    return `expects numbers for <from> and <to>, got "${arg}"`;
  if (steps < 1 || steps > MAX_SWEEP_STEPS) return `expects 1 to ${MAX_SWEEP_STEPS} steps, got ${steps}`;
  return { knob, from, to, steps };
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

const formatF1 = (f1: number | undefined): string => (f1 === undefined ? '-' : f1.toFixed(2));

/** One line per swept value. */
export function formatSweepLines(sweep: SweepResult): string[] {
  return sweep.points.map((p) =>
    [
      `${sweep.knob}=${p.value}`,
      `compactions ${p.events.compact}`,
      `clearings ${p.events.microcompact}`,
      p.events.blocked > 0 ? `blocked ${p.events.blocked}` : '',
      `matched ${p.matchedReal}/${p.expectedReal}`,
      `extra ${p.extraSimulated}`,
      `missed ${p.expectedReal - p.matchedReal}`,
      `F1 ${formatF1(getSweepScore(p).f1)}`,
      `peak ${fmt(p.peakContextTokens)}`,
      `summarized ${fmt(p.summarizedTokens)}`,
      `summaries ${fmt(p.summaryTokens)}`,
      `first ${p.firstCompactApiCall === undefined ? '-' : formatOrdinal('api-call', p.firstCompactApiCall)}`,
    ]
      .filter(Boolean)
      .join('  '),
  );
}
