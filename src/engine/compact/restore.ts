import { estimateTextTokens } from '../tokens/estimate';
import type { TokenCount } from '../types';

// Post-compact restoration (docs/sources.md#ccs-context-preservation: `bD5`, `fD5`,
// `XQ0`, and "Message Reconstruction Order"; Claude Code 2.1.68 (docs/sources.md#cc-full-mechanism step 7)), fed from the
// transcript's own tool calls instead of the disk: the files its Read/Edit/Write calls touched,
// its last TodoWrite, its last plan.

/** `_D5`: files re-read after a compaction. */
export const RESTORE_MAX_FILES = 5;
/** `yD5`: token limit per restored file. */
export const RESTORE_TOKENS_PER_FILE: TokenCount = 5_000;
/** `kD5`: token budget of all restored files together. */
export const RESTORE_TOTAL_TOKENS: TokenCount = 50_000;

/**
 * What happens to a file over `tokensPerFile`. `bD5` reads it with `fileReadingLimits.maxTokens`,
 * and a read over that limit fails (`return J ? l9(J) : null`): the file comes back as a path-only
 * reference (`compact_file_reference` attachments, docs/sources.md#fmt-around-compaction; "(>5k-token files as path
 * only)", docs/sources.md#agents). docs/sources.md#ccs reads the limit as a truncation instead:
 * `truncate` keeps its first `tokensPerFile` tokens.
 */
export type OversizedFilePolicy = 'reference' | 'truncate';

/**
 * Per invoked skill, re-attached after a compaction (Claude Code 2.1.68 (docs/sources.md#cc-full-mechanism step 7): "skills
 * (uM4)"; no size given): our cap, the same as a file's (`yD5`).
 */
export const RESTORE_TOKENS_PER_SKILL: TokenCount = 5_000;
/** All re-attached skills together: our budget, half the files' (`kD5`); no source gives one. */
export const RESTORE_SKILLS_TOTAL_TOKENS: TokenCount = 25_000;
/**
 * The plan-mode reminder re-attached while plan mode is on (step 7: "plan mode (mM4)"): its text
 * is not in the reference; ~2,400 characters is our estimate of Claude Code's plan-mode reminder.
 */
export const PLAN_MODE_REMINDER_TOKENS: TokenCount = 600;

export interface RestoreLimits {
  maxFiles: number;
  tokensPerFile: TokenCount;
  totalTokens: TokenCount;
  oversized: OversizedFilePolicy;
  todos: boolean;
  plan: boolean;
  /** Invoked skills, most recent first, each cut to `tokensPerSkill`, while within `skillsTotalTokens`. */
  skills?: boolean;
  tokensPerSkill?: TokenCount;
  skillsTotalTokens?: TokenCount;
  /** Tokens of the plan-mode reminder (0: none). */
  planModeTokens?: TokenCount;
}

export const DEFAULT_RESTORE_LIMITS: RestoreLimits = {
  maxFiles: RESTORE_MAX_FILES,
  tokensPerFile: RESTORE_TOKENS_PER_FILE,
  totalTokens: RESTORE_TOTAL_TOKENS,
  oversized: 'reference',
  todos: true,
  plan: true,
  skills: true,
  tokensPerSkill: RESTORE_TOKENS_PER_SKILL,
  skillsTotalTokens: RESTORE_SKILLS_TOTAL_TOKENS,
  planModeTokens: PLAN_MODE_REMINDER_TOKENS,
};

/** One file touched by a tool call, with its size as last seen in the transcript. */
export interface FileAccess {
  path: string;
  /** The tool that touched it (Read, Edit, Write, …). */
  tool: string;
  entryIndex: number;
  /** Size of the whole file in tokens, as far as the transcript shows it. */
  fileTokens: TokenCount;
}

export interface RestoredFile {
  path: string;
  tool: string;
  entryIndex: number;
  fileTokens: TokenCount;
  /** Tokens of the re-attached file (`gG(JSON.stringify(attachment))`). */
  tokens: TokenCount;
  /** Over the per-file limit: cut to it (`truncate`) … */
  truncated: boolean;
  /** … or attached as its path only (`reference`). */
  referenceOnly: boolean;
}

export interface RestoredItem {
  entryIndex: number;
  tokens: TokenCount;
  path?: string;
}

export interface Restoration {
  files: RestoredFile[];
  /** Among the `maxFiles` most recent: files left out because the total budget was spent. */
  overBudget: RestoredFile[];
  todo?: RestoredItem;
  plan?: RestoredItem;
  /** Invoked skills re-attached (step 7, `uM4`), with their tokens after the per-skill cap. */
  skills?: RestoredItem[];
  /** The plan-mode reminder, when plan mode was on at the boundary (`mM4`). */
  planModeTokens?: TokenCount;
  /** SessionStart hooks' output, run again with source "compact" (step 8). */
  sessionStartTokens?: TokenCount;
  totalTokens: TokenCount;
}

export const EMPTY_RESTORATION: Restoration = { files: [], overBudget: [], totalTokens: 0 };

