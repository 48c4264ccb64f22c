import { useShallow } from 'zustand/react/shallow';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useRef, useState } from 'react';
import { PROMPT_PRESETS } from '../../engine/strategies/prompt-presets';
import { formatCount, formatDateTime } from '../common/format';
import { CompareView, formatRunDuration } from './compare-view';
import { RetentionBadge } from './retention-view';
import {
  deleteRuns,
  importRuns,
  renameRun,
  type SummaryRun,
  saveRun,
  serializeRuns,
  setRunStarred,
} from './runs-db';
import { RUNS_QUERY_KEY, summaryRunsQuery } from './summaries-queries';
import { type SortKey, useSummariesStore } from './summaries-store';

// Every stored run: sortable, filterable by transcript, preset and summarizer; rename, star,
// delete (with undo), export and import; tick two or more to compare them.

function sortValue(run: SummaryRun, key: SortKey): number | string {
  switch (key) {
    case 'name':
      return run.name.toLowerCase();
    case 'retention':
      return run.retention.ratio;
    case 'costUsd':
      return run.costUsd ?? -1;
    default:
      return run[key];
  }
}

/** The run's prompt or system prompt differs from its preset's (false for a preset this build lacks). */
function isEditedPrompt(run: SummaryRun): boolean {
  const preset = PROMPT_PRESETS.find((p) => p.id === run.settings.presetId);
  return (
    preset !== undefined &&
    (run.settings.prompt !== preset.prompt || run.settings.systemPrompt !== preset.systemPrompt)
  );
}

function download(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}

