import type { DialectId } from '../../types';
import type { RecordNormalizer } from './record';

// A dialect is data (STYLE.md §11): everything generic code needs to know about one input format,
// in one descriptor exported by the dialect's own file and listed once in `registry.ts`. Generic
// code (detection, the session builder, replay preparation, the UI) loops over descriptors and
// never names an agent.

/**
 * Which tools' calls say what a post-compaction restoration re-attaches (Claude Code's
 * `bD5`/`fD5`, claude-code-compact-system.md §5). Empty lists: the agent restores nothing.
 */
export interface RestorationHints {
  /** Tools whose tool_use names the file it touches (`block.filePath`). */
  readonly fileTools: readonly string[];
  /** Of those, the ones whose result holds the file's contents. */
  readonly readTools: readonly string[];
  /** Of those, the ones whose input holds the whole new file (its size is the input's). */
  readonly wholeWriteTools: readonly string[];
  /** The tool whose input is the todo list, re-attached as a whole. */
  readonly todoTool?: string;
  /** The tool whose input is the plan (plan mode). */
  readonly planTool?: string;
  /** Paths of plan files, re-attached as the plan. */
  readonly planPath?: RegExp;
}

export interface DialectDescriptor {
  readonly id: DialectId;
  /** Human name, as the header and the issues name the format. */
  readonly label: string;
  /** The agent named in `Session.meta.agent` (undefined: recognised, not parsed). */
  readonly agent?: string;
  /** The strategy the replay shows first for a log of this dialect. */
  readonly defaultStrategyId?: string;
  /** One file's normalizer (a normalizer may keep per-file state); absent: `unsupported-dialect`. */
  readonly createNormalizer?: () => RecordNormalizer;
  /**
   * The call axis: `true` when the log writes a call's usage after its response items (Codex's
   * `token_count`), so a call's first context line is the first of the assistant items before it.
   */
  readonly usageFollowsResponse?: boolean;
  readonly restoration: RestorationHints;
}

export const NO_RESTORATION: RestorationHints = { fileTools: [], readTools: [], wholeWriteTools: [] };
