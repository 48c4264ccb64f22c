import { useState } from 'react';
import { formatMillions, formatUsd, formatUsdDelta } from '../../engine/replay/compare-table';
import type { SettingRow } from '../../engine/stats/records';
import type { KnobSpec } from '../../engine/strategies/types';
import type { WhatIfState } from './what-if-run';

// What a library what-if found: per setting, the replayed cost beside the real cost priced the
// same way, compactions, tokens summarized and what the summaries kept; a chart of cost per
// setting and one of each session's replayed cost against its real cost; each session's figures.

const SERIES = 6;
const color = (i: number) => `var(--cmp-${i % SERIES})`;
const num = (row: SettingRow, key: keyof SettingRow) => Number(row[key] ?? 0);

/** A setting's short label: its swept value with the knob's unit (`60%`), else the whole label. */
function getShortLabel(row: SettingRow, unit: KnobSpec['unit']): string {
  if (row.value === undefined) return String(row.setting);
  return unit === 'percent'
    ? `${row.value}%`
    : unit === 'tokens'
      ? formatMillions(Number(row.value))
      : String(row.value);
}

/** Retention as a share and its counts; where no summary was made, nothing was forgotten (nothing scored). */
function formatRetention(row: SettingRow): string {
  if (row.retention === undefined || row.retention === '')
    return num(row, 'compactions') === 0 ? 'no summary' : '–';
  // Summaries made, but no fact read in what they summarized (an encrypted or empty history).
  if (num(row, 'heldFacts') === 0) return 'no facts read';
  return `${(Number(row.retention) * 100).toFixed(1)}% (${num(row, 'retainedFacts')}/${num(row, 'heldFacts')})`;
}

/** A session's path by its last folder and file: the part that tells sessions apart. */
function getShortPath(path: string): string {
  const parts = path.split('/');
  return parts.length > 2 ? `…/${parts.slice(-2).join('/')}` : path;
}

export function WhatIfResults({ state, unit }: { state: WhatIfState; unit: KnobSpec['unit'] }) {
  const { totals } = state;
  const labels = totals.map((t) => getShortLabel(t, unit));
  const scored = totals.some((t) => t.heldFacts !== undefined);
  return (
    <div className="whatif-results">
      <table className="whatif-table mono" data-testid="whatif-totals">
        <thead>
          <tr>
            <th className="left">setting</th>
            <th>sessions</th>
            <th>cost</th>
            <th title="The recorded usage of the calls the replay covers (each session's main conversation on its replayed line) and of its compactions' summary calls, at the same prices: the check">
              real cost (main thread)
            </th>
            <th>Δ</th>
            <th>compactions</th>
            <th>tokens summarized</th>
            {scored && (
              <th title="Facts held since each session's start still in its last summary, pooled">kept</th>
            )}
            {scored && <th title="Facts lost summary by summary">facts lost</th>}
          </tr>
        </thead>
        <tbody>
          {totals.map((t, i) => (
            <tr
              key={String(t.setting)}
              data-testid="whatif-total"
              data-setting={t.setting}
              data-cost={t.costUsd}
              data-real-cost={t.realCostUsd}
              data-logged-cost={t.loggedCostUsd}
              data-compactions={t.compactions}
              data-retention={t.retention}
            >
              <td className="left" title={String(t.setting)}>
                <span className="whatif-swatch" style={{ background: color(i) }} /> {labels[i]}
              </td>
              <td>
                {num(t, 'sessions')}
                {num(t, 'errors') > 0 && <span className="whatif-err"> ({num(t, 'errors')} unread)</span>}
              </td>
              <td>{formatUsd(num(t, 'costUsd'))}</td>
              <td>{formatUsd(num(t, 'realCostUsd'))}</td>
              <td>{formatUsdDelta(num(t, 'deltaUsd'))}</td>
              <td>{num(t, 'compactions')}</td>
              <td>{formatMillions(num(t, 'summarizedTokens'))}</td>
              {scored && <td>{formatRetention(t)}</td>}
              {scored && <td>{t.factsLost ?? '–'}</td>}
            </tr>
          ))}
        </tbody>
      </table>
      <p className="whatif-note muted" data-testid="whatif-real-note">
        {describeRealCost(totals[0])}
        {describeSessions(state)}
        {scored &&
          (totals[0]?.retentionModel === undefined
            ? " Kept: of the facts held since each session's start (paths, commands, errors, names), those still in its last summary, written by the built-in summarizer (offline, no model): it compares settings, not models."
            : ` Kept: of the facts held since each session's start (paths, commands, errors, names), those still in its last summary, written by ${String(totals[0].retentionModel)} from the request each compaction would send; a compaction whose call failed is not scored.`)}
      </p>
      <div className="whatif-charts">
        <CostPerSetting totals={totals} labels={labels} />
        <CostPerSession state={state} labels={labels} />
      </div>
      <SessionTable state={state} labels={labels} scored={scored} />
    </div>
  );
}

