import { useEffect, useMemo, useRef, useState } from 'react';
import { PRICES_SEEN } from '../../engine/cost/prices-seen';
import { formatMillions, formatUsd } from '../../engine/replay/compare-table';
import type { UsageGroup, UsageSession } from '../../engine/stats/usage';
import { packUsage } from '../../engine/stats/usage-pack';
import { getEngineClient } from '../../worker/engine-client';
import { ABORT_ERROR } from '../../worker/protocol';
import { formatCount } from '../common/format';
import type { LibrarySession } from './library-store';
import { DayChart, describeGroup, ProjectChart, TOKEN_KINDS } from './usage-charts';
import { useUsageStore } from './usage-store';
import './what-if.css';
import './usage.css';

// The library's usage and cost by day and by project, as ccusage and claude-code-viewer show
// them: the listed sessions' calls (kept with each row by the scan) grouped in the engine worker
// with `compactlab stats --by`'s code, drawn as bars or as tables; a day or a project chosen filters
// the list to its sessions.

/** Least time between two groupings while the scan hands over rows (ms). Ours: 4 a second. */
const REGROUP_MS = 250;

interface Grouped {
  /** Sessions with a call. */
  byDay: UsageGroup[];
  byProject: UsageGroup[];
  sessions: number;
}

const browserZone = () => new Intl.DateTimeFormat().resolvedOptions().timeZone;

export default function UsagePanel({
  sessions,
  scanning,
}: {
  /** The listed sessions (search and agent applied, not the usage filter). */
  sessions: readonly LibrarySession[];
  scanning: boolean;
}) {
  const { zone, metric, view, filter } = useUsageStore();
  const { set, toggleFilter, clearFilter } = useUsageStore.getState();
  const timeZone = zone === 'UTC' ? 'UTC' : browserZone();
  const [grouped, setGrouped] = useState<Grouped>();
  const [error, setError] = useState<string>();
  const input = useMemo(
    () =>
      sessions.flatMap((s): UsageSession[] =>
        s.row?.usage ? [{ key: s.key, cwd: s.row.cwd ?? '', buckets: s.row.usage }] : [],
      ),
    [sessions],
  );
  const lastRun = useRef(Number.NEGATIVE_INFINITY);
  const latest = useRef(0);
  useEffect(() => {
    // The scan hands over rows every 100 ms: the charts follow it at most every REGROUP_MS (a
    // throttle, not a debounce, so they grow while the scan runs), the latest answer shown.
    const timer = setTimeout(
      () => {
        lastRun.current = performance.now();
        const mine = ++latest.current;
        getEngineClient()
          .request({ kind: 'library-usage', usage: packUsage(input), timeZone })
          .then((r) => {
            if (mine !== latest.current) return;
            setGrouped({
              byDay: r.byDay,
              byProject: r.byProject,
              sessions: input.filter((s) => s.buckets.length > 0).length,
            });
            setError(undefined);
          })
          .catch((e: unknown) => {
            if (mine === latest.current && !(e instanceof Error && e.name === ABORT_ERROR))
              setError(e instanceof Error ? e.message : String(e));
          });
      },
      Math.max(0, lastRun.current + REGROUP_MS - performance.now()),
    );
    return () => clearTimeout(timer);
  }, [input, timeZone]);

  const pick = (by: 'day' | 'project') => (g: UsageGroup) =>
    toggleFilter({ by, key: g.key, label: g.label, sessionKeys: new Set(g.sessionKeys) });
  const total = grouped?.byProject.reduce((s, g) => s + g.costUsd, 0) ?? 0;
  const unpriced = grouped?.byProject.reduce((s, g) => s + g.unpricedCalls, 0) ?? 0;
  const pending = sessions.length - input.length;

  return (
    <section className="whatif usage" data-testid="usage-panel" aria-label="Usage by day and project">
      <div className="whatif-form">
        <strong>Usage</strong>
        <span className="muted" data-testid="usage-summary">
          {grouped
            ? `${formatUsd(total)} over ${grouped.sessions} ${grouped.sessions === 1 ? 'session' : 'sessions'}${
                unpriced > 0 ? ` (+${formatCount(unpriced)} calls of unpriced models)` : ''
              } at list prices as of ${PRICES_SEEN}`
            : 'Grouping…'}
          {scanning || pending > 0 ? ` · ${pending} still scanning` : ''}
        </span>
        <fieldset className="whatif-mode">
          <legend className="visually-hidden">Bars show</legend>
          {(['cost', 'tokens'] as const).map((m) => (
            <label key={m}>
              <input
                type="radio"
                name="usage-metric"
                checked={metric === m}
                onChange={() => set({ metric: m })}
              />{' '}
              {m === 'cost' ? 'Cost' : 'Tokens'}
            </label>
          ))}
        </fieldset>
        <label>
          Days in{' '}
          <select
            value={zone}
            onChange={(e) => set({ zone: e.currentTarget.value as 'local' | 'UTC' })}
            data-testid="usage-zone"
          >
            <option value="local">{browserZone()} (this browser)</option>
            <option value="UTC">UTC</option>
          </select>
        </label>
        <button
          type="button"
          className="btn"
          aria-pressed={view === 'table'}
          onClick={() => set({ view: view === 'table' ? 'chart' : 'table' })}
          data-testid="usage-view"
        >
          {view === 'table' ? 'Show charts' : 'Show as tables'}
        </button>
        {filter && (
          <span className="usage-filter" data-testid="usage-filter">
            List: {filter.by === 'day' ? `sessions with calls on ${filter.label}` : `project ${filter.label}`}
            <button type="button" className="btn" onClick={clearFilter} aria-label="Show all sessions">
              ✕
            </button>
          </span>
        )}
      </div>
      {error && (
        <p className="library-error" role="alert">
          {error}
        </p>
      )}
      {grouped && grouped.byDay.length === 0 && <p className="muted">No API calls in the listed sessions.</p>}
      {grouped && grouped.byDay.length > 0 && view === 'chart' && (
        <>
          <div className="whatif-charts">
            <DayChart
              groups={grouped.byDay}
              metric={metric}
              selected={filter?.by === 'day' ? filter.key : undefined}
              onPick={pick('day')}
            />
            <ProjectChart
              groups={grouped.byProject}
              metric={metric}
              selected={filter?.by === 'project' ? filter.key : undefined}
              onPick={pick('project')}
            />
          </div>
          <p className="whatif-note muted" data-testid="usage-note">
            {metric === 'tokens' && <Legend />}Every call the logs record, subagents' too (What if…'s real
            cost counts only the main thread's calls it replays). A day is the local date of each call in{' '}
            {timeZone} (a session across midnight counts on both days); a project, the folder the agent ran
            in. Click a bar, or Tab to it and press Enter, to list its sessions.
          </p>
        </>
      )}
      {grouped && grouped.byDay.length > 0 && view === 'table' && (
        <div className="usage-tables">
          <UsageTable
            caption={`By day (${timeZone})`}
            groups={grouped.byDay}
            selected={filter?.by === 'day' ? filter.key : undefined}
            onPick={pick('day')}
            testId="usage-table-day"
          />
          <UsageTable
            caption="By project"
            groups={grouped.byProject}
            selected={filter?.by === 'project' ? filter.key : undefined}
            onPick={pick('project')}
            testId="usage-table-project"
          />
        </div>
      )}
    </section>
  );
}

