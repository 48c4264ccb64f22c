import type { ReplayComparison } from './types';

// The words for what a comparison expected, in the header's legend: a full automatic compaction
// is an "auto-compaction" (the header's A), a Cline context-manager truncation a "truncation" (its
// T): both are the agent's automatic action that a replay at the log's knobs should reproduce
// (compare.ts), but a truncation summarizes nothing, so calling it an auto-compaction beside a
// header that counts it apart read as a contradiction.

/** How many of a comparison's expected real events are auto-compactions and how many truncations. */
export interface RealKinds {
  compact: number;
  truncate: number;
}

/** The expected real events by kind: the log's own automatic actions, its manual ones left out. */
export function countRealKinds(outcomes: ReplayComparison['outcomes']): RealKinds {
  const kinds: RealKinds = { compact: 0, truncate: 0 };
  for (const o of outcomes) {
    if (o.status === 'manual') continue;
    if (o.kind === 'compact') kinds.compact++;
    else if (o.kind === 'truncate') kinds.truncate++;
  }
  return kinds;
}

/**
 * The kinds as a noun, `count` of them: "auto-compaction(s)", "truncation(s)", "auto-compactions
 * and truncations" (none of either: auto-compactions, what a replay's comparison looks for first).
 */
export function describeRealKinds(kinds: RealKinds, count: number): string {
  const plural = count === 1 ? '' : 's';
  if (kinds.truncate > 0 && kinds.compact > 0) return 'auto-compactions and truncations';
  if (kinds.truncate > 0) return `truncation${plural}`;
  return `auto-compaction${plural}`;
}

/** "real auto-compactions", "real truncation", "real auto-compactions and truncations", by count. */
export function describeExpectedReal(comparison: Pick<ReplayComparison, 'outcomes' | 'expected'>): string {
  return `real ${describeRealKinds(countRealKinds(comparison.outcomes), comparison.expected)}`;
}