/**
 * What the real cost counts, and how it parts from the sessions' whole logged cost (the Usage
 * panel's and the list's): the same sums, by the rule of docs/cost.md#which-calls.
 */
function describeRealCost(t: SettingRow | undefined): string {
  if (!t) return '';
  const estimated = num(t, 'realSummariesEstimated');
  const parts = [
    num(t, 'subagentCostUsd') > 0 && `subagents' calls (${formatUsd(num(t, 'subagentCostUsd'))})`,
    num(t, 'otherBranchCostUsd') > 0 &&
      `the main thread's calls on branches the replay did not follow (${formatUsd(num(t, 'otherBranchCostUsd'))})`,
  ].filter(Boolean);
  const errors = num(t, 'errors');
  return [
    `Real cost: the recorded usage of the calls the replay covers, each session's main conversation along its replayed line, at the same prices (${String(t.pricesAsOf ?? '')}), the check on the replay`,
    estimated > 0
      ? `, with its compactions' summary calls (${estimated} estimated, ${formatUsd(num(t, 'realSummariesEstimatedUsd'))}: the log does not record them). `
      : '. ',
    `These sessions' whole recorded cost, as Usage and the list's cost column count it, is ${formatUsd(num(t, 'loggedCostUsd'))}`,
    parts.length > 0 ? `: it also counts ${parts.join(' and ')}` : '',
    estimated > 0 ? ', and not the estimated summary calls' : '',
    errors > 0 ? `; ${errors} unread ${errors === 1 ? 'session is' : 'sessions are'} in neither figure` : '',
    '.',
  ].join('');
}

/**
 * The sessions' agents and the calls no list price covers: every listed session is replayed under
 * the one strategy chosen, whichever agent wrote it, and a call whose model has no list price is in
 * neither cost (a session with none priced read "$0.000", as if it had cost nothing).
 */
function describeSessions(state: WhatIfState): string {
  const agents = new Map<string, number>();
  let unpricedSessions = 0;
  for (const s of state.sessions) {
    const row = s.rows[0];
    if (!row) continue;
    const agent = String(row.agent ?? '?');
    agents.set(agent, (agents.get(agent) ?? 0) + 1);
    if (num(row, 'pricedSessions') === 0) unpricedSessions++;
  }
  const unpricedCalls = num(state.totals[0] ?? {}, 'unpricedCalls');
  const out = [];
  if (agents.size > 1)
    out.push(
      ` Agents: ${[...agents].map(([a, n]) => `${a} ${n}`).join(', ')}: each session is replayed under the strategy chosen here, whichever agent wrote it.`,
    );
  if (unpricedCalls > 0)
    out.push(
      ` ${unpricedCalls.toLocaleString('en-US')} calls have no list price (their model is not in the price table) and are in neither cost${unpricedSessions > 0 ? `; ${unpricedSessions} ${unpricedSessions === 1 ? 'session has' : 'sessions have'} none priced ("no price" below)` : ''}.`,
    );
  return out.join('');
}

/** A cost cell: "no price" where none of the session's calls has a list price, not "$0.000". */
function formatSessionUsd(row: SettingRow, key: 'costUsd' | 'realCostUsd'): string {
  return num(row, 'pricedSessions') === 0 ? 'no price' : formatUsd(num(row, key));
}

