import type { KnobSpec } from '../strategies/types';

// Which of the user's knob edits a subagent's own replay takes (replay/subagent-replays.ts). Its
// own module, reading only the strategy's knob specs: the page keys the subagent query with it.

/**
 * The user's knob edits as a subagent's replay takes them: every edit but those of knobs the
 * strategy marks `mainSessionOnly` (Claude Code's: the reference gives a sub-agent one mechanism,
 * "Sub-agent compact — before turn in sub-agent loop — sub-agent history",
 * docs/sources.md#cc-five-mechanisms, with "Prompt 3: Sub-agent
 * continuation (Q07)": the same threshold over its own context and microcompact on its own tool
 * results; `agentRole`, session memory, the full flow's re-attachments (step 7, `bG6`), the
 * SessionStart hooks' output and the /compact or PreCompact instructions are the main session's).
 * What is passed is the edits, not the session's effective knobs: a knob the user left alone keeps
 * each subagent's own value from its own log (its version's profile, its model's window,
 * microcompact as its log shows), as `getSessionKnobs` gives it; an edited one applies to every
 * subagent as to the session. A strategy that marks none has no sub-agent role: its edits all pass.
 */
export function getSubagentOverrides(
  overrides: Readonly<Record<string, unknown>>,
  knobSpecs: readonly KnobSpec[],
): Record<string, unknown> {
  const mainOnly = new Set(knobSpecs.filter((s) => s.mainSessionOnly).map((s) => s.key));
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(overrides)) {
    if (!mainOnly.has(key)) out[key] = value;
  }
  return out;
}
