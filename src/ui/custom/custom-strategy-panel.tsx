import { Editor } from '@monaco-editor/react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { SessionId } from '../../worker/protocol';
import { useColorScheme } from '../common/use-color-scheme';
import { useEscapeLayer } from '../common/use-escape';
import { getLoadedFiles } from '../load/load-session';
import { CompareChart, LineSwatch } from '../replay/compare-chart';
import { CompareTable } from '../replay/compare-strategies-panel';
import { registerPageCustomStrategy, unregisterPageCustomStrategy } from './custom-registry';
import { markCustomRunEnded, markCustomRunStarted } from './run-marker';
import { runCustomStrategy, type SandboxRun } from './sandbox';
import { listStrategies, saveStrategy } from './strategies-db';
import { TEMPLATES } from './templates';
import { compileModel, type monaco } from './typescript';
import { type CustomStatus, enterCustomEditor, openCustomFile, useCustomEditor } from './custom-editor-store';

// The Custom strategy editor (docs/custom-strategies.md): TypeScript against the public API,
// checked as you type; Run compiles it and runs it in its sandbox worker beside Claude Code's,
// Codex's and the log's own strategy, and shows the table and where each compacts. Nothing runs
// until Run: a saved or imported file is only shown.

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

export function CustomStrategyPanel({
  sessionId,
  ownStrategyId,
  onClose,
}: {
  sessionId: SessionId;
  ownStrategyId: string;
  onClose: () => void;
}) {
  // Held in a store, not here: the panel unmounts and mounts again as the strip re-renders
  // (custom-editor-store.ts), and must come back with the file that was run and its result.
  useState(() => enterCustomEditor(sessionId));
  const { name, source, status, knobSpecs, knobDefaults, overrides } = useCustomEditor();
  const set = useCustomEditor.setState;
  const setName = (next: string) => set({ name: next });
  const setSource = (next: string) => set({ source: next });
  const setStatus = (next: CustomStatus) => set({ status: next });
  const setOverrides = (next: Record<string, number | boolean>) => set({ overrides: next });
  const [saved, setSaved] = useState<string[]>([]);
  const queryClient = useQueryClient();
  const editorRef = useRef<monaco.editor.IStandaloneCodeEditor | null>(null);
  const abort = useRef<AbortController | null>(null);
  const runButton = useRef<HTMLButtonElement>(null);
  const importRef = useRef<HTMLInputElement>(null);
  // A panel of the replay's drawer: Escape closes it (not while writing in the editor:
  // common/use-escape.ts), and the focus goes back to Custom….
  useEscapeLayer(onClose);
  const theme = useColorScheme() === 'light' ? 'vs' : 'vs-dark';

  useEffect(() => {
    void listStrategies().then((rows) => setSaved(rows.map((r) => r.name)));
    return () => abort.current?.abort();
  }, []);

  const open = openCustomFile;

  const run = async () => {
    const model = editorRef.current?.getModel();
    if (!model) return;
    const files = getLoadedFiles(sessionId);
    if (!files) {
      setStatus({
        kind: 'error',
        message: 'The session’s files are not at hand (a live session): open it again to run a strategy.',
      });
      return;
    }
    // Made before the compile: Cancel may be pressed while it runs.
    abort.current?.abort();
    const controller = new AbortController();
    abort.current = controller;
    setStatus({ kind: 'running', stage: 'compiling', fileName: name });
    await saveStrategy(name, source);
    setSaved((s) => [name, ...s.filter((n) => n !== name)]);
    const { compiled, problems } = await compileModel(model, name);
    if (!compiled) {
      setStatus({ kind: 'problems', problems });
      return;
    }
    if (controller.signal.aborted) {
      setStatus({ kind: 'error', message: `${compiled.fileName}: cancelled before it ran.` });
      return;
    }
    // Compiled: a Cancel from here stops the sandbox (said so), not the compile.
    setStatus({ kind: 'running', stage: 'replaying', fileName: compiled.fileName });
    const builtIns = [...new Set([ownStrategyId, 'claude-code', 'codex'])].map((strategyId) => ({
      strategyId,
      overrides: {},
    }));
    // Cleared when the run ends: a page that opens with it set crashed during it (run-marker.tsx).
    markCustomRunStarted(compiled.fileName);
    try {
      const result = await runCustomStrategy(
        compiled,
        files,
        builtIns,
        overrides,
        controller.signal,
        undefined,
        sessionId,
        (message) => {
          unregisterPageCustomStrategy(result.id);
          setStatus({ kind: 'error', message });
        },
      );
      // The page's strip, timeline, cards, knobs and Compare may now pick it (custom-registry.ts);
      // its requests go to this sandbox, which keeps the session loaded.
      // Results of an earlier run of the same id came from its earlier code: dropped.
      queryClient.removeQueries({
        predicate: (q) =>
          q.queryKey.some((k) => k === result.id || (typeof k === 'string' && k.includes(`"${result.id}"`))),
      });
      registerPageCustomStrategy(
        {
          id: result.id,
          label: result.label,
          description: `A custom strategy (${compiled.fileName}), run in its sandbox.`,
          knobSpecs: result.knobSpecs,
          defaultKnobs: result.defaultKnobs,
        },
        result.client,
        sessionId,
      );
      set({
        status: { kind: 'done', run: result },
        knobSpecs: result.knobSpecs,
        knobDefaults: result.defaultKnobs,
      });
    } catch (error) {
      setStatus({ kind: 'error', message: (error as Error).message });
    } finally {
      markCustomRunEnded();
    }
  };

  const exportFile = () => {
    const url = URL.createObjectURL(new Blob([source], { type: 'text/typescript' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = name;
    a.click();
    URL.revokeObjectURL(url);
  };

  return (
    <section
      className="custom-strategy panel-box"
      data-testid="custom-strategy"
      aria-label="Custom strategy"
      tabIndex={-1}
    >
      <div className="custom-strategy-bar">
        <strong>Custom strategy</strong>
        <label>
          File{' '}
          <input
            className="custom-name"
            data-testid="custom-name"
            value={name}
            onChange={(e) => setName(e.target.value.replace(/[^\w.-]/g, '') || 'my-strategy.ts')}
          />
        </label>
        <select
          aria-label="Start from"
          data-testid="custom-template"
          value=""
          onChange={async (e) => {
            const choice = e.target.value;
            const template = TEMPLATES.find((t) => `t:${t.name}` === choice);
            if (template) open(template.name, template.source);
            const own = (await listStrategies()).find((s) => `s:${s.name}` === choice);
            if (own) open(own.name, own.source);
          }}
        >
          <option value="">Open…</option>
          <optgroup label="Examples">
            {TEMPLATES.map((t) => (
              <option key={t.name} value={`t:${t.name}`}>
                {t.name}
              </option>
            ))}
          </optgroup>
          {saved.length > 0 && (
            <optgroup label="Saved in this browser">
              {saved.map((n) => (
                <option key={n} value={`s:${n}`}>
                  {n}
                </option>
              ))}
            </optgroup>
          )}
        </select>
        {/* A button, not a label around the hidden input: a label is no Tab stop, so the keyboard
            could not import. */}
        <button
          type="button"
          className="btn small"
          data-testid="custom-import-button"
          onClick={() => importRef.current?.click()}
        >
          Import .ts
        </button>
        <input
          ref={importRef}
          type="file"
          accept=".ts,.js,text/plain"
          hidden
          data-testid="custom-import"
          onChange={async (e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            // Shown, never run: it runs when the person presses Run.
            if (file) open(file.name, await file.text());
          }}
        />
        <button type="button" className="btn small" onClick={exportFile} data-testid="custom-export">
          Export .ts
        </button>
        <button
          ref={runButton}
          type="button"
          className="btn small primary"
          data-testid="custom-run"
          // Not `disabled` while it runs: a disabled button drops the focus to <body>.
          aria-disabled={status.kind === 'running'}
          onClick={() => {
            if (status.kind !== 'running') void run();
          }}
        >
          {status.kind === 'running' ? 'Running…' : 'Run'}
        </button>
        {status.kind === 'running' && (
          // A run had no way to stop but the sandbox's time limit (20 s of an endless loop): this
          // terminates its worker (sandbox.ts), and the focus goes back to Run as the button goes.
          <button
            type="button"
            className="btn small"
            data-testid="custom-cancel"
            onClick={() => {
              abort.current?.abort();
              runButton.current?.focus();
            }}
          >
            Cancel
          </button>
        )}
        <button type="button" className="btn small" onClick={onClose} aria-label="Close the custom strategy">
          ×
        </button>
      </div>
      <div className="monaco-box custom-editor" data-testid="custom-editor">
        <Editor
          value={source}
          path={`file:///${name}`}
          language="typescript"
          theme={theme}
          onChange={(next) => setSource(next ?? '')}
          height="220px"
          onMount={(editor) => {
            editorRef.current = editor;
          }}
          options={{ minimap: { enabled: false }, fontSize: 12, scrollBeyondLastLine: false, tabSize: 2 }}
          loading={<div className="muted pad">Loading editor…</div>}
        />
      </div>
      {knobSpecs.length > 0 && (
        <div className="custom-knobs small" data-testid="custom-knobs">
          {knobSpecs.map((spec) => (
            <span key={spec.key} className="custom-knob-field" title={spec.help ?? spec.source}>
              {spec.label}{' '}
              {spec.kind === 'boolean' ? (
                <input
                  type="checkbox"
                  aria-label={spec.label}
                  data-knob={spec.key}
                  checked={Boolean(overrides[spec.key] ?? knobDefaults[spec.key])}
                  onChange={(e) => setOverrides({ ...overrides, [spec.key]: e.target.checked })}
                />
              ) : (
                <input
                  type="number"
                  aria-label={spec.label}
                  data-knob={spec.key}
                  className="custom-knob"
                  min={spec.min}
                  max={spec.max}
                  step={spec.step}
                  placeholder={String(knobDefaults[spec.key] ?? '')}
                  value={typeof overrides[spec.key] === 'number' ? String(overrides[spec.key]) : ''}
                  onChange={(e) => {
                    const { [spec.key]: _, ...rest } = overrides;
                    setOverrides(
                      e.target.value === '' ? rest : { ...rest, [spec.key]: Number(e.target.value) },
                    );
                  }}
                />
              )}
            </span>
          ))}
          <span className="muted">set, then Run again</span>
        </div>
      )}
      <CustomStatusView status={status} />
    </section>
  );
}

function CustomStatusView({ status }: { status: CustomStatus }) {
  if (status.kind === 'idle')
    return (
      <p className="small muted">
        Run compiles the file and replays it in a worker of its own beside Claude Code’s and Codex’s.
      </p>
    );
  if (status.kind === 'running')
    return (
      <p className="small muted" data-testid="custom-status">
        {status.stage === 'compiling' ? `Compiling ${status.fileName}…` : 'Running in the sandbox…'}
      </p>
    );
  if (status.kind === 'problems')
    return (
      <ul className="custom-problems small" data-testid="custom-problems">
        {status.problems.map((p, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: problems are positional.
          <li key={i}>
            line {p.line}: {p.message}
          </li>
        ))}
      </ul>
    );
  if (status.kind === 'error')
    return (
      <p className="custom-error small" role="alert" data-testid="custom-error">
        {status.message}
      </p>
    );
  return <CustomResult run={status.run} />;
}

/** The strategies' context lines on one chart (Compare's), its table, and where each acts. */
function CustomResult({ run }: { run: SandboxRun }) {
  const { compare, id } = run;
  const wrap = useRef<HTMLDivElement>(null);
  const [widthPx, setWidthPx] = useState(800);
  useLayoutEffect(() => {
    if (!wrap.current) return;
    setWidthPx(wrap.current.clientWidth);
    // The result opens below the editor: bring it into view.
    wrap.current.scrollIntoView?.({ block: 'nearest' });
  }, []);
  return (
    <div data-testid="custom-result" ref={wrap} className="strat-figure">
      <CompareChart result={compare} widthPx={widthPx} />
      <div className="strat-legend small">
        {compare.series.map((s, i) => (
          <span key={s.strategyId} className="legend-item" title={s.label}>
            <LineSwatch i={i} /> {s.label}
          </span>
        ))}
      </div>
      <div data-testid="custom-table">
        <CompareTable result={compare} />
      </div>
      <ul className="custom-where small">
        {compare.series.map((s) => (
          <li key={s.strategyId} data-testid={s.strategyId === id ? 'custom-where-own' : 'custom-where'}>
            <strong>{s.label}</strong>:{' '}
            {s.events.filter((e) => e.kind !== 'reset' && e.kind !== 'blocked').length === 0
              ? 'never compacts'
              : s.events
                  .filter((e) => e.kind !== 'reset' && e.kind !== 'blocked')
                  .slice(0, 40)
                  .map(
                    (e) =>
                      `${e.kind} after call ${e.afterCallPos + 1} (${fmt(e.preTokens)} → ${fmt(e.postTokens)})`,
                  )
                  .join(' · ')}
          </li>
        ))}
      </ul>
    </div>
  );
}