const W = 420;
const H = 220;
const PAD = { l: 56, r: 12, t: 14, b: 40 };

/** A tick label's height above its baseline (11px text) and the gap kept from a line. */
const TICK_ASCENT = 11;
const TICK_GAP = 4;

/**
 * Where a bar's value sits: just above the bar, or above the real cost's dashed line where that
 * line would cross it (a cost within a few cents of the real one read "$46.06" struck through).
 */
export function labelBaseline(barTop: number, realY: number): number {
  const baseline = barTop - 4;
  const crossed = realY > baseline - TICK_ASCENT - TICK_GAP && realY < baseline + TICK_GAP;
  return crossed ? Math.min(baseline, realY - TICK_GAP - 1.5) : baseline;
}

/** Bars of each setting's cost, the real cost as a dashed line across, retention under each bar. */
function CostPerSetting({ totals, labels }: { totals: readonly SettingRow[]; labels: readonly string[] }) {
  const real = num(totals[0] ?? {}, 'realCostUsd');
  const max = Math.max(real, ...totals.map((t) => num(t, 'costUsd'))) * 1.1 || 1;
  const y = (usd: number) => PAD.t + (H - PAD.t - PAD.b) * (1 - usd / max);
  const slot = (W - PAD.l - PAD.r) / Math.max(1, totals.length);
  const bar = Math.min(48, slot * 0.6);
  return (
    <figure className="whatif-chart" data-testid="whatif-chart-settings">
      <figcaption>Cost per setting (dashed: the real cost, {formatUsd(real)})</figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} width={W} height={H} role="img" aria-label="Cost per setting">
        <line className="whatif-axis" x1={PAD.l} x2={W - PAD.r} y1={y(0)} y2={y(0)} />
        <text className="whatif-tick" x={PAD.l - 6} y={y(max / 1.1) + 4} textAnchor="end">
          {formatUsd(max / 1.1)}
        </text>
        <text className="whatif-tick" x={PAD.l - 6} y={y(0) + 4} textAnchor="end">
          $0
        </text>
        {totals.map((t, i) => {
          const cx = PAD.l + slot * (i + 0.5);
          const cost = num(t, 'costUsd');
          return (
            <g key={String(t.setting)}>
              <rect
                x={cx - bar / 2}
                y={y(cost)}
                width={bar}
                height={y(0) - y(cost)}
                style={{ fill: color(i) }}
              >
                <title>{`${t.setting}: ${formatUsd(cost)}, real ${formatUsd(real)}`}</title>
              </rect>
              <text
                className="whatif-tick"
                x={cx}
                y={labelBaseline(y(cost), y(real))}
                textAnchor="middle"
                data-testid="whatif-bar-value"
              >
                {formatUsd(cost)}
              </text>
              <text className="whatif-tick" x={cx} y={H - PAD.b + 16} textAnchor="middle">
                {labels[i]}
              </text>
              {t.heldFacts !== undefined && (
                <text className="whatif-tick muted" x={cx} y={H - PAD.b + 30} textAnchor="middle">
                  {t.retention === undefined
                    ? 'no summary'
                    : `kept ${(Number(t.retention) * 100).toFixed(0)}%`}
                </text>
              )}
            </g>
          );
        })}
        <line className="whatif-real" x1={PAD.l} x2={W - PAD.r} y1={y(real)} y2={y(real)} />
      </svg>
    </figure>
  );
}

