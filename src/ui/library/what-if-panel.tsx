import { useEffect, useMemo, useRef, useState } from 'react';
import {
  DEFAULT_STRATEGY_ID,
  getStrategyDescriptor,
  STRATEGY_DESCRIPTORS,
} from '../../engine/strategies/descriptors';
import type { KnobSpec, KnobValue, StrategyDescriptor } from '../../engine/strategies/types';
import { useRunCustomStrategies } from '../custom/custom-registry';
import { DEFAULT_SWEEP_STEPS, MAX_SWEEP_STEPS } from '../../engine/replay/sweep-score';
import { downloadFile } from '../export/download';
import { ProgressBar } from '../top-bar/load-progress';
import { WhatIfResults } from './what-if-results';
import {
  type RetentionSummarizer,
  useWhatIfModelConfig,
  WhatIfCallsStatus,
  WhatIfModelChoice,
  WhatIfPlanNotice,
} from './what-if-model-form';
import {
  cancelWhatIf,
  clearWhatIf,
  formatWhatIfRecords,
  isWhatIfOfOtherSessions,
  runWhatIf,
  useWhatIfStore,
} from './what-if-run';
import './what-if.css';

// The library's "what if": pick a strategy, a numeric knob and two values (or a sweep over it),
// and every listed session is replayed at each in the engine worker, as `compactlab stats
// --strategy` does; totals per setting beside the real cost, retention, charts, an export.
// Loaded with import() when first opened: none of it is the page's startup code.

type Mode = 'two' | 'sweep';
type Descriptor = StrategyDescriptor<Record<string, KnobValue>>;

/** Not a built-in's id: a custom strategy's, run in the page. */
const isCustomId = (id: string) => !STRATEGY_DESCRIPTORS.some((s) => s.id === id);

/** The knob a what-if starts on: the auto-compact % where the strategy has one, else its first number. */
function getStartKnob(specs: readonly KnobSpec[]): KnobSpec | undefined {
  const numbers = specs.filter((k) => k.kind === 'number');
  return numbers.find((k) => k.unit === 'percent') ?? numbers[0];
}

/** Two values to start from: 60 and 90 for a percentage (ours: early and late), else ¾ of the default and the default. */
function getStartValues(descriptor: Descriptor, knob: KnobSpec | undefined): [string, string] {
  if (!knob) return ['', ''];
  if (knob.unit === 'percent') return ['60', '90'];
  const d = Number(descriptor.defaultKnobs[knob.key] ?? knob.max ?? knob.min ?? 0);
  const lo = Math.max(
    knob.min ?? 0,
    knob.integer || knob.unit === 'tokens' ? Math.round(d * 0.75) : d * 0.75,
  );
  return [String(lo), String(d)];
}

/** A value typed for a knob, within its bounds; a string is the reason it is not. */
function readValue(text: string, knob: KnobSpec): number | string {
  const v = Number(text.trim());
  if (text.trim() === '' || !Number.isFinite(v)) return `${knob.label}: "${text}" is not a number`;
  if (knob.min !== undefined && v < knob.min) return `${knob.label}: ${v} is under ${knob.min}`;
  if (knob.max !== undefined && v > knob.max) return `${knob.label}: ${v} is over ${knob.max}`;
  return v;
}

