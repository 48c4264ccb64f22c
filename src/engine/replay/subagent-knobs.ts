// Which of the user's knob edits a subagent's own replay takes (replay/subagent-replays.ts). Its
// own module: the page imports it to key the subagent query without loading the parser.

/**
 * The knobs of the main session's loop alone, never passed to a subagent's replay. The reference
 * gives a sub-agent one mechanism ("Sub-agent compact — before turn in sub-agent loop — sub-agent
 * history", claude-code-compaction-v2.1.68.txt "Five compaction mechanisms", with "Prompt 3:
 * Sub-agent continuation (Q07)"): the same threshold over its own context, and microcompact on its
 * own tool results; /compact, session memory compact and the full flow's re-attachments (step 7,
 * `bG6`) are the main session's. So: `agentRole` (a subagent file is always replayed as one),
 * session memory (strategies/claude-code/index.ts skips it for a sub-agent), the re-attachment knobs
 * (a sub-agent compaction restores nothing), the SessionStart hooks' output and the /compact or
 * PreCompact instructions (both typed for the session's own compactions).
 */
export const MAIN_SESSION_ONLY_KNOBS: ReadonlySet<string> = new Set([
  'agentRole',
  'sessionMemoryTokens',
  'sessionMemoryKeepTokens',
  'customInstructions',
  'restoreMaxFiles',
  'restoreTokensPerFile',
  'restoreTotalTokens',
  'restoreOversized',
  'restoreTodos',
  'restorePlan',
  'restoreSkills',
  'restoreTokensPerSkill',
  'restoreSkillsTotalTokens',
  'planModeReminderTokens',
  'sessionStartHookTokens',
]);

/**
 * The user's knob edits as a subagent's replay takes them: every edit but the main session's own
 * (MAIN_SESSION_ONLY_KNOBS). What is passed is the edits, not the session's effective knobs: a knob
 * the user left alone keeps each subagent's own value from its own log (its version's profile, its
 * model's window, microcompact as its log shows), as `getSessionKnobs` gives it; an edited one (the
 * window, max output, the auto-compact %, the blocking limit, auto-compact or microcompact on/off
 * and its constants, the continuation format) applies to every subagent as to the session. Other
 * strategies have no sub-agent role: their edits all pass.
 */
export function getSubagentOverrides(overrides: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(overrides)) {
    if (!MAIN_SESSION_ONLY_KNOBS.has(key)) out[key] = value;
  }
  return out;
}
