import { parseSession } from '../engine/parse/parse-session';
import type { ByteSource } from '../engine/parse/source';
import { computeReplay } from '../engine/replay/compute-replay';
import { prepareReplay } from '../engine/replay/prepare';
import type { ReplayResult } from '../engine/replay/types';
import { getStrategy } from '../engine/strategies/registry';
import { getDefaultStrategyId } from '../engine/strategies/descriptors';
import { getSessionInfo } from '../engine/strategies/types';
import type { Session } from '../engine/types';
import { readArg, UsageError } from './cli-args';
import { openSessionFiles } from './session-files';

// What `report` and `export` share: the files, the replay under a strategy and `--knob k=v`.

export const SHARE_OPTIONS = {
  o: { type: 'string', short: 'o' },
  output: { type: 'string' },
  strategy: { type: 'string' },
  knob: { type: 'string', multiple: true },
  redact: { type: 'boolean' },
} as const;

/** `k=v` → a knob override: a number, a boolean, a comma list, or the text. */
function parseKnobArg(arg: string): [string, unknown] {
  const eq = arg.indexOf('=');
  if (eq <= 0) throw new UsageError(`--knob expects key=value, got "${arg}"`);
  const key = arg.slice(0, eq).trim();
  const raw = arg.slice(eq + 1).trim();
  if (raw === 'true' || raw === 'false') return [key, raw === 'true'];
  const n = Number(raw.replace(/_/g, ''));
  if (raw !== '' && Number.isFinite(n)) return [key, n];
  return [key, raw];
}

interface LoadedSession {
  session: Session;
  sources: ByteSource[];
}

export async function loadSession(paths: string[]): Promise<LoadedSession> {
  const sources = await openSessionFiles(paths);
  return { session: await parseSession(sources), sources };
}

/** The replay under the given strategy (default: the log's agent's) and knobs over the log's own. */
export function runReplay(
  session: Session,
  strategyId: string | undefined,
  knobArgs: readonly string[] = [],
): ReplayResult {
  const id = strategyId ?? getDefaultStrategyId(session.format, session.meta.agent);
  const strategy = readArg(() => getStrategy(id));
  const prepared = prepareReplay(session);
  const { knobs: sessionKnobs, notes } = strategy.getSessionKnobs(getSessionInfo(prepared));
  const overrides = Object.fromEntries(knobArgs.map(parseKnobArg));
  const known = new Set(strategy.knobSpecs.map((s) => s.key));
  for (const key of Object.keys(overrides))
    if (!known.has(key))
      throw new UsageError(`"${key}" is not a knob of ${strategy.id} (${[...known].join(', ')})`);
  const knobs = strategy.normalizeKnobs(overrides, sessionKnobs);
  const result = computeReplay(prepared, strategy.id, knobs);
  result.notes.push(...notes);
  return result;
}
