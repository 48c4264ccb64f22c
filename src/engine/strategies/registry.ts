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
import { getDialect } from '../parse/dialects/registry';
import type { DialectId } from '../types';
import type { CompactionStrategy, KnobValue } from './types';

// Every strategy the replay knows. Adding one: a folder `<id>/` (its `index.ts` exports the
// descriptor; its helpers, knobs and prompt presets beside it) and a line here.

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

export const DEFAULT_STRATEGY_ID = CLAUDE_CODE_STRATEGY.id;

/** The strategy of the agent that wrote the log: what the replay shows first. */
export function getDefaultStrategyId(format: DialectId | undefined): string {
  const id = getDialect(format)?.defaultStrategyId;
  return id !== undefined && STRATEGIES.some((s) => s.id === id) ? id : DEFAULT_STRATEGY_ID;
}

/** The strategy with this id; throws a RangeError naming the known ids. */
export function getStrategy(id: string): CompactionStrategy<Record<string, KnobValue>> {
  const strategy = STRATEGIES.find((s) => s.id === id);
  if (!strategy)
    throw new RangeError(`Unknown strategy "${id}" (known: ${STRATEGIES.map((s) => s.id).join(', ')})`);
  return strategy;
}
