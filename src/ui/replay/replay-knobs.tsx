import { type ReactNode, useState } from 'react';
import type { KnobSpec, KnobValue } from '../../engine/strategies/types';
import type { SessionId } from '../../worker/protocol';
import { formatCount } from '../common/format';
import { getTimelineBarKeys } from '../../engine/strategies/knobs';
import { describeKnob, describeRange } from '../timeline/knobs-bar';
import { useReplayStore } from './replay-store';
import { useSessionMemory } from './use-replay';

// The selected strategy's knobs beyond those of the knobs bar above the chart, generated from its
// `knobSpecs`: grouped by `group`, labelled, with the unit and range, the options of a select,
// and the source as a tooltip. Each input commits valid values at once; the replay re-runs after
// a short debounce.

/** How a unit reads after a value ("20,000 tokens", "80 %"); a count needs none. */
const UNIT_TEXT: Record<NonNullable<KnobSpec['unit']>, string> = {
  tokens: 'tokens',
  percent: '%',
  count: '',
};

/** A value with its unit: "20,000 tokens". */
export function formatKnobValue(spec: KnobSpec, value: KnobValue): string {
  if (value === undefined) return 'off';
  if (typeof value === 'number') {
    const unit = spec.unit ? UNIT_TEXT[spec.unit] : '';
    return unit ? `${formatCount(value)} ${unit}` : formatCount(value);
  }
  if (typeof value === 'boolean') return value ? 'on' : 'off';
  if (Array.isArray(value)) return value.join(', ') || 'none';
  return spec.options?.find((o) => o.value === value)?.label ?? value;
}

function NumberInput({
  spec,
  value,
  onCommit,
}: {
  spec: KnobSpec;
  value: KnobValue;
  onCommit: (v: KnobValue | null) => void;
}) {
  const shown = typeof value === 'number' ? String(value) : '';
  const [text, setText] = useState(shown);
  const [seen, setSeen] = useState(shown);
  if (seen !== shown) {
    setSeen(shown);
    setText(shown);
  }
  const parse = (t: string) => (t.trim() === '' ? undefined : Number(t.replace(/[,_\s]/g, '')));
  const n = parse(text);
  const valid =
    (n === undefined && spec.optional) ||
    (n !== undefined &&
      Number.isFinite(n) &&
      (spec.min === undefined || n >= spec.min) &&
      (spec.max === undefined || n <= spec.max));
  return (
    <input
      className={valid ? 'mono' : 'mono invalid'}
      aria-invalid={!valid}
      title={valid ? undefined : `Not applied: outside the range.${describeRange(spec)}`}
      data-testid={`replay-knob-${spec.key}`}
      inputMode="numeric"
      size={9}
      value={text}
      placeholder={spec.optional ? 'off' : undefined}
      onChange={(e) => {
        const next = e.currentTarget.value;
        setText(next);
        const v = parse(next);
        const ok =
          (v === undefined && spec.optional) ||
          (v !== undefined &&
            Number.isFinite(v) &&
            (spec.min === undefined || v >= spec.min) &&
            (spec.max === undefined || v <= spec.max));
        if (ok) {
          setSeen(v === undefined ? '' : String(v));
          // `null` clears an optional knob (undefined would mean "keep the log's value").
          onCommit(v === undefined ? null : v);
        }
      }}
    />
  );
}

