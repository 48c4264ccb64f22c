import { useState } from 'react';
import type { LearnConstant } from '../../engine/learn/types';
import type { KnobSpec, KnobValue } from '../../engine/strategies/types';
import { formatKnobValue } from '../replay/replay-knobs';
import { useLearnStore } from './learn-store';

// The constants acting at a step: each with its value and source, and for a knob a control that
// re-runs the walk in place (the worker recomputes every figure; the step stays). Fixed constants
// say which knob, if any, moves them.

export function LearnConstants({
  strategyId,
  constants,
  overridden,
}: {
  strategyId: string;
  constants: LearnConstant[];
  overridden: Record<string, unknown>;
}) {
  const { setKnob, resetKnobs } = useLearnStore.getState();
  const changed = Object.keys(overridden).length > 0;
  return (
    <aside className="learn-constants" data-testid="learn-constants" aria-label="Constants at this step">
      <h2>
        Constants here
        {changed && (
          <button
            type="button"
            className="btn link"
            data-testid="learn-reset"
            onClick={() => resetKnobs(strategyId)}
          >
            Reset to the log’s
          </button>
        )}
      </h2>
      <ul>
        {constants.map((c) => (
          <li key={c.key} className={c.key in overridden ? 'changed' : undefined}>
            <div className="learn-constant-head">
              <span className="learn-constant-label">{c.label}</span>
              {c.spec ? (
                <KnobControl spec={c.spec} value={c.value} onCommit={(v) => setKnob(strategyId, c.key, v)} />
              ) : (
                <span className="mono learn-fixed" data-testid={`learn-fixed-${c.key}`}>
                  {typeof c.value === 'number' ? c.value.toLocaleString('en-US') : String(c.value)}
                </span>
              )}
            </div>
            <div className="learn-constant-source">
              {c.spec ? '' : 'Fixed. '}
              {c.note ? `${c.note}. ` : ''}
              Source: {c.source}
            </div>
          </li>
        ))}
      </ul>
    </aside>
  );
}

function KnobControl({
  spec,
  value,
  onCommit,
}: {
  spec: KnobSpec;
  value: KnobValue;
  onCommit: (value: KnobValue) => void;
}) {
  const testId = `learn-knob-${spec.key}`;
  if (spec.kind === 'boolean')
    return (
      <input
        type="checkbox"
        data-testid={testId}
        aria-label={spec.label}
        checked={value === true}
        onChange={(e) => onCommit(e.currentTarget.checked)}
      />
    );
  if (spec.kind === 'select')
    return (
      <select
        data-testid={testId}
        aria-label={spec.label}
        value={typeof value === 'string' ? value : ''}
        onChange={(e) => onCommit(e.currentTarget.value)}
      >
        {spec.options?.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    );
  return <TextControl spec={spec} value={value} testId={testId} onCommit={onCommit} />;
}

/** Numbers, text and lists: typed, committed on Enter or when the field is left. */
function TextControl({
  spec,
  value,
  testId,
  onCommit,
}: {
  spec: KnobSpec;
  value: KnobValue;
  testId: string;
  onCommit: (value: KnobValue) => void;
}) {
  const shown = Array.isArray(value) ? value.join(', ') : value === undefined ? '' : String(value);
  const [text, setText] = useState(shown);
  const [seen, setSeen] = useState(shown);
  if (seen !== shown) {
    setSeen(shown);
    setText(shown);
  }
  const parse = (t: string): { ok: boolean; value: KnobValue } => {
    const trimmed = t.trim();
    if (spec.kind === 'list')
      return {
        ok: true,
        value: trimmed
          ? trimmed
              .split(',')
              .map((s) => s.trim())
              .filter(Boolean)
          : [],
      };
    if (spec.kind === 'text') return { ok: true, value: trimmed || undefined };
    if (trimmed === '') return { ok: spec.optional === true, value: undefined };
    const n = Number(trimmed.replace(/[,_\s]/g, ''));
    const ok =
      Number.isFinite(n) &&
      (spec.min === undefined || n >= spec.min) &&
      (spec.max === undefined || n <= spec.max);
    return { ok, value: n };
  };
  const parsed = parse(text);
  const commit = () => {
    if (parsed.ok && text !== shown) onCommit(parsed.value);
  };
  return (
    <input
      className={`mono${parsed.ok ? '' : ' invalid'}`}
      data-testid={testId}
      aria-label={spec.label}
      title={`${formatKnobValue(spec, value)}${spec.min !== undefined ? ` (${spec.min.toLocaleString('en-US')}–${spec.max?.toLocaleString('en-US') ?? ''})` : ''}`}
      inputMode={spec.kind === 'number' ? 'numeric' : undefined}
      size={spec.kind === 'number' ? 9 : 18}
      value={text}
      placeholder={spec.optional ? 'off' : undefined}
      onChange={(e) => setText(e.currentTarget.value)}
      onBlur={commit}
      onKeyDown={(e) => {
        if (e.key === 'Enter') commit();
        // Escape first undoes an edit in progress (the Escape stack skips a handled key); on an
        // unchanged field it leaves learn mode as anywhere else.
        if (e.key === 'Escape' && text !== shown) {
          e.preventDefault();
          setText(shown);
        }
      }}
    />
  );
}
