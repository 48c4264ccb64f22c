import type { TokenCount } from '../types';
import type { SummarySource, TokenProvenance } from './types';

// How a replay figure was obtained ("State how each figure was obtained"): built by
// compute-replay.ts for each event's before / after, summed by tests, worded for the card, the
// CLI and the golden dump.

/** An empty breakdown of the given kind. */
export function createTokenProvenance(kind: TokenProvenance['kind']): TokenProvenance {
  return {
    kind,
    usageTokens: 0,
    exactTokens: 0,
    splitTokens: 0,
    estimatedTokens: 0,
    clampedMessages: 0,
    correctionTokens: 0,
    baseTokens: 0,
    summaryTokens: 0,
    restoredTokens: 0,
    keptTokens: 0,
    clearedTokens: 0,
    outputTokens: 0,
    pendingTokens: 0,
    strategyTokens: 0,
  };
}

/**
 * `p` as the breakdown of `tokens`, a strategy's trigger count: the call's output and the pending
 * estimate left out when the count leaves them out (Gemini CLI compares the last request's input:
 * its breakdown read "recorded usage 100,098 + output 222 + the strategy's own count -222"), and
 * what it counts beyond (or short of) the rest in `strategyTokens` (Codex adds its estimate of
 * earlier reasoning). A copy; `p` itself when it already sums to `tokens`.
 */
export function withStrategyCount(p: TokenProvenance, tokens: TokenCount): TokenProvenance {
  const rest = tokens - sumTokenProvenance(p);
  if (Math.abs(rest) < 0.5) return p;
  // The parts a count may leave out, alone or together: the output, the pending estimate.
  for (const [outputTokens, pendingTokens] of [
    [0, 0],
    [0, p.pendingTokens],
    [p.outputTokens, 0],
  ] as const) {
    const left = p.outputTokens - outputTokens + p.pendingTokens - pendingTokens;
    if (left > 0 && Math.abs(rest + left) < 0.5) return { ...p, outputTokens, pendingTokens };
  }
  return { ...p, strategyTokens: p.strategyTokens + rest };
}

/** The figure a breakdown explains. */
export function sumTokenProvenance(p: TokenProvenance): TokenCount {
  return (
    p.usageTokens +
    p.exactTokens +
    p.splitTokens +
    p.estimatedTokens +
    p.correctionTokens +
    p.baseTokens +
    p.summaryTokens +
    p.restoredTokens +
    p.keptTokens -
    p.clearedTokens +
    p.outputTokens +
    p.pendingTokens +
    p.strategyTokens
  );
}

const SUMMARY_SOURCE_LABELS: Record<SummarySource, string> = {
  recorded: "log's own",
  model: 'size model',
  supplied: 'supplied',
  'session-memory': 'session memory',
};

const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');

/**
 * One line: `recorded usage` alone when the figure is the log's usage, else its non-zero parts,
 * e.g. `12,380 exact + 2,210 split by estimate + summary 2,228 (log's own) + base 18,113`.
 */
export function formatTokenProvenance(p: TokenProvenance): string {
  const parts: string[] = [];
  const add = (tokens: number, label: string) => {
    if (Math.round(tokens) !== 0) parts.push(`${fmt(tokens)} ${label}`);
  };
  const named = (label: string, tokens: number, suffix = '') => {
    if (Math.round(tokens) !== 0) parts.push(`${label} ${fmt(tokens)}${suffix}`);
  };
  if (p.kind === 'recorded') parts.push(`recorded usage ${fmt(p.usageTokens)}`);
  add(p.exactTokens, 'exact');
  add(p.splitTokens, 'split by estimate');
  add(p.estimatedTokens, 'estimated');
  named('summary', p.summaryTokens, p.summarySource ? ` (${SUMMARY_SOURCE_LABELS[p.summarySource]})` : '');
  named('restored', p.restoredTokens);
  named('kept', p.keptTokens);
  named('base', p.baseTokens);
  named('usage correction', p.correctionTokens);
  named('output', p.outputTokens);
  named('pending', p.pendingTokens, ' est.');
  named("the strategy's own count", p.strategyTokens);
  let text = p.kind === 'recorded' && parts.length === 1 ? 'recorded usage' : parts.join(' + ');
  if (Math.round(p.clearedTokens) !== 0) text += ` − cleared ${fmt(p.clearedTokens)}`;
  if (p.clampedMessages > 0)
    text += ` (${p.clampedMessages} message${p.clampedMessages === 1 ? '' : 's'} at 0: negative delta)`;
  return text || '0';
}
