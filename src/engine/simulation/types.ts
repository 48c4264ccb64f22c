import type { TokenCount } from '../types';

// Plain words of the shared model that strategies and the replay both speak.

export type CompactMechanism = 'full' | 'partial' | 'session-memory';

/**
 * A line on the chart: a strategy's trigger or limit. The chart draws each with its `label` (the
 * strategy's own name for it); the line whose `id` is `window` is the context window, drawn as
 * the chart's frame line.
 */
export interface ThresholdLine {
  id: string;
  label: string;
  tokens: TokenCount;
  /** `trigger`: where the strategy acts; `warning`: UI only; `limit`: requests are refused. */
  kind: 'trigger' | 'warning' | 'limit';
  /**
   * A trigger the knobs turned off (Claude Code's auto-compact under DISABLE_AUTO_COMPACT): the
   * chart shows where it would be, marked off; nothing acts there, and readers of where the
   * strategy acts (the replay dump, the live status line) skip it.
   */
  off?: boolean;
}

/** Where a summary's size came from. */
export type SummarySource =
  /** The log's own summary (the simulated event is at a real compaction). */
  | 'recorded'
  /** The built-in size model. */
  | 'model'
  /** A size supplied from outside (a real summarizer's answer). */
  | 'supplied'
  | 'session-memory';
