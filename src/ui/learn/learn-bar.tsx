import type { LearnBar } from '../../engine/learn/types';

// The trigger count call by call as bars up to the step's call, with the threshold line: the
// "bar filling" a class watches. Calls past the threshold are drawn in the compaction colour.

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

export function LearnBarChart({ bar, large }: { bar: LearnBar; large: boolean }) {
  const n = bar.checkTokens.length;
  const top = Math.max(bar.limitTokens, bar.thresholdTokens, ...bar.checkTokens) * 1.02 || 1;
  const widthPx = 1000;
  const heightPx = large ? 220 : 150;
  const w = widthPx / Math.max(n, 1);
  const y = (tokens: number) => heightPx - (tokens / top) * heightPx;
  const focusTokens = bar.checkTokens[bar.focus] ?? 0;
  const focusCall = bar.apiCalls[bar.focus];
  return (
    <figure className="learn-bar" data-testid="learn-bar">
      <svg
        viewBox={`0 0 ${widthPx} ${heightPx}`}
        preserveAspectRatio="none"
        role="img"
        aria-label={`Trigger count per API call; ${fmt(focusTokens)} tokens at API call ${focusCall === undefined ? '' : focusCall + 1}, threshold ${fmt(bar.thresholdTokens)}`}
      >
        {bar.checkTokens.map((t, i) => (
          <rect
            // biome-ignore lint/suspicious/noArrayIndexKey: one bar per call, in call order
            key={i}
            x={i * w}
            y={y(t)}
            width={Math.max(w - (w > 3 ? 1 : 0), 0.5)}
            height={heightPx - y(t)}
            className={
              i === bar.focus
                ? 'focus'
                : i > bar.focus
                  ? 'after'
                  : t >= bar.thresholdTokens && bar.thresholdTokens > 0
                    ? 'over'
                    : undefined
            }
          />
        ))}
        {bar.thresholdTokens > 0 && (
          <line
            x1={0}
            x2={widthPx}
            y1={y(bar.thresholdTokens)}
            y2={y(bar.thresholdTokens)}
            className="threshold"
          />
        )}
        <line
          x1={(bar.focus + 0.5) * w}
          x2={(bar.focus + 0.5) * w}
          y1={0}
          y2={heightPx}
          className="focus-line"
        />
        <line x1={0} x2={widthPx} y1={y(bar.limitTokens)} y2={y(bar.limitTokens)} className="limit" />
      </svg>
      <figcaption>
        <span className="learn-key focus">■</span> API call {focusCall === undefined ? '' : focusCall + 1}:{' '}
        {fmt(focusTokens)}
        {' · '}
        <span className="learn-key threshold">—</span> {bar.thresholdLabel} {fmt(bar.thresholdTokens)}
        {' · '}
        <span className="learn-key limit">—</span> {bar.limitLabel} {fmt(bar.limitTokens)}
        {' · '}
        {n} calls shown
      </figcaption>
    </figure>
  );
}