function KnobInput({
  spec,
  value,
  onCommit,
}: {
  spec: KnobSpec;
  value: KnobValue;
  onCommit: (v: KnobValue | null) => void;
}) {
  switch (spec.kind) {
    case 'boolean':
      return (
        <input
          type="checkbox"
          data-testid={`replay-knob-${spec.key}`}
          checked={value === true}
          onChange={(e) => onCommit(e.currentTarget.checked)}
        />
      );
    case 'select':
      return (
        <select
          data-testid={`replay-knob-${spec.key}`}
          value={String(value ?? '')}
          onChange={(e) => onCommit(e.currentTarget.value)}
        >
          {spec.options?.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      );
    case 'list':
      return (
        <input
          className="mono"
          data-testid={`replay-knob-${spec.key}`}
          size={28}
          defaultValue={Array.isArray(value) ? value.join(', ') : ''}
          onBlur={(e) =>
            onCommit(
              e.currentTarget.value
                .split(',')
                .map((t) => t.trim())
                .filter(Boolean),
            )
          }
        />
      );
    case 'text':
      return (
        <input
          data-testid={`replay-knob-${spec.key}`}
          size={28}
          defaultValue={typeof value === 'string' ? value : ''}
          placeholder="none"
          onBlur={(e) => onCommit(e.currentTarget.value === '' ? null : e.currentTarget.value)}
        />
      );
    case 'number':
      return <NumberInput spec={spec} value={value} onCommit={onCommit} />;
  }
}

/** Lines of the session memory shown in an event card. */
export const SESSION_MEMORY_PREVIEW_LINES = 4;

/** The session memory as text (Claude Code's `session-memory/summary.md`): its estimate is the size used. */
function SessionMemoryInput({ sessionId }: { sessionId: SessionId }) {
  const memory = useSessionMemory(sessionId);
  const setText = useReplayStore((s) => s.setSessionMemoryText);
  return (
    <label className="replay-knob session-memory">
      <span>
        Session memory{' '}
        <span className="muted" data-testid="session-memory-size">
          {memory.text.trim()
            ? `≈${formatCount(memory.tokens)} tok (chars / 4)${memory.fileName ? ` · from ${memory.fileName}` : ''}`
            : 'none: full compaction'}
        </span>
      </span>
      <textarea
        className="mono"
        data-testid="session-memory-text"
        rows={4}
        cols={48}
        placeholder="Paste a session-memory/summary.md to compact with it instead of a summary"
        value={memory.text}
        onChange={(e) => setText(e.currentTarget.value)}
      />
    </label>
  );
}

/** Knobs whose value comes from something else the user gives (a pasted text's size). */
const DERIVED_KNOB_INPUTS: Record<string, (props: { sessionId: SessionId }) => ReactNode> = {
  sessionMemoryTokens: SessionMemoryInput,
};

export function ReplayKnobs({
  sessionId,
  specs,
  knobs,
  logKnobs,
}: {
  sessionId: SessionId;
  specs: KnobSpec[];
  knobs: Record<string, KnobValue>;
  logKnobs: Record<string, KnobValue>;
}) {
  const setKnob = useReplayStore((s) => s.setKnob);
  const resetKnobs = useReplayStore((s) => s.resetKnobs);
  const resets = useReplayStore((s) => s.knobsResets);
  // The knobs bar above the chart shows these.
  const barKeys = getTimelineBarKeys(specs);
  const groups = new Map<string, KnobSpec[]>();
  for (const spec of specs) {
    if (barKeys.includes(spec.key)) continue;
    const list = groups.get(spec.group) ?? [];
    list.push(spec);
    groups.set(spec.group, list);
  }
  return (
    <section className="replay-knobs" data-testid="replay-knobs" aria-label="Knobs" tabIndex={-1}>
      {[...groups].map(([group, list]) => (
        <fieldset key={group}>
          <legend>{group}</legend>
          {list.map((spec) => {
            const Derived = DERIVED_KNOB_INPUTS[spec.key];
            if (Derived) return <Derived key={spec.key} sessionId={sessionId} />;
            const value = knobs[spec.key];
            const changed = JSON.stringify(value ?? null) !== JSON.stringify(logKnobs[spec.key] ?? null);
            const unit = spec.kind === 'number' && spec.unit ? UNIT_TEXT[spec.unit] : '';
            return (
              // biome-ignore lint/a11y/noLabelWithoutControl: the control is KnobInput, rendered inside.
              <label
                key={spec.key}
                className={`replay-knob ${changed ? 'changed' : ''}`}
                title={`${describeKnob(spec)}${describeRange(spec)}`}
              >
                <span>
                  {spec.label}
                  {changed ? (
                    <span className="muted" data-testid={`replay-knob-log-${spec.key}`}>
                      {' '}
                      (log: {formatKnobValue(spec, logKnobs[spec.key])})
                    </span>
                  ) : null}
                </span>
                <span className="replay-knob-input">
                  <KnobInput key={resets} spec={spec} value={value} onCommit={(v) => setKnob(spec.key, v)} />
                  {unit && <span className="muted"> {unit}</span>}
                </span>
              </label>
            );
          })}
        </fieldset>
      ))}
      <button type="button" className="btn small" data-testid="replay-reset-knobs" onClick={resetKnobs}>
        Back to the log’s knobs
      </button>
    </section>
  );
}