export default function WhatIfPanel({ keys, filesOpen }: { keys: readonly string[]; filesOpen: boolean }) {
  const [strategyId, setStrategyId] = useState(DEFAULT_STRATEGY_ID);
  // The custom strategies run in the page (Custom… on the session shown) beside the built-ins:
  // theirs run in their sandbox over every listed session (what-if-run.ts).
  const customs = useRunCustomStrategies();
  const custom = customs.find((c) => c.id === strategyId);
  const descriptor: Descriptor =
    custom ?? getStrategyDescriptor(isCustomId(strategyId) ? DEFAULT_STRATEGY_ID : strategyId);
  const knobs = useMemo(() => descriptor.knobSpecs.filter((k) => k.kind === 'number'), [descriptor]);
  const [knobKey, setKnobKey] = useState(() => getStartKnob(descriptor.knobSpecs)?.key ?? '');
  const knob = knobs.find((k) => k.key === knobKey);
  const [mode, setMode] = useState<Mode>('two');
  const [values, setValues] = useState(() => getStartValues(descriptor, knob));
  const [steps, setSteps] = useState(String(Math.min(DEFAULT_SWEEP_STEPS, 6)));
  const [retention, setRetention] = useState(true);
  const [summarizer, setSummarizer] = useState<RetentionSummarizer>('builtin');
  // A model's summaries are not offered for a custom strategy: its requests would be written in
  // the sandbox, beside the user's code, and sent with the key the page holds.
  const modelConfig = useWhatIfModelConfig(retention && !custom ? summarizer : 'builtin');
  const state = useWhatIfStore();
  const running = state.status === 'running' || state.status === 'planning';
  /** The model run a plan counted, made when the user confirms it. */
  const planned = useRef<() => void>(undefined);
  // The results are the sessions' they were computed over: another folder clears them; a list
  // that changed otherwise (a filter) marks them.
  const listed = keys.join('\u0000');
  const runKeys = state.keys;
  const stale = runKeys !== undefined && runKeys.join('\u0000') !== listed;
  useEffect(() => {
    if (isWhatIfOfOtherSessions(keys)) clearWhatIf();
  }, [keys]);

  const pickStrategy = (id: string) => {
    const next = customs.find((c) => c.id === id) ?? getStrategyDescriptor(id);
    setStrategyId(id);
    const start = getStartKnob(next.knobSpecs);
    setKnobKey(start?.key ?? '');
    setValues(getStartValues(next, start));
  };
  // The custom strategy picked is gone (Run again under another id, another session loaded, its
  // sandbox stopped): back to the default.
  useEffect(() => {
    if (!custom && isCustomId(strategyId)) pickStrategy(DEFAULT_STRATEGY_ID);
  });
  const pickKnob = (key: string) => {
    setKnobKey(key);
    setValues(
      getStartValues(
        descriptor,
        knobs.find((k) => k.key === key),
      ),
    );
  };

  let problem: string | undefined;
  if (!filesOpen) problem = 'Reopen the folder to replay its sessions.';
  else if (keys.length === 0) problem = 'No session is listed.';
  else if (!knob) problem = `${descriptor.label} has no numeric knob to vary.`;
  else if (typeof modelConfig === 'string') problem = modelConfig;
  const a = knob ? readValue(values[0], knob) : 'no knob';
  const b = knob ? readValue(values[1], knob) : 'no knob';
  const stepCount = Number(steps);
  if (!problem && typeof a === 'string') problem = a;
  else if (!problem && typeof b === 'string') problem = b;
  else if (
    !problem &&
    mode === 'sweep' &&
    !(Number.isInteger(stepCount) && stepCount >= 2 && stepCount <= MAX_SWEEP_STEPS)
  )
    problem = `A sweep has 2 to ${MAX_SWEEP_STEPS} steps`;

  const run = () => {
    if (problem || !knob || typeof a === 'string' || typeof b === 'string') return;
    const spec = { strategyId, overrides: {}, retention };
    const config = typeof modelConfig === 'object' ? modelConfig : undefined;
    const start = (m?: 'plan' | 'run') => {
      const model = config && m ? { config, mode: m } : undefined;
      if (mode === 'two')
        void runWhatIf(
          keys,
          { ...spec, sweep: { knob: knob.key, values: a === b ? [a] : [a, b] } },
          undefined,
          model,
        );
      else void runWhatIf(keys, spec, { knob: knob.key, from: a, to: b, steps: stepCount }, model);
    };
    // A model's calls cost: counted first, made once the user confirms.
    planned.current = config ? () => start('run') : undefined;
    start(config ? 'plan' : undefined);
  };
  const exportAs = (csv: boolean) =>
    downloadFile(
      formatWhatIfRecords(state, csv),
      `what-if-${state.strategyId ?? strategyId}.${csv ? 'csv' : 'ndjson'}`,
      csv ? 'text/csv' : 'application/x-ndjson',
    );

  return (
    <section className="whatif" data-testid="whatif" aria-label="What if">
      <div className="whatif-form">
        <label>
          Strategy{' '}
          <select
            value={strategyId}
            onChange={(e) => pickStrategy(e.currentTarget.value)}
            disabled={running}
            data-testid="whatif-strategy"
          >
            {STRATEGY_DESCRIPTORS.map((s) => (
              <option key={s.id} value={s.id}>
                {s.label}
              </option>
            ))}
            {customs.length > 0 && (
              <optgroup label="Run in this page">
                {customs.map((s) => (
                  <option key={s.id} value={s.id} title={s.description}>
                    {s.label}
                  </option>
                ))}
              </optgroup>
            )}
          </select>
        </label>
        <label>
          Knob{' '}
          <select
            value={knobKey}
            onChange={(e) => pickKnob(e.currentTarget.value)}
            disabled={running}
            data-testid="whatif-knob"
          >
            {knobs.map((k) => (
              <option key={k.key} value={k.key} title={k.help}>
                {k.label}
              </option>
            ))}
          </select>
        </label>
        <fieldset className="whatif-mode" disabled={running}>
          <label>
            <input
              type="radio"
              checked={mode === 'two'}
              onChange={() => setMode('two')}
              data-testid="whatif-mode-two"
            />{' '}
            two settings
          </label>
          <label>
            <input
              type="radio"
              checked={mode === 'sweep'}
              onChange={() => setMode('sweep')}
              data-testid="whatif-mode-sweep"
            />{' '}
            a sweep
          </label>
        </fieldset>
        <label>
          {mode === 'two' ? 'A' : 'from'}{' '}
          <input
            className="whatif-num"
            inputMode="decimal"
            value={values[0]}
            onChange={(e) => setValues([e.currentTarget.value, values[1]])}
            disabled={running}
            data-testid="whatif-a"
          />
        </label>
        <label>
          {mode === 'two' ? 'B' : 'to'}{' '}
          <input
            className="whatif-num"
            inputMode="decimal"
            value={values[1]}
            onChange={(e) => setValues([values[0], e.currentTarget.value])}
            disabled={running}
            data-testid="whatif-b"
          />
        </label>
        {mode === 'sweep' && (
          <label>
            steps{' '}
            <input
              className="whatif-num"
              inputMode="numeric"
              value={steps}
              onChange={(e) => setSteps(e.currentTarget.value)}
              disabled={running}
              data-testid="whatif-steps"
            />
          </label>
        )}
        <label title="Each setting's summaries written (by the built-in summarizer, offline, or the model chosen beside) and scored: the facts held since the session's start still kept after its last compaction">
          <input
            type="checkbox"
            checked={retention}
            onChange={(e) => setRetention(e.currentTarget.checked)}
            disabled={running}
            data-testid="whatif-retention"
          />{' '}
          what it keeps
        </label>
        {retention && !custom && (
          <WhatIfModelChoice choice={summarizer} onChoose={setSummarizer} disabled={running} />
        )}
        {retention && custom && (
          <span
            className="muted"
            data-testid="whatif-custom-summarizer"
            title="A custom strategy runs in its sandbox: the summaries it is scored on are the built-in summarizer's, offline (no model is called from there)"
          >
            summarized by the built-in summarizer
          </span>
        )}
        {/* One button that turns from Replay into Cancel and back (the focus stays on it). */}
        <button
          type="button"
          className={`btn${running ? '' : ' primary'}`}
          onClick={running ? cancelWhatIf : run}
          disabled={!running && problem !== undefined}
          title={running ? undefined : problem}
          data-testid={running ? 'whatif-cancel' : 'whatif-run'}
        >
          {running ? 'Cancel' : `Replay ${keys.length} ${keys.length === 1 ? 'session' : 'sessions'}`}
        </button>
        {problem && !running && (
          <span className="muted" data-testid="whatif-problem">
            {problem}
          </span>
        )}
      </div>
      <WhatIfStatus />
      {state.status === 'planned' && typeof modelConfig === 'object' && (
        <WhatIfPlanNotice config={modelConfig} onRun={() => planned.current?.()} />
      )}
      <WhatIfCallsStatus />
      {stale && state.totals.length > 0 && (
        <p className="whatif-stale muted" data-testid="whatif-stale">
          The list changed since: these figures are for the {runKeys?.length} sessions listed then.
        </p>
      )}
      {state.totals.length > 0 && (
        <>
          <WhatIfResults state={state} unit={knob?.unit} />
          <div className="whatif-export">
            <button type="button" className="btn" onClick={() => exportAs(false)} data-testid="whatif-ndjson">
              Export NDJSON
            </button>
            <button type="button" className="btn" onClick={() => exportAs(true)} data-testid="whatif-csv">
              Export CSV
            </button>
            <span className="muted">the rows of compactlab stats --strategy … --sessions</span>
          </div>
        </>
      )}
    </section>
  );
}

