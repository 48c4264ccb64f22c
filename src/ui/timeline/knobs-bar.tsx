import { type CSSProperties, useMemo, useState } from 'react';
import { getTimelineBarKeys } from '../../engine/strategies/knobs';
import { getPageStrategyDescriptor } from '../custom/custom-registry';
import type { KnobSpec, KnobValue } from '../../engine/strategies/types';
import { DEFAULT_CONTEXT_WINDOW, EXTENDED_CONTEXT_WINDOW } from '../../engine/thresholds';
import type { SessionId } from '../../worker/protocol';
import { formatCount, formatTokensShort } from '../common/format';
import { useReplayStore } from '../replay/replay-store';
import { CONTEXT_WINDOW_KEY, type Knobs, useShownKnobs } from '../replay/use-knobs';
import type { ThresholdBars } from './threshold-bars';

// The threshold knobs above the chart: the selected strategy's specs that say `timelineBar`
// (strategies/knobs.ts getTimelineBarKeys), drawn from the spec (a select's options, a number's
// range, a switch), and the readout of the lines `strategy.thresholds(knobs)` gives. It writes
// where every knob is written (replay-store.ts `setKnob`), so another strategy's knob of the same
// name is never touched; the knobs panel shows the rest.

/**
 * How the bar draws a knob in little room: a short label and the test id (the e2e specs'); a
 * window knob offers the two windows models have besides any value typed. Others: the spec's label.
 */
const BAR_LOOKS: Readonly<Record<string, { label: string; testId: string; choices?: readonly number[] }>> = {
  profile: { label: 'Profile', testId: 'knob-profile' },
  [CONTEXT_WINDOW_KEY]: {
    label: 'Window',
    testId: 'knob-window',
    choices: [DEFAULT_CONTEXT_WINDOW, EXTENDED_CONTEXT_WINDOW],
  },
  maxOutputTokens: { label: 'Max output', testId: 'knob-max-output' },
  autocompactPctOverride: { label: 'Auto-compact %', testId: 'knob-pct' },
  blockingLimitOverride: { label: 'Blocking at', testId: 'knob-blocking-limit' },
  autoCompactEnabled: { label: 'Auto-compact', testId: 'knob-auto-compact' },
};

/** The tooltip of a knob: its name, help and where its default comes from. */
export function describeKnob(spec: KnobSpec): string {
  return `${spec.label}${spec.help ? `\n${spec.help}` : ''}\nSource: ${spec.source}`;
}

const UNIT_SHORT: Record<NonNullable<KnobSpec['unit']>, string> = {
  tokens: 'tokens',
  percent: '%',
  count: '',
};

/** The range a number knob accepts, for its tooltip ("\nRange: 1,000–200,000 tokens"); none, ''. */
export function describeRange(spec: KnobSpec): string {
  if (spec.min === undefined && spec.max === undefined) return '';
  const unit = spec.unit && UNIT_SHORT[spec.unit] ? ` ${UNIT_SHORT[spec.unit]}` : '';
  const from = spec.min === undefined ? '' : formatCount(spec.min);
  const to = spec.max === undefined ? '' : formatCount(spec.max);
  const step = spec.step === undefined ? '' : `, step ${formatCount(spec.step)}`;
  return `\nRange: ${from}–${to}${unit}${step}`;
}

/** A number input that keeps what the user types and commits only valid values. */
function NumberKnob(props: {
  spec: KnobSpec;
  testId: string;
  label: string;
  value: number | undefined;
  fallback: KnobValue;
  onCommit: (value: KnobValue | null) => void;
}) {
  const { spec } = props;
  const [text, setText] = useState(props.value === undefined ? '' : String(props.value));
  const [seen, setSeen] = useState(props.value);
  if (seen !== props.value) {
    // The store changed from elsewhere (a new session): show the new value.
    setSeen(props.value);
    setText(props.value === undefined ? '' : String(props.value));
  }
  const parse = (t: string) => (t.trim() === '' ? undefined : Number(t.replace(/[,_\s]/g, '')));
  const isValid = (n: number | undefined) =>
    n === undefined ||
    (Number.isFinite(n) &&
      n >= (spec.min ?? Number.NEGATIVE_INFINITY) &&
      n <= (spec.max ?? Number.POSITIVE_INFINITY));
  // The unit is in the tooltip: the bar has room for the knobs and the readout on one line at 1280 px.
  const unit = spec.unit ? UNIT_SHORT[spec.unit] : '';
  const valid = isValid(parse(text));
  return (
    <label
      className="knob"
      title={`${describeKnob(spec)}${unit ? `\nIn ${unit}` : ''}${describeRange(spec)}`}
    >
      <span>{props.label}</span>
      <input
        data-testid={props.testId}
        className={valid ? 'mono' : 'mono invalid'}
        // A value out of range was red and nothing more: the replay kept the last valid one unsaid.
        aria-invalid={!valid}
        title={
          valid
            ? undefined
            : `Not applied: outside the range; the replay keeps the last valid value.${describeRange(spec)}`
        }
        inputMode="numeric"
        value={text}
        placeholder={spec.optional ? 'default' : undefined}
        size={6}
        onChange={(e) => {
          const next = e.currentTarget.value;
          setText(next);
          const n = parse(next);
          if (!isValid(n)) return;
          setSeen(n);
          // Empty: an optional knob is cleared (`null`), another goes back to its default.
          props.onCommit(n ?? (spec.optional ? null : props.fallback));
        }}
      />
    </label>
  );
}

