import { useShallow } from 'zustand/react/shallow';
import { Suspense, useState } from 'react';
import { FACT_CATEGORIES, FACT_CATEGORY_LABELS } from '../../engine/retention/types';
import { formatCount, formatDuration } from '../common/format';

/** Durations under a second in milliseconds (the built-in summarizer takes a few). */
export function formatRunDuration(ms: number): string {
  return ms < 1_000 ? `${Math.round(ms)} ms` : formatDuration(ms);
}
import { TextDiff } from './lazy-editors';
import { RetentionBadge, RetentionView } from './retention-view';
import type { SummaryRun } from './runs-db';
import { useSummariesStore } from './summaries-store';

// Two runs: their summaries (or prompts) in Monaco's diff editor, with settings and figures
// diffed beside. More than two: a matrix of runs × metrics, like promptfoo's compare view.

interface Metric {
  label: string;
  value: (run: SummaryRun) => string;
  /** For numeric rows: which value is best (the cell is highlighted). */
  score?: (run: SummaryRun) => number | undefined;
  better?: 'higher' | 'lower';
}

const pct = (ratio: number) => `${Math.round(ratio * 100)}%`;

const SETTINGS: Metric[] = [
  { label: 'Preset', value: (r) => r.settings.presetId },
  { label: 'Summarizer', value: (r) => r.summarizer.kind },
  { label: 'Model', value: (r) => r.summarizer.model },
  { label: 'Point', value: (r) => r.point.label },
  { label: 'Transcript', value: (r) => r.transcript.name },
  { label: 'Prompt', value: (r) => `${formatCount(r.settings.prompt.length)} chars` },
  { label: 'Custom instructions', value: (r) => r.settings.customInstructions || '—' },
  { label: 'System prompt', value: (r) => r.settings.systemPrompt },
  { label: 'Max output tokens', value: (r) => formatCount(r.settings.maxOutputTokens) },
  {
    label: 'Temperature',
    value: (r) => (r.settings.temperature === undefined ? 'default' : String(r.settings.temperature)),
  },
];

const FIGURES: Metric[] = [
  {
    label: 'Retention',
    value: (r) => `${pct(r.retention.ratio)} (${r.retention.kept}/${r.retention.total})`,
    score: (r) => r.retention.ratio,
    better: 'higher',
  },
  ...FACT_CATEGORIES.map(
    (c): Metric => ({
      label: `  ${FACT_CATEGORY_LABELS[c]}`,
      value: (r) => {
        const s = r.retention.byCategory[c];
        return s?.total ? `${s.kept}/${s.total}` : '—';
      },
      score: (r) => (r.retention.byCategory[c]?.total ? r.retention.byCategory[c]!.ratio : undefined),
      better: 'higher',
    }),
  ),
  {
    label: 'Summary tokens',
    value: (r) => formatCount(r.summaryTokens),
    score: (r) => r.summaryTokens,
    better: 'lower',
  },
  { label: 'Tokens in', value: (r) => formatCount(r.tokensIn) },
  {
    label: 'Request tokens',
    value: (r) =>
      r.requestExactTokens === undefined
        ? `≈${formatCount(r.requestEstimatedTokens)} (chars / 4)`
        : `${formatCount(r.requestExactTokens)} exact`,
  },
  { label: 'Tokens out', value: (r) => formatCount(r.tokensOut), score: (r) => r.tokensOut, better: 'lower' },
  {
    label: 'Duration',
    value: (r) => formatRunDuration(r.durationMs),
    score: (r) => r.durationMs,
    better: 'lower',
  },
  {
    label: 'Cost',
    value: (r) => (r.costUsd === undefined ? '—' : `$${r.costUsd.toFixed(4)}`),
    score: (r) => r.costUsd,
    better: 'lower',
  },
];

function bestIndex(runs: SummaryRun[], metric: Metric): number | undefined {
  if (!metric.score) return undefined;
  const scores = runs.map(metric.score);
  const defined = scores.filter((x): x is number => x !== undefined);
  if (defined.length < 2 || defined.every((x) => x === defined[0])) return undefined;
  const best = metric.better === 'higher' ? Math.max(...defined) : Math.min(...defined);
  return scores.indexOf(best);
}

function MetricRows({ runs, metrics, section }: { runs: SummaryRun[]; metrics: Metric[]; section: string }) {
  return (
    <>
      <tr className="section-row">
        <th colSpan={runs.length + 1}>{section}</th>
      </tr>
      {metrics.map((metric) => {
        const values = runs.map(metric.value);
        const differs = values.some((v) => v !== values[0]);
        const best = bestIndex(runs, metric);
        return (
          <tr key={metric.label} className={differs ? 'differs' : ''}>
            <th scope="row">{metric.label}</th>
            {values.map((v, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: one cell per run, in run order
              <td key={i} className={`${i === best ? 'best' : ''} small`} title={v}>
                {v}
              </td>
            ))}
          </tr>
        );
      })}
    </>
  );
}

