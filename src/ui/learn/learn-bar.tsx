import { useEffect, useRef, useState } from 'react';
import type { LearnBar } from '../../engine/learn/types';

// The trigger count call by call as bars up to the step's call, with the threshold line: the
// "bar filling" a class watches (▶ Fill replays it call by call). Calls past the threshold are
// drawn in the compaction colour; after a compaction, in the colour of the context after.

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
/** How long ▶ Fill takes to reach the step's call. */
const FILL_MS = 2_500;

export function LearnBarChart({ bar, large }: { bar: LearnBar; large: boolean }) {
  const n = bar.checkTokens.length;
  // undefined: every bar shown; a number: the bars shown so far while filling.
  const [shown, setShown] = useState<number | undefined>(undefined);
  const frame = useRef(0);
  useEffect(() => () => cancelAnimationFrame(frame.current), []);
  // A new walk or step shows its bars whole.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset on a new bar only
  useEffect(() => {
    cancelAnimationFrame(frame.current);
    setShown(undefined);
  }, [bar]);

  const fill = () => {
    cancelAnimationFrame(frame.current);
    const start = performance.now();
    const tick = (now: number) => {
      const count = Math.min(n, Math.ceil(((now - start) / FILL_MS) * (bar.focus + 1)));
      setShown(count >= n ? undefined : count);
      if (count < n) frame.current = requestAnimationFrame(tick);
    };
    setShown(0);
    frame.current = requestAnimationFrame(tick);
  };

  const top =
    Math.max(bar.limitTokens, bar.thresholdTokens, ...bar.checkTokens, ...bar.recordedTokens) * 1.02 || 1;
  const widthPx = 1000;
  const heightPx = large ? 220 : 150;
  const w = widthPx / Math.max(n, 1);
  const y = (tokens: number) => heightPx - (tokens / top) * heightPx;
  const visible = shown ?? n;
  const at = shown === undefined ? bar.focus : Math.max(0, Math.min(shown, n) - 1);
  const atTokens = bar.checkTokens[at] ?? 0;
  const atCall = bar.apiCalls[at];
  return (
    <figure className="learn-bar" data-testid="learn-bar">
      <svg
        viewBox={`0 0 ${widthPx} ${heightPx}`}
        preserveAspectRatio="none"
        role="img"
        aria-label={`Trigger count per API call; ${fmt(bar.checkTokens[bar.focus] ?? 0)} tokens at API call ${(bar.apiCalls[bar.focus] ?? 0) + 1}, threshold ${fmt(bar.thresholdTokens)}`}
      >
        {bar.checkTokens.slice(0, visible).map((t, i) => (
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
                : i > bar.focus && bar.afterEvent
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
        {shown === undefined && (
          <line
            x1={(bar.focus + 0.5) * w}
            x2={(bar.focus + 0.5) * w}
            y1={0}
            y2={heightPx}
            className="focus-line"
          />
        )}
        <line x1={0} x2={widthPx} y1={y(bar.limitTokens)} y2={y(bar.limitTokens)} className="limit" />
        {/* The log's own context, call by call, beside the replay's bars (issue 24 item 8). */}
        <polyline
          className="recorded"
          data-testid="learn-bar-recorded"
          points={bar.recordedTokens
            .slice(0, visible)
            .map((t, i) => `${((i + 0.5) * w).toFixed(1)},${y(t).toFixed(1)}`)
            .join(' ')}
        />
      </svg>
      <figcaption>
        <button type="button" className="btn" data-testid="learn-fill" onClick={fill}>
          ▶ Fill
        </button>{' '}
        <span className="learn-key focus">■</span>{' '}
        <span data-testid="learn-bar-at">
          API call {atCall === undefined ? '' : atCall + 1}: {fmt(atTokens)}
        </span>
        {bar.afterEvent && bar.focus < n - 1 && (
          <>
            {' · '}
            <span className="learn-key after">■</span> after the compaction
          </>
        )}
        {' · '}
        <span className="learn-key recorded">—</span> the log
        {' · '}
        <span data-testid="learn-bar-threshold">
          <span className="learn-key threshold">—</span> {bar.thresholdLabel} {fmt(bar.thresholdTokens)}
        </span>
        {' · '}
        <span className="learn-key limit">—</span> {bar.limitLabel} {fmt(bar.limitTokens)}
        {' · '}
        API calls {(bar.apiCalls[0] ?? 0) + 1}–{(bar.apiCalls.at(-1) ?? 0) + 1} ({n} main-thread calls)
      </figcaption>
    </figure>
  );
}