function Legend() {
  return (
    <span className="usage-legend">
      {TOKEN_KINDS.map((k) => (
        <span key={k.key}>
          <span className="whatif-swatch" style={{ background: k.color }} /> {k.label}
        </span>
      ))}{' '}
    </span>
  );
}

/** The table alternative: every group's figures; its first cell a button that chooses it. */
function UsageTable({
  caption,
  groups,
  selected,
  onPick,
  testId,
}: {
  caption: string;
  groups: readonly UsageGroup[];
  selected?: string;
  onPick(g: UsageGroup): void;
  testId: string;
}) {
  return (
    <div className="usage-table-wrap">
      <table className="whatif-table mono" data-testid={testId}>
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th className="left">{caption.startsWith('By day') ? 'day' : 'project'}</th>
            <th>cost</th>
            <th>sessions</th>
            <th>calls</th>
            <th>input</th>
            <th>output</th>
            <th>
              cache
              <br />
              read
            </th>
            <th>
              cache
              <br />
              write
            </th>
          </tr>
        </thead>
        <tbody>
          {groups.map((g) => (
            <tr
              key={g.key || '(none)'}
              data-key={g.key}
              className={selected === g.key ? 'selected' : undefined}
            >
              <td className="left">
                <button
                  type="button"
                  className="usage-pick"
                  aria-pressed={selected === g.key}
                  title={`${describeGroup(g)}${g.key && caption === 'By project' ? `\n${g.key}` : ''}`}
                  onClick={() => onPick(g)}
                >
                  {g.label}
                </button>
              </td>
              <td>
                {formatUsd(g.costUsd)}
                {g.unpricedCalls > 0 && (
                  <span className="muted" title={`${g.unpricedCalls} calls of models without a list price`}>
                    {' '}
                    (+{g.unpricedCalls})
                  </span>
                )}
              </td>
              <td>{g.sessions}</td>
              <td>{formatCount(g.calls)}</td>
              <td>{formatMillions(g.input)}</td>
              <td>{formatMillions(g.output)}</td>
              <td>{formatMillions(g.cacheRead)}</td>
              <td>{formatMillions(g.cacheWrite)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
