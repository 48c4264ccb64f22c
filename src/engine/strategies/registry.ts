import { ANTHROPIC_SDK_COMPACTION_STRATEGY } from './anthropic-sdk-compaction';
import { API_CONTEXT_EDITING_STRATEGY } from './api-clear-tool-uses';
import { BOUNDARY_SCORING_STRATEGY } from './boundary-scoring';
import { CLAUDE_CODE_STRATEGY } from './claude-code';
import { CLINE_STRATEGY } from './cline';
import { CODEX_STRATEGY } from './codex';
import { GEMINI_CLI_STRATEGY } from './gemini-cli';
import { OPENCODE_STRATEGY } from './opencode';
import { PI_STRATEGY } from './pi';
import { ROO_STRATEGY } from './roo';
import { STRATEGY_DESCRIPTORS } from './descriptors';
import { CLAUDE_CODE_SUMMARY_SIZE, describeSummarySize } from './summary-size';
import type { CompactionStrategy, KnobValue, SessionInfo } from './types';

// Every strategy the replay knows. Adding one: a folder `<id>/` (its `descriptor.ts` the knobs and
// labels the page shows, its `index.ts` the strategy that replays, its helpers, knobs and prompt
// presets beside them), a line here and one in descriptors.ts, in the same order.

// biome-ignore lint/suspicious/noExplicitAny: strategies differ in their knob types; each validates its own input.
type AnyStrategy = CompactionStrategy<any>;

export const STRATEGIES: readonly AnyStrategy[] = [
  CLAUDE_CODE_STRATEGY,
  API_CONTEXT_EDITING_STRATEGY,
  ANTHROPIC_SDK_COMPACTION_STRATEGY,
  CODEX_STRATEGY,
  CLINE_STRATEGY,
  BOUNDARY_SCORING_STRATEGY,
  OPENCODE_STRATEGY,
  GEMINI_CLI_STRATEGY,
  ROO_STRATEGY,
  PI_STRATEGY,
];

/**
 * Strategies written against the public API (api.ts) and adapted (custom.ts), registered by the
 * host that loaded them (the CLI's `--strategy-file`, the page's sandbox worker): `getStrategy`
 * finds them as it finds the built-ins, so no caller treats them apart.
 */
const customStrategies = new Map<string, AnyStrategy>();

/** Registers (or replaces) a custom strategy; a built-in's id is refused. */
export function registerCustomStrategy(strategy: AnyStrategy): void {
  if (STRATEGIES.some((s) => s.id === strategy.id))
    throw new RangeError(`"${strategy.id}" is a built-in strategy's id: give the custom strategy another`);
  customStrategies.set(strategy.id, strategy);
}

/** The strategy with this id; throws a RangeError naming the known ids. */
export function getStrategy(id: string): CompactionStrategy<Record<string, KnobValue>> {
  const strategy = STRATEGIES.find((s) => s.id === id) ?? customStrategies.get(id);
  if (!strategy)
    throw new RangeError(
      `Unknown strategy "${id}" (known: ${[...STRATEGY_DESCRIPTORS.map((s) => s.id), ...customStrategies.keys()].join(', ')})`,
    );
  return strategy;
}

/**
 * A strategy's knobs for a log with the notes a replay shows: its own, then the summary size its
 * replay takes and what that rests on (issue 19: each agent's fit, its stated cap, or Claude
 * Code's fit and why). Every caller that shows notes takes them from here.
 */
export function getSessionSetup<K extends object>(
  strategy: CompactionStrategy<K>,
  info: SessionInfo,
): { knobs: K; notes: string[] } {
  const { knobs, notes } = strategy.getSessionKnobs(info);
  const spec = strategy.summarySize?.(knobs) ?? CLAUDE_CODE_SUMMARY_SIZE;
  return { knobs, notes: [...notes, describeSummarySize(strategy.label, spec)] };
}