function WhatIfStatus() {
  const { status, done, total, error, sessions } = useWhatIfStore();
  if (status === 'idle') return null;
  const noCalls = sessions.filter((s) => s.error === undefined && s.rows.length === 0).length;
  const unread = sessions.filter((s) => s.error !== undefined).length;
  const notes = [
    noCalls > 0 ? `${noCalls} without an API call` : '',
    unread > 0 ? `${unread} could not be read` : '',
  ].filter(Boolean);
  const aside = notes.length > 0 ? ` (${notes.join(', ')})` : '';
  const text =
    status === 'planning'
      ? `Counting the summary calls: ${done} of ${total} sessions…`
      : status === 'planned'
        ? `${total} ${total === 1 ? 'session' : 'sessions'} replayed to count the calls; nothing was sent.`
        : status === 'running'
          ? `Replaying ${done} of ${total} sessions…`
          : status === 'done'
            ? `${total} ${total === 1 ? 'session' : 'sessions'} replayed${aside}.`
            : status === 'cancelled'
              ? `Cancelled after ${done} of ${total} sessions: the figures below are theirs.`
              : `Failed: ${error}`;
  return (
    <div className="whatif-status" data-testid="whatif-status" data-status={status} data-done={done}>
      <span role={status === 'failed' ? 'alert' : 'status'}>{text}</span>
      {(status === 'running' || status === 'planning') && (
        <ProgressBar fraction={total > 0 ? done / total : 0} />
      )}
    </div>
  );
}
