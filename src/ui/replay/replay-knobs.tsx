import { useState } from 'react';
import type { KnobSpec, KnobValue } from '../../engine/strategies/types';
import type { SessionId } from '../../worker/protocol';
import { formatCount } from '../common/format';
import { THRESHOLD_KNOB_KEYS, useReplayStore } from './replay-store';
import { useSessionMemory } from './use-replay';

// The strategy's knobs beyond the thresholds (the knobs bar above the chart owns those), built
// from its `knobSpecs`: each input shows the knob's source as a tooltip and commits valid values
// at once; the replay re-runs after a short debounce.

const OWNED_BY_KNOBS_BAR = new Set<string>(
  THRESHOLD_KNOB_KEYS.filter((k) => k !== 'autoCompactEnabled' && k !== 'blockingLimitOverride'),
);

function NumberInput({
  spec,
  value,
  onCommit,
}: {
  spec: KnobSpec;
  value: KnobValue;
  onCommit: (v: KnobValue) => void;
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
          onCommit(v === undefined ? (null as unknown as KnobValue) : v);
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
  onCommit: (v: KnobValue) => void;
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
          onBlur={(e) =>
            onCommit(e.currentTarget.value === '' ? (null as unknown as KnobValue) : e.currentTarget.value)
          }
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
  const setOverride = useReplayStore((s) => s.setOverride);
  const resetOverrides = useReplayStore((s) => s.resetOverrides);
  const groups = new Map<string, KnobSpec[]>();
  for (const spec of specs) {
    if (OWNED_BY_KNOBS_BAR.has(spec.key)) continue;
    const list = groups.get(spec.group) ?? [];
    list.push(spec);
    groups.set(spec.group, list);
  }
  return (
    <div className="replay-knobs" data-testid="replay-knobs">
      {[...groups].map(([group, list]) => (
        <fieldset key={group}>
          <legend>{group}</legend>
          {list.map((spec) => {
            if (spec.key === 'sessionMemoryTokens')
              return <SessionMemoryInput key={spec.key} sessionId={sessionId} />;
            const value = knobs[spec.key];
            const changed = JSON.stringify(value ?? null) !== JSON.stringify(logKnobs[spec.key] ?? null);
            return (
              // biome-ignore lint/a11y/noLabelWithoutControl: the control is KnobInput, rendered inside.
              <label
                key={spec.key}
                className={`replay-knob ${changed ? 'changed' : ''}`}
                title={`${spec.help ? `${spec.help}\n` : ''}Source: ${spec.source}`}
              >
                <span>
                  {spec.label}
                  {spec.unit === 'tokens' && typeof logKnobs[spec.key] === 'number' && changed ? (
                    <span className="muted"> (log: {formatCount(logKnobs[spec.key] as number)})</span>
                  ) : null}
                </span>
                <KnobInput spec={spec} value={value} onCommit={(v) => setOverride(spec.key, v)} />
              </label>
            );
          })}
        </fieldset>
      ))}
      <button type="button" className="btn small" data-testid="replay-reset-knobs" onClick={resetOverrides}>
        Back to the log’s knobs
      </button>
    </div>
  );
}