/**
 * `hD5` and the documented exclusions (docs/sources.md#csa-restoration): the todo file, the plan file, CLAUDE.md / memory files and agent
 * files are never re-attached.
 */
export function isExcludedFromRestore(path: string): boolean {
  const p = path.replace(/\\/g, '/');
  return (
    /(^|\/)CLAUDE(\.local)?\.md$/i.test(p) ||
    /(^|\/)\.claude\/(plans|todos|agents|memory)\//i.test(p) ||
    /(^|\/)MEMORY\.md$/i.test(p)
  );
}

/** The attachment's JSON envelope around the content, in characters (`l9` + file metadata). */
function envelopeTokens(path: string): TokenCount {
  return estimateTextTokens(
    JSON.stringify({ type: 'file', filename: path, content: { type: 'text', file: { filePath: path } } })
      .length,
  );
}

export interface RestorationInput {
  /** Files touched since the last compaction, oldest first (any order of duplicates). */
  accesses: readonly FileAccess[];
  /** Files re-attached by the previous compaction: older than every access. */
  carried?: readonly RestoredFile[];
  todo?: RestoredItem;
  plan?: RestoredItem;
  /** Skills invoked before the boundary, oldest first (`path`: the skill's name). */
  skills?: readonly RestoredItem[];
  /** Plan mode on at the boundary. */
  planMode?: boolean;
  /** What the SessionStart hooks print (0 or absent: no hook). */
  sessionStartTokens?: TokenCount;
  limits: RestoreLimits;
}

/** `bD5` + `fD5` + `XQ0`: what a compaction re-attaches, in the documented order. */
export function computeRestoration(input: RestorationInput): Restoration {
  const { limits } = input;
  // Most recent access per path first (`sort((Y, J) => J.timestamp - Y.timestamp)`), excluded
  // paths dropped, then the first `maxFiles` (`slice(0, B)`).
  const seen = new Set<string>();
  const recent: FileAccess[] = [];
  const consider = (access: FileAccess) => {
    if (recent.length >= limits.maxFiles || seen.has(access.path)) return;
    seen.add(access.path);
    if (!isExcludedFromRestore(access.path)) recent.push(access);
  };
  for (let i = input.accesses.length - 1; i >= 0 && recent.length < limits.maxFiles; i--)
    consider(input.accesses[i]!);
  const carried = input.carried ?? [];
  for (let i = 0; i < carried.length && recent.length < limits.maxFiles; i++) consider(carried[i]!);

  // Each file read with `maxTokens: yD5`; kept while the running total stays within `kD5`.
  const files: RestoredFile[] = [];
  const overBudget: RestoredFile[] = [];
  let total = 0;
  for (const access of recent) {
    const over = access.fileTokens > limits.tokensPerFile;
    const content = !over ? access.fileTokens : limits.oversized === 'truncate' ? limits.tokensPerFile : 0;
    const file: RestoredFile = {
      path: access.path,
      tool: access.tool,
      entryIndex: access.entryIndex,
      fileTokens: access.fileTokens,
      tokens: content + envelopeTokens(access.path),
      truncated: over && limits.oversized === 'truncate',
      referenceOnly: over && limits.oversized === 'reference',
    };
    if (total + file.tokens <= limits.totalTokens) {
      total += file.tokens;
      files.push(file);
    } else overBudget.push(file);
  }
  const todo = limits.todos ? input.todo : undefined;
  const plan = limits.plan ? input.plan : undefined;
  const out: Restoration = { files, overBudget, todo, plan, totalTokens: 0 };
  let extra = 0;
  // Skills: each invoked one once (its latest invocation), most recent first, within the budget.
  if (limits.skills && input.skills?.length) {
    const perSkill = limits.tokensPerSkill ?? RESTORE_TOKENS_PER_SKILL;
    const budget = limits.skillsTotalTokens ?? RESTORE_SKILLS_TOTAL_TOKENS;
    const seenSkill = new Set<string>();
    const skills: RestoredItem[] = [];
    let skillTotal = 0;
    for (let i = input.skills.length - 1; i >= 0; i--) {
      const skill = input.skills[i]!;
      const name = skill.path ?? `#${skill.entryIndex}`;
      if (seenSkill.has(name)) continue;
      seenSkill.add(name);
      const tokens = Math.min(skill.tokens, perSkill);
      if (tokens <= 0 || skillTotal + tokens > budget) continue;
      skillTotal += tokens;
      skills.push({ ...skill, tokens });
    }
    if (skills.length > 0) {
      out.skills = skills;
      extra += skillTotal;
    }
  }
  if (input.planMode && (limits.planModeTokens ?? 0) > 0) {
    out.planModeTokens = limits.planModeTokens;
    extra += limits.planModeTokens!;
  }
  if ((input.sessionStartTokens ?? 0) > 0) {
    out.sessionStartTokens = input.sessionStartTokens;
    extra += input.sessionStartTokens!;
  }
  out.totalTokens = total + (todo?.tokens ?? 0) + (plan?.tokens ?? 0) + extra;
  return out;
}
