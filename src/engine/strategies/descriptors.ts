import { ANTHROPIC_SDK_COMPACTION_DESCRIPTOR } from './anthropic-sdk-compaction/descriptor';
import { API_CONTEXT_EDITING_DESCRIPTOR } from './api-clear-tool-uses/descriptor';
import { BOUNDARY_SCORING_DESCRIPTOR } from './boundary-scoring/descriptor';
import { CLAUDE_CODE_DESCRIPTOR } from './claude-code/descriptor';
import { CLINE_DESCRIPTOR } from './cline/descriptor';
import { CODEX_DESCRIPTOR } from './codex/descriptor';
import { GEMINI_CLI_DESCRIPTOR } from './gemini-cli/descriptor';
import { OPENCODE_DESCRIPTOR } from './opencode/descriptor';
import { PI_DESCRIPTOR } from './pi/descriptor';
import { ROO_DESCRIPTOR } from './roo/descriptor';
import { DIALECT_INFOS, getDialectInfo } from '../parse/dialects/descriptors';
import type { DialectId } from '../types';
import type { KnobValue, StrategyDescriptor } from './types';

// What the page knows of every strategy without running one: names, knob specs, defaults,
// validation and threshold lines (each `<id>/descriptor.ts`). The strategies themselves, with the
// code that replays, are registry.ts's, in the same order (tests/engine/registry-structure.test.ts):
// the worker and the CLI import that one, the page this one.

// biome-ignore lint/suspicious/noExplicitAny: strategies differ in their knob types; each validates its own input.
type AnyDescriptor = StrategyDescriptor<any>;

export const STRATEGY_DESCRIPTORS: readonly AnyDescriptor[] = [
  CLAUDE_CODE_DESCRIPTOR,
  API_CONTEXT_EDITING_DESCRIPTOR,
  ANTHROPIC_SDK_COMPACTION_DESCRIPTOR,
  CODEX_DESCRIPTOR,
  CLINE_DESCRIPTOR,
  BOUNDARY_SCORING_DESCRIPTOR,
  OPENCODE_DESCRIPTOR,
  GEMINI_CLI_DESCRIPTOR,
  ROO_DESCRIPTOR,
  PI_DESCRIPTOR,
];

export const DEFAULT_STRATEGY_ID = CLAUDE_CODE_DESCRIPTOR.id;

/**
 * The strategy of the agent that wrote the log: what the replay shows first. `agent`
 * (`Session.meta.agent`) names it when the records say who sent them and that is not the
 * dialect's own agent (a claude-trace log of Claude Code is Claude Code's, not an API user's).
 */
export function getDefaultStrategyId(format: DialectId | undefined, agent?: string): string {
  const own = getDialectInfo(format);
  const dialect =
    agent !== undefined && own?.agent !== undefined && agent !== own.agent
      ? (DIALECT_INFOS.find((d) => d.agent === agent) ?? own)
      : own;
  const id = dialect?.defaultStrategyId;
  return id !== undefined && STRATEGY_DESCRIPTORS.some((s) => s.id === id) ? id : DEFAULT_STRATEGY_ID;
}

/** The descriptor of the strategy with this id; throws a RangeError naming the known ids. */
export function getStrategyDescriptor(id: string): StrategyDescriptor<Record<string, KnobValue>> {
  const descriptor = STRATEGY_DESCRIPTORS.find((s) => s.id === id);
  if (!descriptor)
    throw new RangeError(
      `Unknown strategy "${id}" (known: ${STRATEGY_DESCRIPTORS.map((s) => s.id).join(', ')})`,
    );
  return descriptor;
}
