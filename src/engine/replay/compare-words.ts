import type { ReplayComparison } from './types';

// The words for what a comparison expected, in the header's legend: a full automatic compaction
// is an "auto-compaction" (the header's A), a Cline context-manager truncation a "truncation" (its
// T): both are the agent's automatic action that a replay at the log's knobs should reproduce
// (compare.ts), but a truncation summarizes nothing, so calling it an auto-compaction beside a
// header that counts it apart read as a contradiction.

/** "real auto-compactions", "real truncation", "real auto-compactions and truncations", by count. */
export function describeExpectedReal(comparison: Pick<ReplayComparison, 'outcomes' | 'expected'>): string {
  let compacts = 0;
  let truncations = 0;
  for (const o of comparison.outcomes) {
    if (o.status === 'manual') continue;
    if (o.kind === 'compact') compacts++;
    else if (o.kind === 'truncate') truncations++;
  }
  const plural = comparison.expected === 1 ? '' : 's';
  if (truncations > 0 && compacts > 0) return 'real auto-compactions and truncations';
  if (truncations > 0) return `real truncation${plural}`;
  return `real auto-compaction${plural}`;
}
