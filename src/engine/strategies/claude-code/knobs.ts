import type { ContinuationFormat } from '../../compact/format-summary';
import {
  type OversizedFilePolicy,
  PLAN_MODE_REMINDER_TOKENS,
  RESTORE_MAX_FILES,
  RESTORE_SKILLS_TOTAL_TOKENS,
  RESTORE_TOKENS_PER_SKILL,
  RESTORE_TOKENS_PER_FILE,
  RESTORE_TOTAL_TOKENS,
} from '../../compact/restore';
import { DEFAULT_THRESHOLD_KNOBS, type ThresholdKnobs } from '../../thresholds';
import type { TokenCount } from '../../types';
import { createKnobNormalizer, contextWindowSpec } from '../knobs';
import type { KnobSpec } from '../types';

// Claude Code's knobs: the threshold knobs (thresholds.ts) plus microcompact, restoration, session
// memory and the disable switches, each with the reference its default comes from.

export type MicrocompactVariant = 'v2.1.68' | 'legacy';

/**
 * When the v2.1.68 microcompact acts: above the warning threshold on its own (2.1.68), or, with
 * auto-compact on, only when auto-compact is due, before the full compaction of the same call
 * (2.1.x before 2.1.68, as their logs show); with auto-compact off both act at the warning threshold.
 */
type MicrocompactTrigger = 'warning' | 'with-auto-compact';

/**
 * Whose loop compacts: the main session (auto-compact, Prompt 1, restoration, /compact), or an
 * in-process sub-agent ("Sub-agent compact": before its next turn, Prompt 3, its own history).
 */
type AgentRole = 'main' | 'subagent';

export interface ClaudeCodeKnobs extends ThresholdKnobs {
  agentRole: AgentRole;
  /** DISABLE_COMPACT: no compaction at all, not even the log's own /compact (Claude Code 2.1.68 (docs/sources.md#cc-configuration)). */
  disableCompact: boolean;
  /** !DISABLE_MICROCOMPACT. */
  microcompactEnabled: boolean;
  microcompactVariant: MicrocompactVariant;
  microcompactTrigger: MicrocompactTrigger;
  /** `F3Y` / `cD5`: most recent eligible results always kept. */
  microcompactKeepRecent: number;
  /** `g3Y`: most recent tool-result tokens protected (v2.1.68); `dD5` (legacy). */
  microcompactProtectTokens: TokenCount;
  /** `B3Y` / `mD5`: savings below this are not worth clearing. */
  microcompactMinSavings: TokenCount;
  /** v2.1.68 also clears images and documents in user messages. */
  microcompactClearImages: boolean;
  /** Tools whose results may be cleared. */
  microcompactTools: string[];
  /** Count Claude Code's estimate of the messages after the last response (2.1.x), not the usage alone. */
  countPendingMessages: boolean;
  /** The rapid-refill breaker: a third automatic compaction in a row within 3 calls of the one before is refused (refill-breaker.ts). */
  rapidRefillBreaker: boolean;
  restoreMaxFiles: number;
  restoreTokensPerFile: TokenCount;
  restoreTotalTokens: TokenCount;
  /** Files over the per-file limit: path-only reference, or truncated content. */
  restoreOversized: OversizedFilePolicy;
  restoreTodos: boolean;
  restorePlan: boolean;
  /** Invoked skills re-attached (v2.1.68 `uM4` (docs/sources.md#cc-full-mechanism step 7)), each cut to `restoreTokensPerSkill`, within `restoreSkillsTotalTokens`. */
  restoreSkills: boolean;
  restoreTokensPerSkill: TokenCount;
  restoreSkillsTotalTokens: TokenCount;
  /** The plan-mode reminder (`mM4`) re-attached while plan mode is on; 0: none. */
  planModeReminderTokens: TokenCount;
  /** SessionStart hooks' output after a compaction (step 8); absent: what the log's hooks printed. */
  sessionStartHookTokens?: TokenCount;
  /** Session memory to compact with instead of a summary (no LLM), in tokens; absent = none. */
  sessionMemoryTokens?: TokenCount;
  /** Session memory compaction keeps this many tokens of the most recent messages verbatim. */
  sessionMemoryKeepTokens: TokenCount;
  /** `/compact <instructions>` or a PreCompact hook's: appended to the prompt. */
  customInstructions?: string;
  continuationFormat: ContinuationFormat;
}

/** No limit on a re-attached skill before 2.1.84 (docs/sources.md#cc-npm-constants): the knob's maximum stands for it. */
export const UNLIMITED_SKILL_TOKENS: TokenCount = 100_000;
/** No budget for re-attached skills before 2.1.84: the knob's maximum stands for it. */
export const UNLIMITED_SKILLS_TOTAL_TOKENS: TokenCount = 500_000;

