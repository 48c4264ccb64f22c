import type { LiveStatus } from '../../engine/live/live-status';

/** `84,213` → `84.2k`, `1,000,000` → `1M`: short enough for a status line. */
export function formatTokensShort(n: number): string {
  if (n >= 1_000_000) return `${Number((n / 1_000_000).toFixed(2))}M`;
  if (n >= 1_000) return `${Number((n / 1_000).toFixed(1))}k`;
  return String(Math.round(n));
}

/** One short line: context used, the threshold of this version, tokens (and calls) left, microcompact. */
export function formatStatusLine(s: LiveStatus): string {
  const pct =
    s.contextWindowTokens > 0 ? Math.round((s.usedTokens / s.contextWindowTokens) * 100) : undefined;
  const parts = [
    `ctx ${formatTokensShort(s.usedTokens)}/${formatTokensShort(s.contextWindowTokens)}${pct === undefined ? '' : ` (${pct}%)`}`,
  ];
  if (s.autoCompactTokens === undefined) parts.push('auto-compact off');
  else {
    parts.push(
      `compact at ${formatTokensShort(s.autoCompactTokens)}${s.version ? ` (${s.strategyId === 'codex' ? 'codex ' : 'v'}${s.version})` : ''}`,
    );
    const calls = s.callsLeft === undefined ? '' : ` ≈${s.callsLeft} call${s.callsLeft === 1 ? '' : 's'}`;
    parts.push(
      s.tokensLeft === 0 ? 'compaction due' : `${formatTokensShort(s.tokensLeft ?? 0)} left${calls}`,
    );
  }
  if (s.microcompactNear) parts.push('microcompact near');
  if (s.compactions > 0) parts.push(`${s.compactions} compacted`);
  return parts.join(' · ');
}