export function RunsSection({ contentHash }: { contentHash: string }) {
  const queryClient = useQueryClient();
  const s = useSummariesStore(
    useShallow((st) => ({
      filterPreset: st.filterPreset,
      filterSummarizer: st.filterSummarizer,
      filterTranscript: st.filterTranscript,
      selectedRunIds: st.selectedRunIds,
      set: st.set,
      setSort: st.setSort,
      sortDescending: st.sortDescending,
      sortKey: st.sortKey,
    })),
  );
  const runs = useQuery(summaryRunsQuery());
  const fileInput = useRef<HTMLInputElement>(null);
  const [notice, setNotice] = useState<{ kind: 'info' | 'error'; text: string; undo?: SummaryRun[] }>();
  const refresh = () => queryClient.invalidateQueries({ queryKey: RUNS_QUERY_KEY });
  /** Deletes at once and offers Undo (the runs are kept in memory until the next notice). */
  const remove = async (gone: SummaryRun[]) => {
    await deleteRuns(gone.map((r) => r.id));
    const ids = new Set(gone.map((r) => r.id));
    s.set({ selectedRunIds: s.selectedRunIds.filter((id) => !ids.has(id)) });
    setNotice({
      kind: 'info',
      text: `Deleted ${gone.length === 1 ? `“${gone[0]!.name}”` : `${gone.length} runs`}.`,
      undo: gone,
    });
    await refresh();
  };
  const undo = async (gone: SummaryRun[]) => {
    for (const run of gone) await saveRun(run);
    setNotice({ kind: 'info', text: `Restored ${gone.length === 1 ? 'the run' : `${gone.length} runs`}.` });
    await refresh();
  };

  const visible = useMemo(() => {
    const list = (runs.data ?? []).filter(
      (r) =>
        (s.filterTranscript === 'all' || r.transcript.contentHash === contentHash) &&
        (!s.filterPreset || r.settings.presetId === s.filterPreset) &&
        (!s.filterSummarizer || r.summarizer.kind === s.filterSummarizer),
    );
    const sign = s.sortDescending ? -1 : 1;
    return [...list].sort((a, b) => {
      const x = sortValue(a, s.sortKey);
      const y = sortValue(b, s.sortKey);
      return x < y ? -sign : x > y ? sign : 0;
    });
  }, [
    runs.data,
    s.filterTranscript,
    s.filterPreset,
    s.filterSummarizer,
    s.sortKey,
    s.sortDescending,
    contentHash,
  ]);

  const byId = new Map((runs.data ?? []).map((r) => [r.id, r]));
  const selected = s.selectedRunIds.map((id) => byId.get(id)).filter((r): r is SummaryRun => r !== undefined);

  const header = (key: SortKey, label: string, className = '') => (
    <th
      className={`sortable ${className}`}
      aria-sort={s.sortKey === key ? (s.sortDescending ? 'descending' : 'ascending') : 'none'}
    >
      <button type="button" onClick={() => s.setSort(key)} data-testid={`sort-${key}`}>
        {label}
        {s.sortKey === key ? (s.sortDescending ? ' ▾' : ' ▴') : ''}
      </button>
    </th>
  );

  return (
    <section className="summaries-runs">
      <div className="runs-toolbar">
        <strong>Runs</strong>
        <span className="muted small">{formatCount(visible.length)} shown</span>
        <select
          aria-label="Transcript"
          value={s.filterTranscript}
          onChange={(e) => s.set({ filterTranscript: e.currentTarget.value as 'current' | 'all' })}
          data-testid="filter-transcript"
        >
          <option value="current">this transcript</option>
          <option value="all">all transcripts</option>
        </select>
        <select
          aria-label="Preset"
          value={s.filterPreset}
          onChange={(e) => s.set({ filterPreset: e.currentTarget.value })}
          data-testid="filter-preset"
        >
          <option value="">all presets</option>
          {PROMPT_PRESETS.map((p) => (
            <option key={p.id} value={p.id}>
              {p.id}
            </option>
          ))}
        </select>
        <select
          aria-label="Summarizer"
          value={s.filterSummarizer}
          onChange={(e) => s.set({ filterSummarizer: e.currentTarget.value })}
          data-testid="filter-summarizer"
        >
          <option value="">all summarizers</option>
          <option value="builtin">built-in</option>
          <option value="anthropic">Anthropic</option>
          <option value="openai">OpenAI-compatible</option>
          <option value="recorded">recorded</option>
        </select>
        <span className="spacer" />
        <button
          type="button"
          className="btn small"
          data-testid="export-runs"
          disabled={visible.length === 0}
          onClick={() => {
            const chosen = selected.length ? selected : visible;
            download(`compactlab-runs-${new Date().toISOString().slice(0, 10)}.json`, serializeRuns(chosen));
            setNotice({
              kind: 'info',
              text: `Exported ${chosen.length} run${chosen.length === 1 ? '' : 's'}.`,
            });
          }}
        >
          Export {selected.length ? `${selected.length} selected` : 'shown'}
        </button>
        <button
          type="button"
          className="btn small"
          data-testid="import-runs"
          onClick={() => fileInput.current?.click()}
        >
          Import…
        </button>
        <input
          ref={fileInput}
          type="file"
          accept="application/json,.json"
          hidden
          data-testid="import-input"
          onChange={async (e) => {
            const file = e.currentTarget.files?.[0];
            e.currentTarget.value = '';
            if (!file) return;
            try {
              const count = await importRuns(await file.text());
              await refresh();
              setNotice({
                kind: 'info',
                text: `Imported ${count} run${count === 1 ? '' : 's'} from ${file.name}.`,
              });
            } catch (error) {
              setNotice({
                kind: 'error',
                text: `Could not import ${file.name}: ${(error as Error).message}`,
              });
            }
          }}
        />
        <button
          type="button"
          className="btn small danger"
          data-testid="delete-selected"
          disabled={selected.length === 0}
          onClick={() => void remove(selected)}
        >
          Delete selected
        </button>
      </div>
      {notice && (
        <div
          className={`small ${notice.kind === 'error' ? 'error-text' : 'muted'}`}
          data-testid="runs-notice"
          role="status"
        >
          {notice.text}
          {notice.undo && (
            <>
              {' '}
              <button
                type="button"
                className="btn link small"
                data-testid="runs-undo"
                onClick={() => void undo(notice.undo!)}
              >
                Undo
              </button>
            </>
          )}
        </div>
      )}
      <div className="runs-scroll">
        <table className="runs-table" data-testid="runs-table">
          <thead>
            <tr>
              <th aria-label="Compare" />
              <th aria-label="Starred" />
              {header('name', 'Name')}
              <th>Point</th>
              <th>Preset</th>
              <th>Summarizer</th>
              {header('tokensIn', 'In', 'num')}
              {header('summaryTokens', 'Summary', 'num')}
              {header('retention', 'Retention', 'num')}
              {header('durationMs', 'Time', 'num')}
              {header('costUsd', 'Cost', 'num')}
              {header('createdAt', 'Created')}
              <th aria-label="Delete" />
            </tr>
          </thead>
          <tbody>
            {visible.map((run) => (
              <RunRow
                key={run.id}
                run={run}
                selected={s.selectedRunIds.includes(run.id)}
                onChanged={refresh}
                onDelete={() => void remove([run])}
              />
            ))}
            {visible.length === 0 && (
              <tr>
                <td colSpan={13} className="muted pad">
                  No runs yet{s.filterTranscript === 'current' ? ' for this transcript' : ''}. Run a
                  summarizer above.
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      {selected.length >= 2 && <CompareView runs={selected} />}
      {selected.length === 1 && <p className="muted small">Tick one more run to compare.</p>}
    </section>
  );
}

function RunRow({
  run,
  selected,
  onChanged,
  onDelete,
}: {
  run: SummaryRun;
  selected: boolean;
  onChanged: () => void;
  onDelete: () => void;
}) {
  const toggleRun = useSummariesStore((s) => s.toggleRun);
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(run.name);
  const commit = async () => {
    setEditing(false);
    const next = name.trim();
    if (next && next !== run.name) {
      await renameRun(run.id, next);
      onChanged();
    } else setName(run.name);
  };
  return (
    <tr className={selected ? 'selected' : ''} data-testid="run-row" data-run-id={run.id}>
      <td>
        <input
          type="checkbox"
          aria-label={`Compare ${run.name}`}
          checked={selected}
          onChange={() => toggleRun(run.id)}
          data-testid="run-select"
        />
      </td>
      <td>
        <button
          type="button"
          className={`star ${run.starred ? 'on' : ''}`}
          aria-label={run.starred ? 'Unstar' : 'Star'}
          aria-pressed={run.starred}
          data-testid="run-star"
          onClick={async () => {
            await setRunStarred(run.id, !run.starred);
            onChanged();
          }}
        >
          {run.starred ? '★' : '☆'}
        </button>
      </td>
      <td className="name-cell">
        {editing ? (
          <input
            // biome-ignore lint/a11y/noAutofocus: the user just asked to rename this run
            autoFocus
            className="rename"
            value={name}
            data-testid="run-rename-input"
            onChange={(e) => setName(e.currentTarget.value)}
            onBlur={commit}
            onKeyDown={(e) => {
              if (e.key === 'Enter') void commit();
              if (e.key === 'Escape') {
                e.preventDefault(); // handled here: the Escape stack leaves the open layer alone
                setName(run.name);
                setEditing(false);
              }
            }}
          />
        ) : (
          <button
            type="button"
            className="btn link name"
            title="Rename"
            data-testid="run-name"
            onClick={() => setEditing(true)}
          >
            {run.name}
          </button>
        )}
        <div className="muted small ellipsis" title={run.transcript.name}>
          {run.transcript.name}
        </div>
      </td>
      <td className="small">{run.point.label}</td>
      <td className="small mono">
        {run.settings.presetId}
        {isEditedPrompt(run) && (
          <div
            className="edited-mark"
            data-testid="run-edited"
            title="Run with a prompt edited from the preset"
          >
            edited prompt
          </div>
        )}
      </td>
      <td className="small">
        {run.summarizer.kind}
        <div className="muted mono">{run.summarizer.model}</div>
      </td>
      <td className="num mono">
        {formatCount(run.tokensIn)}
        {run.requestExactTokens !== undefined && (
          <div
            className="muted small"
            data-testid="run-exact"
            title="The request, counted by the provider's countTokens"
          >
            {formatCount(run.requestExactTokens)} exact
          </div>
        )}
      </td>
      <td className="num mono">{formatCount(run.summaryTokens)}</td>
      <td className="num" data-testid="run-retention">
        <RetentionBadge ratio={run.retention.ratio} total={run.retention.total} />
      </td>
      <td className="num mono">{formatRunDuration(run.durationMs)}</td>
      <td className="num mono">{run.costUsd === undefined ? '—' : `$${run.costUsd.toFixed(4)}`}</td>
      <td className="small mono">{formatDateTime(run.createdAt)}</td>
      <td>
        <button
          type="button"
          className="btn link small"
          aria-label={`Delete ${run.name}`}
          data-testid="run-delete"
          onClick={onDelete}
        >
          ✕
        </button>
      </td>
    </tr>
  );
}
