import { formatCostLine } from './cost-line';
import type { SweepResult } from '../engine/replay/sweep';
import { getSweepScore } from '../engine/replay/sweep-score';
import { formatOrdinal } from '../engine/query/numbering';

// `compactlab replay`'s text lines beside the replay dump: a sweep's line per value, a cost line.

/** Converts typed arrays to plain arrays for JSON. */
export function toJson(value: unknown): unknown {
  return JSON.parse(
    JSON.stringify(value, (_key, v) =>
      ArrayBuffer.isView(v) ? Array.from(v as unknown as ArrayLike<number>) : v,
    ),
  );
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

const formatF1 = (f1: number): string => f1.toFixed(2);

/** One line per swept value. */
export function formatSweepLines(sweep: SweepResult): string[] {
  return sweep.points.map((p) =>
    [
      `${sweep.knob}=${p.value}`,
      `compactions ${p.events.compact}`,
      `clearings ${p.events.microcompact}`,
      p.events.truncate > 0 ? `truncations ${p.events.truncate}` : '',
      p.events.blocked > 0 ? `blocked ${p.events.blocked}` : '',
      p.events['compact-failed'] > 0 ? `failed ${p.events['compact-failed']}` : '',
      `matched ${p.matchedReal}/${p.expectedReal}`,
      `extra ${p.extraSimulated}`,
      `missed ${p.expectedReal - p.matchedReal}`,
      `F1 ${formatF1(getSweepScore(p).f1)}`,
      `peak ${fmt(p.peakContextTokens)}`,
      `summarized ${fmt(p.summarizedTokens)}`,
      `summaries ${fmt(p.summaryTokens)}`,
      `first ${p.firstCompactApiCall === undefined ? '-' : formatOrdinal('api-call', p.firstCompactApiCall)}`,
      p.cost ? formatCostLine(p.cost) : '',
    ]
      .filter(Boolean)
      .join('  '),
  );
}