/** One knob of the bar, drawn from its spec. */
function BarKnob({
  spec,
  value,
  fallback,
  onCommit,
}: {
  spec: KnobSpec;
  value: KnobValue;
  fallback: KnobValue;
  onCommit: (value: KnobValue | null) => void;
}) {
  const look = BAR_LOOKS[spec.key] ?? { label: spec.label, testId: `knob-${spec.key}` };
  if (spec.kind === 'select') {
    const option = spec.options?.find((o) => o.value === value);
    return (
      <label className="knob" title={`${option?.label ?? ''}\n${describeKnob(spec)}`}>
        <span>{look.label}</span>
        <select
          data-testid={look.testId}
          value={String(value ?? '')}
          onChange={(e) => onCommit(e.currentTarget.value)}
        >
          {spec.options?.map((o) => (
            <option key={o.value} value={o.value} title={o.label}>
              {o.short ?? o.value}
            </option>
          ))}
        </select>
      </label>
    );
  }
  if (spec.kind === 'boolean') {
    return (
      <label className="knob" title={describeKnob(spec)}>
        <input
          type="checkbox"
          data-testid={look.testId}
          checked={value === true}
          onChange={(e) => onCommit(e.currentTarget.checked)}
        />
        <span>{look.label}</span>
      </label>
    );
  }
  if (spec.kind === 'number' && look.choices && typeof value === 'number') {
    return (
      <label className="knob" title={describeKnob(spec)}>
        <span>{look.label}</span>
        <select
          data-testid={look.testId}
          value={value}
          onChange={(e) => onCommit(Number(e.currentTarget.value))}
        >
          {look.choices.map((c) => (
            <option key={c} value={c}>
              {formatTokensShort(c)}
            </option>
          ))}
          {/* A value the log states or the knobs panel set that is none of them. */}
          {!look.choices.includes(value) && <option value={value}>{formatTokensShort(value)}</option>}
        </select>
      </label>
    );
  }
  if (spec.kind === 'number') {
    return (
      <NumberKnob
        spec={spec}
        testId={look.testId}
        label={look.label}
        value={typeof value === 'number' ? value : undefined}
        fallback={fallback}
        onCommit={onCommit}
      />
    );
  }
  return null;
}

export function KnobsBar({
  sessionId,
  thresholds,
}: {
  sessionId: SessionId;
  /** The selected strategy's lines (undefined until its knobs are in). */
  thresholds?: ThresholdBars;
}) {
  const strategyId = useReplayStore((s) => s.strategyId);
  const ready = useReplayStore((s) => s.sessionId === sessionId);
  const setKnob = useReplayStore((s) => s.setKnob);
  const knobs: Knobs = useShownKnobs(sessionId, strategyId);
  const strategy = getPageStrategyDescriptor(strategyId);
  const specs = useMemo(() => {
    const keys = new Set(getTimelineBarKeys(strategy.knobSpecs));
    return strategy.knobSpecs.filter((spec) => keys.has(spec.key));
  }, [strategy]);
  // Edits wait for the session's knobs (an edit before them would belong to the previous session).
  const set = (key: string, value: KnobValue | null) => ready && setKnob(key, value);
  const defaults: Knobs = strategy.defaultKnobs;
  const resets = useReplayStore((s) => s.knobsResets);
  return (
    <div className="knobs-bar">
      {specs.map((spec) => (
        <BarKnob
          key={`${spec.key}:${resets}`}
          spec={spec}
          value={knobs[spec.key]}
          fallback={defaults[spec.key]}
          onCommit={(v) => set(spec.key, v)}
        />
      ))}
      <div className="threshold-readout mono" data-testid="threshold-readout">
        {thresholds?.bars.map((bar) => (
          <span
            key={bar.testId}
            className="threshold ink"
            data-testid={bar.testId}
            data-value={bar.tokens}
            data-kind={bar.kind}
            data-off={bar.off ? 'true' : undefined}
            title={`${bar.label}: ${bar.off ? 'turned off by the knobs: where it would act' : bar.kind === 'trigger' ? 'the strategy acts here' : bar.kind === 'warning' ? 'a warning only' : 'requests are refused here'}`}
            style={{ '--c': bar.color } as CSSProperties}
          >
            {bar.label} {formatCount(bar.tokens)}
            {bar.fromX !== undefined && bar.toX !== undefined && ` (calls ${bar.fromX + 1}–${bar.toX + 1})`}
          </span>
        ))}
      </div>
    </div>
  );
}
