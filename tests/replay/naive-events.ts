import { expect } from 'vitest';
import type { PreparedReplay } from '../../src/engine/replay/prepare';
import type { ReplayResult } from '../../src/engine/replay/types';
import { fieldsOf } from './events';

/** A naive reference's event, as the kept-range references (pi, boundary scoring) give them. */
export interface NaiveKeptRangeEvent {
  kind: string;
  afterCallPos: number;
  postTokens: number;
  summaryTokens?: number;
  /** Position the kept range starts at (a compaction that keeps part of the history). */
  keepFromPos?: number;
}

/**
 * The fast replay's events (blocked ones aside) against a naive reference's, the kept range
 * compared by its first entry; returns the compactions compared.
 */
export function expectSameKeptRangeEvents(
  prepared: PreparedReplay,
  result: ReplayResult,
  naive: readonly NaiveKeptRangeEvent[],
  label: string,
): number {
  const fast = result.events
    .filter((e) => e.kind !== 'blocked')
    .map(fieldsOf)
    .map((e) => ({
      kind: e.kind,
      afterCallPos: e.afterCallPos,
      postTokens: e.postTokens,
      summaryTokens: e.summaryTokens,
      keptFromEntryIndex: e.kind === 'compact' ? e.keptFromEntryIndex : undefined,
    }));
  const slow = naive.map((e) => ({
    kind: e.kind,
    afterCallPos: e.afterCallPos,
    postTokens: e.postTokens,
    summaryTokens: e.summaryTokens,
    keptFromEntryIndex: e.keepFromPos === undefined ? undefined : prepared.ctxEntry[e.keepFromPos],
  }));
  expect(fast, label).toEqual(slow);
  return slow.filter((e) => e.kind === 'compact').length;
}