/** Tools whose results microcompact clears: Read, Bash, Grep, Glob, Edit, Write were seen cleared in 2.1.9–2.1.19 boundaries (MCP, Task, TodoWrite never were); WebFetch / WebSearch per "bash, read_file, grep, etc." (Claude Code 2.1.68 (docs/sources.md#cc-microcompact)). */
const DEFAULT_MICROCOMPACT_TOOLS = ['Read', 'Bash', 'Grep', 'Glob', 'Edit', 'Write', 'WebFetch', 'WebSearch'];

export const DEFAULT_CLAUDE_CODE_KNOBS: ClaudeCodeKnobs = {
  ...DEFAULT_THRESHOLD_KNOBS,
  agentRole: 'main',
  disableCompact: false,
  microcompactEnabled: true,
  microcompactVariant: 'v2.1.68',
  microcompactTrigger: 'warning',
  microcompactKeepRecent: 3,
  microcompactProtectTokens: 40_000,
  microcompactMinSavings: 20_000,
  microcompactClearImages: true,
  microcompactTools: DEFAULT_MICROCOMPACT_TOOLS,
  countPendingMessages: true,
  rapidRefillBreaker: true,
  restoreMaxFiles: RESTORE_MAX_FILES,
  restoreTokensPerFile: RESTORE_TOKENS_PER_FILE,
  restoreTotalTokens: RESTORE_TOTAL_TOKENS,
  restoreOversized: 'reference',
  restoreTodos: true,
  restorePlan: true,
  restoreSkills: true,
  restoreTokensPerSkill: RESTORE_TOKENS_PER_SKILL,
  restoreSkillsTotalTokens: RESTORE_SKILLS_TOTAL_TOKENS,
  planModeReminderTokens: PLAN_MODE_REMINDER_TOKENS,
  sessionMemoryKeepTokens: 10_000,
  continuationFormat: 'v2.1.68',
};

