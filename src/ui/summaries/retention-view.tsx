import { useState } from 'react';
import { FACT_CATEGORIES, FACT_CATEGORY_LABELS } from '../../engine/retention/types';
import type { SummaryRun } from './runs-db';

/** "82%" with a colour class by how much was kept. */
export function RetentionBadge({ ratio, total }: { ratio: number; total: number }) {
  const pct = Math.round(ratio * 100);
  const tone = total === 0 ? 'muted' : pct >= 80 ? 'good' : pct >= 50 ? 'fair' : 'poor';
  return (
    <span
      className={`retention-badge ${tone}`}
      title={total === 0 ? 'No facts to keep in this span' : `${pct}% of ${total} facts kept`}
    >
      {total === 0 ? '—' : `${pct}%`}
    </span>
  );
}

/** Retention of one run: overall, per category, and the facts the summary lost. */
export function RetentionView({ retention }: { retention: SummaryRun['retention'] }) {
  const [showMissed, setShowMissed] = useState(false);
  return (
    <div className="retention" data-testid="retention">
      <div className="retention-head">
        <strong>Retention</strong> <RetentionBadge ratio={retention.ratio} total={retention.total} />
        <span className="muted">
          {retention.kept} of {retention.total} facts kept (exact, normalized or near-verbatim match)
        </span>
      </div>
      <table className="retention-table">
        <tbody>
          {FACT_CATEGORIES.map((category) => {
            const score = retention.byCategory[category];
            if (!score || score.total === 0) return null;
            return (
              <tr key={category}>
                <td>{FACT_CATEGORY_LABELS[category]}</td>
                <td className="num">
                  {score.kept}/{score.total}
                </td>
                <td className="bar-cell">
                  <span className="bar">
                    <span className="fill" style={{ width: `${Math.round(score.ratio * 100)}%` }} />
                  </span>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {retention.missed.length > 0 && (
        <div>
          <button
            type="button"
            className="btn link small"
            onClick={() => setShowMissed(!showMissed)}
            data-testid="toggle-missed"
          >
            {showMissed ? 'Hide' : 'Show'} the {retention.missed.length} missed facts
          </button>
          {showMissed && (
            <ul className="missed-list mono small">
              {retention.missed.map((m, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: the list never reorders
                <li key={i}>
                  <span className="muted">{FACT_CATEGORY_LABELS[m.category]}:</span> {m.text}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