/** Each session's replayed cost (a dot per setting) against its real cost; on the diagonal, the same. */
function CostPerSession({ state, labels }: { state: WhatIfState; labels: readonly string[] }) {
  const points = state.sessions.flatMap((s) =>
    s.rows.map((r) => ({
      s,
      r,
      i: labels.length ? state.totals.findIndex((t) => t.setting === r.setting) : 0,
    })),
  );
  const max =
    Math.max(0.01, ...points.map((p) => Math.max(num(p.r, 'costUsd'), num(p.r, 'realCostUsd')))) * 1.05;
  const x = (usd: number) => PAD.l + (W - PAD.l - PAD.r) * (usd / max);
  const y = (usd: number) => PAD.t + (H - PAD.t - PAD.b) * (1 - usd / max);
  return (
    <figure className="whatif-chart" data-testid="whatif-chart-sessions">
      <figcaption>Each session: replayed cost against its real cost</figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} width={W} height={H} role="img" aria-label="Cost per session">
        <line className="whatif-axis" x1={PAD.l} x2={W - PAD.r} y1={y(0)} y2={y(0)} />
        <line className="whatif-axis" x1={PAD.l} x2={PAD.l} y1={y(0)} y2={PAD.t} />
        <line className="whatif-real" x1={x(0)} y1={y(0)} x2={x(max)} y2={y(max)} />
        <text className="whatif-tick" x={PAD.l - 6} y={y(max) + 10} textAnchor="end">
          {formatUsd(max)}
        </text>
        <text className="whatif-tick" x={W - PAD.r} y={H - PAD.b + 16} textAnchor="end">
          real {formatUsd(max)}
        </text>
        <text className="whatif-tick" x={PAD.l} y={H - PAD.b + 16}>
          $0
        </text>
        <text className="whatif-tick" x={PAD.l + 4} y={PAD.t + 10}>
          replayed
        </text>
        {points.map(({ s, r, i }) => (
          <circle
            key={`${s.file}\u0000${r.setting}`}
            cx={x(num(r, 'realCostUsd'))}
            cy={y(num(r, 'costUsd'))}
            r={3.5}
            style={{ fill: color(i), stroke: color(i) }}
            className="whatif-dot"
          >
            <title>{`${s.file}\n${r.setting}: ${formatUsd(num(r, 'costUsd'))}, real ${formatUsd(num(r, 'realCostUsd'))}`}</title>
          </circle>
        ))}
      </svg>
    </figure>
  );
}

/** Per session: cost and what it kept at each setting, beside its real cost. */
function SessionTable({
  state,
  labels,
  scored,
}: {
  state: WhatIfState;
  labels: readonly string[];
  scored: boolean;
}) {
  // Rendered only while open: a library of hundreds of sessions is a table of hundreds of rows.
  const [open, setOpen] = useState(false);
  return (
    <details className="whatif-sessions" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>Per session ({state.sessions.length})</summary>
      {open && (
        <div className="whatif-sessions-scroll">
          <table className="whatif-table mono" data-testid="whatif-session-table">
            <thead>
              <tr>
                <th className="left">session</th>
                <th className="left">agent</th>
                <th>real cost</th>
                {labels.map((l, i) => (
                  <th key={l} colSpan={scored ? 2 : 1}>
                    <span className="whatif-swatch" style={{ background: color(i) }} /> {l}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {state.sessions.map((s) => (
                <tr key={s.file} data-testid="whatif-session">
                  <td className="left whatif-file" title={s.file}>
                    {getShortPath(s.file)}
                  </td>
                  <td className="left" data-testid="whatif-session-agent">
                    {String(s.rows[0]?.agent ?? '')}
                  </td>
                  {s.error !== undefined ? (
                    <td className="whatif-err left" colSpan={1 + labels.length * (scored ? 2 : 1)}>
                      {s.error}
                    </td>
                  ) : s.rows.length === 0 ? (
                    <td className="muted left" colSpan={1 + labels.length * (scored ? 2 : 1)}>
                      no API call
                    </td>
                  ) : (
                    <>
                      <td data-testid="whatif-session-real">{formatSessionUsd(s.rows[0]!, 'realCostUsd')}</td>
                      {s.rows.map((r) => (
                        <SessionCells key={String(r.setting)} row={r} scored={scored} />
                      ))}
                    </>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </details>
  );
}

function SessionCells({ row, scored }: { row: SettingRow; scored: boolean }) {
  return (
    <>
      <td title={`${num(row, 'compactions')} compactions`}>{formatSessionUsd(row, 'costUsd')}</td>
      {scored && <td>{formatRetention(row)}</td>}
    </>
  );
}