export const CLAUDE_CODE_KNOB_SPECS: readonly KnobSpec[] = [
  {
    key: 'profile',
    label: 'Threshold profile',
    kind: 'select',
    options: [
      { value: 'v2.1.68', label: '2.1.21 on: window − min(max output, 20k) − 13k', short: '2.1.21+' },
      { value: 'v2.0', label: '1.0.71–2.1.20: window − min(max output, 32k) − 13k', short: '≤2.1.20' },
      {
        value: 'legacy',
        label: '1.0.x before 1.0.71: 92% of (window − min(max output, 32k))',
        short: '<1.0.71',
      },
    ],
    source: `@anthropic-ai/claude-code@2.1.68:cli.js (B96: TD(A,nH())-Math.min(uk8(A),a5Y); fQ6: B96(A)-wk8); @anthropic-ai/claude-code@2.1.20:cli.js (SjA: rW(A,lP())-Mx6(A)); @anthropic-ai/claude-code@1.0.70:cli.js (vRB()*ZG8, ZG8=0.92); docs/sources.md#cc-npm-constants`,
    group: 'Thresholds',
    timelineBar: true,
    cliFlag: 'profile',
  },
  contextWindowSpec(`docs/sources.md#cc-threshold (BcK = 200,000; 1M for [1m] models)`, 'Thresholds', {
    timelineBar: true,
  }),
  {
    key: 'maxOutputTokens',
    label: 'Max output tokens',
    kind: 'number',
    unit: 'tokens',
    min: 1_000,
    max: 200_000,
    step: 1_000,
    source: `docs/sources.md#cc-npm-constants (reserved up to 20,000 from 2.1.21, a5Y; up to 32,000 before, the CLAUDE_CODE_MAX_OUTPUT_TOKENS default)`,
    group: 'Thresholds',
    timelineBar: true,
    cliFlag: 'max-output',
  },
  {
    key: 'autocompactPctOverride',
    label: 'Auto-compact at % of the window',
    help: 'Claude Code’s CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: can only lower the threshold',
    kind: 'number',
    unit: 'percent',
    min: 1,
    max: 100,
    step: 1,
    optional: true,
    source: `@anthropic-ai/claude-code@2.1.68:cli.js (fQ6: Math.min(Math.floor(q*(z/100)),K): can only lower the threshold; in 2.0.42 on, not in 2.0.19 or before, docs/sources.md#cc-npm-constants)`,
    group: 'Thresholds',
    timelineBar: true,
    cliFlag: 'pct',
  },
  {
    key: 'blockingLimitOverride',
    label: 'Blocking limit',
    help: 'Claude Code’s CLAUDE_CODE_BLOCKING_LIMIT_OVERRIDE: the context at which a request is refused',
    kind: 'number',
    unit: 'tokens',
    min: 10_000,
    max: 2_000_000,
    step: 1_000,
    optional: true,
    source: `docs/sources.md#cc-configuration`,
    group: 'Thresholds',
    timelineBar: true,
    cliFlag: 'blocking-limit',
  },
  {
    key: 'agentRole',
    mainSessionOnly: true,
    label: 'Compacting loop',
    kind: 'select',
    options: [
      { value: 'main', label: 'main session: auto-compact, Prompt 1, files/todos/plan re-attached' },
      {
        value: 'subagent',
        label: 'sub-agent: before its next turn, Prompt 3 (continuation), nothing re-attached',
      },
    ],
    source: `docs/sources.md#cc-five-mechanisms (Sub-agent compact: "Before turn in sub-agent loop", "Sub-agent history") and "Prompt 3: Sub-agent continuation (Q07)"`,
    help: 'A subagent transcript (opened alone or in its session folder) is replayed as a sub-agent.',
    group: 'Thresholds',
  },
  {
    key: 'countPendingMessages',
    label: 'Count messages after the last response',
    kind: 'boolean',
    source:
      '@anthropic-ai/claude-code@2.1.2:cli.js (D81: return JPA(G)+H70(A.slice(Q+1)): usage + estimate of the later messages, from 2.1.2; 2.0.76 gK: usage alone), docs/sources.md#cc-npm-constants; the corpus agrees (docs/replay-accuracy.md)',
    group: 'Thresholds',
  },
  {
    key: 'rapidRefillBreaker',
    label: 'Stop autocompact thrashing',
    help: 'The third automatic compaction in a row, each within 3 calls of the one before, is refused and the request ends ("Autocompact is thrashing"); a new prompt starts the count over',
    kind: 'boolean',
    source:
      '@anthropic-ai/claude-code@2.1.89:cli.js (minified; the autocompact step: refills = previous compacted && turnCounter < 3 ? refills + 1 : 0, refused when ≥ 3; absent in 2.1.88), docs/sources.md#cc-refill-breaker',
    group: 'Switches',
  },
  {
    key: 'autoCompactEnabled',
    label: 'Auto-compact',
    help: 'Off is Claude Code’s DISABLE_AUTO_COMPACT',
    kind: 'boolean',
    source: `docs/sources.md#cc-configuration`,
    group: 'Switches',
    timelineBar: true,
    cliFlag: 'auto-compact',
  },
  {
    key: 'disableCompact',
    label: 'Compaction disabled (also ignores the log’s /compact)',
    help: 'Claude Code’s DISABLE_COMPACT',
    kind: 'boolean',
    source: `docs/sources.md#cc-configuration`,
    group: 'Switches',
    cliFlag: 'compact',
    cliInverted: true,
  },
  {
    key: 'microcompactEnabled',
    label: 'Microcompact (off = DISABLE_MICROCOMPACT)',
    kind: 'boolean',
    source: `docs/sources.md#cc-configuration`,
    group: 'Switches',
    cliFlag: 'microcompact',
  },
  {
    key: 'microcompactVariant',
    label: 'Microcompact variant',
    kind: 'select',
    options: [
      { value: 'v2.1.68', label: '2.1.x: above warning, protect 40k recent, images too' },
      { value: 'legacy', label: 'legacy: at auto-compact, keep last 3, before full compact' },
    ],
    source: `docs/sources.md#cc-microcompact; docs/sources.md#ccs-microcompact`,
    group: 'Microcompact',
  },
  {
    key: 'microcompactTrigger',
    label: 'Microcompact fires',
    kind: 'select',
    options: [
      { value: 'warning', label: 'above the warning threshold, on its own (2.1.68)' },
      {
        value: 'with-auto-compact',
        label:
          'when auto-compact is due, before it (2.1.x before 2.1.68; auto-compact off: at the warning threshold)',
      },
    ],
    source: `warning: docs/sources.md#cc-microcompact ("Warning threshold hit"); with-auto-compact: docs/sources.md#ccs-main-dispatcher (the cheap tier tried first when auto-compact is due) with docs/sources.md#cc-edge-cases 6 (the full compaction after it on the same turn), as 2.1.x logs show both after one call (docs/replay-accuracy.md)`,
    help: 'Only for the 2.1.x clearing (variant v2.1.68); the legacy variant is always tried at the auto-compact threshold instead of a full compaction.',
    group: 'Microcompact',
  },
  {
    key: 'microcompactKeepRecent',
    label: 'Keep last N results',
    kind: 'number',
    unit: 'count',
    min: 0,
    max: 50,
    step: 1,
    source: `@anthropic-ai/claude-code@2.1.68:cli.js (z.slice(-F3Y), F3Y=3); the same 3 from 1.0.65 (docs/sources.md#cc-npm-constants)`,
    group: 'Microcompact',
    integer: true,
    cliFlag: 'keep-recent',
  },
  {
    key: 'microcompactProtectTokens',
    label: 'Protect recent result tokens',
    kind: 'number',
    unit: 'tokens',
    min: 0,
    max: 500_000,
    step: 1_000,
    source: `@anthropic-ai/claude-code@2.1.68:cli.js (if($-O>Y)H.add(Z), Y=g3Y=40000); the same 40,000 from 1.0.65 (docs/sources.md#cc-npm-constants)`,
    group: 'Microcompact',
    cliFlag: 'protect',
  },
  {
    key: 'microcompactMinSavings',
    label: 'Minimum savings',
    kind: 'number',
    unit: 'tokens',
    min: 0,
    max: 200_000,
    step: 1_000,
    source: `@anthropic-ai/claude-code@2.1.68:cli.js (if(…||O<B3Y)H.clear(), B3Y=20000: 20,000 saved is enough); the same from 1.0.65 (docs/sources.md#cc-npm-constants)`,
    group: 'Microcompact',
    cliFlag: 'min-savings',
  },
  {
    key: 'microcompactClearImages',
    label: 'Clear images and documents',
    kind: 'boolean',
    source: `docs/sources.md#cc-microcompact step 5`,
    group: 'Microcompact',
  },
  {
    key: 'microcompactTools',
    label: 'Eligible tools',
    kind: 'list',
    source: `@anthropic-ai/claude-code@2.0.76:cli.js (Oy5=new Set([T3,O4,OX,qV,iM,VI,j3,FI]): Read, Bash, Grep, Glob, WebSearch, WebFetch, Edit, Write; docs/sources.md#cc-npm-constants); tools seen cleared in the corpus`,
    group: 'Microcompact',
  },
  {
    key: 'restoreMaxFiles',
    mainSessionOnly: true,
    label: 'Files restored',
    kind: 'number',
    unit: 'count',
    min: 0,
    max: 50,
    step: 1,
    source: `@anthropic-ai/claude-code@2.1.68:cli.js (bM4(G,q,CM4), CM4=5); 5 in every release read (docs/sources.md#cc-npm-constants)`,
    group: 'Restoration',
    integer: true,
  },
  {
    key: 'restoreTokensPerFile',
    mainSessionOnly: true,
    label: 'Tokens per restored file',
    kind: 'number',
    unit: 'tokens',
    min: 0,
    max: 100_000,
    step: 500,
    source: `@anthropic-ai/claude-code@2.1.68:cli.js (fileReadingLimits:{maxTokens:V5Y}, V5Y=5000); docs/sources.md#claude-code-community (a file over it as its path only)`,
    group: 'Restoration',
  },
  {
    key: 'restoreTotalTokens',
    mainSessionOnly: true,
    label: 'Restored files budget',
    kind: 'number',
    unit: 'tokens',
    min: 0,
    max: 500_000,
    step: 1_000,
    source: `@anthropic-ai/claude-code@2.1.68:cli.js (if(w+$<=v5Y)return w+=$,!0, v5Y=50000, $ = chars/4 of the attachment); 50,000 in every release read (docs/sources.md#cc-npm-constants)`,
    group: 'Restoration',
  },
  {
    key: 'restoreOversized',
    mainSessionOnly: true,
    label: 'Files over the limit',
    kind: 'select',
    options: [
      { value: 'reference', label: 'path only (the read fails)' },
      { value: 'truncate', label: 'first tokens only' },
    ],
    source: `docs/sources.md#ccs-context-preservation (maxTokens read limit); docs/sources.md#claude-code-community ("path only")`,
    group: 'Restoration',
  },
  {
    key: 'restoreTodos',
    mainSessionOnly: true,
    label: 'Restore the todo list',
    kind: 'boolean',
    source: `@anthropic-ai/claude-code@2.1.62:cli.js ({type:"todo",…,context:"post-compact"} after a compaction); gone from 2.1.63 (docs/sources.md#cc-npm-constants)`,
    group: 'Restoration',
  },
  {
    key: 'restorePlan',
    mainSessionOnly: true,
    label: 'Restore the plan file',
    kind: 'boolean',
    source: `docs/sources.md#claude-code-community (the plan is re-attached); docs/sources.md#cc-full-mechanism step 7 (the plan file)`,
    group: 'Restoration',
  },
  {
    key: 'restoreSkills',
    mainSessionOnly: true,
    label: 'Restore invoked skills',
    kind: 'boolean',
    source: `docs/sources.md#cc-full-mechanism step 7 ("skills (uM4)"); sizes: each skill's body as the log holds it`,
    group: 'Restoration',
  },
  {
    key: 'restoreTokensPerSkill',
    mainSessionOnly: true,
    label: 'Tokens per restored skill',
    kind: 'number',
    unit: 'tokens',
    min: 0,
    max: 100_000,
    step: 500,
    source: `@anthropic-ai/claude-code@2.1.111:cli.js (content:bDY(Y.content,LDY), LDY=5000: cut to its first 5,000 tokens); from 2.1.84, none before (docs/sources.md#cc-npm-constants)`,
    group: 'Restoration',
  },
  {
    key: 'restoreSkillsTotalTokens',
    mainSessionOnly: true,
    label: 'Restored skills budget',
    kind: 'number',
    unit: 'tokens',
    min: 0,
    max: 500_000,
    step: 1_000,
    source: `@anthropic-ai/claude-code@2.1.111:cli.js (if(_+A>hDY)return!1, hDY=25000); from 2.1.84, none before (docs/sources.md#cc-npm-constants)`,
    group: 'Restoration',
  },
  {
    key: 'planModeReminderTokens',
    mainSessionOnly: true,
    label: 'Plan-mode reminder',
    kind: 'number',
    unit: 'tokens',
    min: 0,
    max: 20_000,
    step: 100,
    source: `docs/sources.md#cc-full-mechanism step 7 ("plan mode (mM4)"), charged while the log is in plan mode (EnterPlanMode, no ExitPlanMode yet); 600 is our estimate of the reminder's text`,
    group: 'Restoration',
  },
  {
    key: 'sessionStartHookTokens',
    mainSessionOnly: true,
    label: 'SessionStart hook output',
    kind: 'number',
    unit: 'tokens',
    min: 0,
    max: 200_000,
    step: 100,
    optional: true,
    source: `docs/sources.md#cc-full-mechanism step 8 ("Run session start hooks"); empty: the log's own hook output before its first call`,
    group: 'Restoration',
  },
  {
    key: 'sessionMemoryTokens',
    mainSessionOnly: true,
    label: 'Session memory size',
    kind: 'number',
    unit: 'tokens',
    min: 0,
    // Up to the largest window: a memory bigger than the window is valid input, it falls through.
    max: 2_000_000,
    step: 100,
    optional: true,
    source: `docs/sources.md#cc-full-mechanism step 3, edge case 7`,
    help: 'Compact with this session memory instead of a summary; falls through to a full compaction when the result is still over the threshold.',
    group: 'Session memory',
  },
  {
    key: 'sessionMemoryKeepTokens',
    mainSessionOnly: true,
    label: 'Recent tokens kept with session memory',
    kind: 'number',
    unit: 'tokens',
    min: 0,
    max: 200_000,
    step: 1_000,
    source:
      '@anthropic-ai/claude-code@2.1.68:cli.js (F5Y: recent messages kept back to z>=K.minTokens&&w>=K.minTextBlockMessages, or z>=K.maxTokens; FP1={minTokens:1e4,minTextBlockMessages:5,maxTokens:40000}): the 10,000; the 5 text messages at least and 40,000 at most are not modelled (docs/sources.md#cc-npm-constants)',
    group: 'Session memory',
  },
  {
    key: 'customInstructions',
    mainSessionOnly: true,
    label: 'Custom instructions',
    kind: 'text',
    optional: true,
    source: `docs/sources.md#cc-prompt-1 (custom instructions from /compact <text> or a PreCompact hook are appended); docs/sources.md#ccs-prompt-template`,
    group: 'Summary',
  },
  {
    key: 'continuationFormat',
    label: 'Continuation message',
    kind: 'select',
    options: [
      { value: 'v2.1.68', label: 'JQ6 (2.1.x)' },
      { value: 'legacy', label: 'T91 (legacy, 2.0.x)' },
    ],
    source: `docs/sources.md#cc-continuation; docs/sources.md#ccs-summary-message`,
    group: 'Summary',
  },
];

/** Validates any input into complete knobs (unknown keys ignored, numbers clamped to their specs). */
export const normalizeClaudeCodeKnobs = createKnobNormalizer(
  CLAUDE_CODE_KNOB_SPECS,
  DEFAULT_CLAUDE_CODE_KNOBS,
);
