import type { BoundaryCandidate } from '../../engine/strategies/boundary-scoring/detail';

// The candidate splits a boundary-scoring compaction weighed (strategies/boundary-scoring/index.ts):
// one bar per candidate message, its score as the height, the chosen one marked, so a user sees
// why the split fell where it did. Hovering a bar lists its terms.

const WIDTH_PX = 300;
const HEIGHT_PX = 120;
const PAD_PX = { top: 14, right: 6, bottom: 20, left: 30 };

export function BoundaryScores({ candidates }: { candidates: readonly BoundaryCandidate[] }) {
  if (candidates.length === 0) return null;
  const scores = candidates.map((c) => c.score);
  const max = Math.max(0, ...scores);
  const min = Math.min(0, ...scores);
  const span = max - min || 1;
  const plotW = WIDTH_PX - PAD_PX.left - PAD_PX.right;
  const plotH = HEIGHT_PX - PAD_PX.top - PAD_PX.bottom;
  const y = (v: number) => PAD_PX.top + ((max - v) / span) * plotH;
  const slot = plotW / candidates.length;
  const barW = Math.max(2, slot * 0.7);
  const chosen = candidates.find((c) => c.chosen);
  return (
    <div className="boundary-scores" data-testid="boundary-scores">
      <h4>
        Candidate boundaries{' '}
        <span className="muted small">
          {chosen ? `split before message ${chosen.messageIndex} (score ${chosen.score})` : 'none chosen'}
        </span>
      </h4>
      <svg
        width={WIDTH_PX}
        height={HEIGHT_PX}
        role="img"
        aria-label={`Scores of ${candidates.length} candidate boundaries`}
      >
        <line x1={PAD_PX.left} x2={WIDTH_PX - PAD_PX.right} y1={y(0)} y2={y(0)} className="bs-axis" />
        <text x={PAD_PX.left - 4} y={y(max) + 4} className="bs-label" textAnchor="end">
          {max}
        </text>
        {min < 0 && (
          <text x={PAD_PX.left - 4} y={y(min) + 4} className="bs-label" textAnchor="end">
            {min}
          </text>
        )}
        {candidates.map((c, i) => {
          const x = PAD_PX.left + i * slot + (slot - barW) / 2;
          const top = Math.min(y(c.score), y(0));
          const terms = c.factors.map((f) => `${f.id} ${f.points > 0 ? '+' : ''}${f.points}`).join(', ');
          return (
            <g
              key={c.messageIndex}
              data-testid="boundary-score-bar"
              data-message-index={c.messageIndex}
              data-score={c.score}
              data-chosen={c.chosen || undefined}
              data-unsafe={c.unsafe || undefined}
            >
              <title>
                {`message ${c.messageIndex} (entry ${c.entryIndex}): ${c.score} = ${terms}${c.unsafe ? ' · splits a tool call from its result: not eligible' : ''}${c.chosen ? ' · chosen' : ''}`}
              </title>
              <rect
                x={x}
                y={top}
                width={barW}
                height={Math.max(1, Math.abs(y(c.score) - y(0)))}
                className={c.chosen ? 'bs-bar chosen' : c.unsafe ? 'bs-bar unsafe' : 'bs-bar'}
              />
              {c.chosen && (
                <text x={x + barW / 2} y={top - 3} className="bs-label" textAnchor="middle">
                  ▼
                </text>
              )}
              {(i === 0 || i === candidates.length - 1 || c.chosen) && (
                <text x={x + barW / 2} y={HEIGHT_PX - 6} className="bs-label" textAnchor="middle">
                  {c.messageIndex}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <p className="muted small">Message index of each candidate split; hover a bar for its terms.</p>
    </div>
  );
}