function MetricsTable({ runs, testId }: { runs: SummaryRun[]; testId: string }) {
  return (
    // Two runs (the diff): A and B, named in the toolbar above, in columns of equal width beside
    // the labels, so B is never pushed out of the side panel by A's long name (issue 24 item 3).
    <table className={`compare-table${runs.length === 2 ? ' two-runs' : ''}`} data-testid={testId}>
      <thead>
        <tr>
          <th />
          {runs.map((run, i) => (
            <th
              key={run.id}
              title={run.name}
              data-run={runs.length === 2 ? (i === 0 ? 'A' : 'B') : undefined}
            >
              {runs.length === 2 ? (i === 0 ? 'A' : 'B') : run.name}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        <MetricRows runs={runs} metrics={FIGURES} section="Figures" />
        <MetricRows runs={runs} metrics={SETTINGS} section="Settings" />
      </tbody>
    </table>
  );
}

export function CompareView({ runs }: { runs: SummaryRun[] }) {
  if (runs.length > 2) {
    return (
      <div className="compare" data-testid="runs-matrix">
        <h3>
          Matrix · {runs.length} runs × metrics{' '}
          <span className="muted small">(best value per row highlighted; rows that differ are marked)</span>
        </h3>
        <div className="matrix-scroll">
          <MetricsTable runs={runs} testId="matrix-table" />
        </div>
      </div>
    );
  }
  return <CompareTwo a={runs[0]!} b={runs[1]!} />;
}

function CompareTwo({ a, b }: { a: SummaryRun; b: SummaryRun }) {
  const s = useSummariesStore(
    useShallow((st) => ({
      compareTarget: st.compareTarget,
      diffInline: st.diffInline,
      diffOnlyChanges: st.diffOnlyChanges,
      set: st.set,
    })),
  );
  const [changes, setChanges] = useState<number>();
  const original = s.compareTarget === 'summary' ? a.summary : a.settings.prompt;
  const modified = s.compareTarget === 'summary' ? b.summary : b.settings.prompt;
  return (
    <div className="compare" data-testid="run-diff">
      <div className="compare-toolbar">
        <strong>
          A · {a.name} <span className="muted">vs</span> B · {b.name}
        </strong>
        <span className="spacer" />
        <select
          aria-label="Compare"
          value={s.compareTarget}
          onChange={(e) => s.set({ compareTarget: e.currentTarget.value as 'summary' | 'prompt' })}
          data-testid="compare-target"
        >
          <option value="summary">summaries</option>
          <option value="prompt">prompts</option>
        </select>
        <label className="radio">
          <input
            type="checkbox"
            checked={s.diffInline}
            onChange={(e) => s.set({ diffInline: e.currentTarget.checked })}
            data-testid="diff-inline"
          />
          Inline
        </label>
        <label className="radio">
          <input
            type="checkbox"
            checked={s.diffOnlyChanges}
            onChange={(e) => s.set({ diffOnlyChanges: e.currentTarget.checked })}
            data-testid="diff-only-changes"
          />
          Only differences
        </label>
        <span className="muted small" data-testid="diff-changes">
          {changes === undefined ? '' : `${changes} changed region${changes === 1 ? '' : 's'}`}
        </span>
      </div>
      <div className="compare-body">
        <Suspense fallback={<div className="muted pad">Loading diff…</div>}>
          <TextDiff
            original={original}
            modified={modified}
            inline={s.diffInline}
            onlyChanges={s.diffOnlyChanges}
            onChanges={setChanges}
          />
        </Suspense>
        <div className="compare-side">
          <div className="compare-retention">
            <div>
              <span className="muted">A</span>{' '}
              <RetentionBadge ratio={a.retention.ratio} total={a.retention.total} />
            </div>
            <div>
              <span className="muted">B</span>{' '}
              <RetentionBadge ratio={b.retention.ratio} total={b.retention.total} />
            </div>
          </div>
          <MetricsTable runs={[a, b]} testId="compare-table" />
          <details>
            <summary className="small">What A missed</summary>
            <RetentionView retention={a.retention} />
          </details>
          <details>
            <summary className="small">What B missed</summary>
            <RetentionView retention={b.retention} />
          </details>
        </div>
      </div>
    </div>
  );
}
