import { useMemo, useState } from 'react';
import { getStrategy } from '../../engine/strategies/registry';
import type { KnobSpec, KnobValue } from '../../engine/strategies/types';
import {
  DEFAULT_CONTEXT_WINDOW,
  DEFAULT_MAX_OUTPUT_TOKENS,
  EXTENDED_CONTEXT_WINDOW,
  THRESHOLD_PROFILES,
  type ThresholdKnobs,
} from '../../engine/thresholds';
import type { SessionId } from '../../worker/protocol';
import { formatCount, formatTokensShort } from '../common/format';
import { useReplayStore } from '../replay/replay-store';
import type { ThresholdBars } from './threshold-bars';

// The threshold knobs above the chart. It shows only the knobs the selected strategy has and
// writes them where every knob is written (replay-store.ts `setKnob`), so another strategy's knob
// of the same name is never touched; the knobs panel shows the rest.

/** The knobs this bar shows (when the selected strategy has them); the knobs panel skips them. */
export const KNOBS_BAR_KEYS: readonly string[] = [
  'profile',
  'contextWindow',
  'maxOutputTokens',
  'autocompactPctOverride',
];

/** The tooltip of a knob: its name, help and where its default comes from. */
export function describeKnob(spec: KnobSpec): string {
  return `${spec.label}${spec.help ? `\n${spec.help}` : ''}\nSource: ${spec.source}`;
}

/** A number input that keeps what the user types and commits only valid values. */
function NumberKnob(props: {
  testId: string;
  label: string;
  value: number | undefined;
  placeholder?: string;
  min: number;
  max: number;
  title: string;
  unit?: string;
  onCommit: (value: number | undefined) => void;
}) {
  const [text, setText] = useState(props.value === undefined ? '' : String(props.value));
  const [seen, setSeen] = useState(props.value);
  if (seen !== props.value) {
    // The store changed from elsewhere (a new session): show the new value.
    setSeen(props.value);
    setText(props.value === undefined ? '' : String(props.value));
  }
  const parsed = text.trim() === '' ? undefined : Number(text.replace(/[,_\s]/g, ''));
  const valid =
    parsed === undefined || (Number.isFinite(parsed) && parsed >= props.min && parsed <= props.max);
  return (
    <label className="knob" title={props.title}>
      <span>{props.label}</span>
      <input
        data-testid={props.testId}
        className={valid ? 'mono' : 'mono invalid'}
        inputMode="numeric"
        value={text}
        placeholder={props.placeholder}
        size={8}
        onChange={(e) => {
          const next = e.currentTarget.value;
          setText(next);
          const n = next.trim() === '' ? undefined : Number(next.replace(/[,_\s]/g, ''));
          if (n === undefined || (Number.isFinite(n) && n >= props.min && n <= props.max)) {
            setSeen(n);
            props.onCommit(n);
          }
        }}
      />
      {props.unit && <span className="muted">{props.unit}</span>}
    </label>
  );
}

export function KnobsBar({
  sessionId,
  knobs,
  thresholds,
}: {
  sessionId: SessionId;
  /** The chart's threshold knobs (replay/use-knobs.ts `useThresholdKnobs`). */
  knobs: ThresholdKnobs;
  /** The selected strategy's lines (undefined until its knobs are in). */
  thresholds?: ThresholdBars;
}) {
  const strategyId = useReplayStore((s) => s.strategyId);
  const ready = useReplayStore((s) => s.sessionId === sessionId);
  const setKnob = useReplayStore((s) => s.setKnob);
  const specs = useMemo(
    () => new Map(getStrategy(strategyId).knobSpecs.map((spec) => [spec.key, spec])),
    [strategyId],
  );
  const profile = specs.get('profile');
  const window = specs.get('contextWindow');
  const maxOutput = specs.get('maxOutputTokens');
  const pct = specs.get('autocompactPctOverride');
  // Edits wait for the session's knobs (an edit before them would belong to the previous session).
  const set = (key: string, value: KnobValue | null) => ready && setKnob(key, value);
  return (
    <div className="knobs-bar">
      {profile && (
        <label
          className="knob"
          title={`${THRESHOLD_PROFILES.find((p) => p.id === knobs.profile)?.label ?? ''}\n${describeKnob(profile)}`}
        >
          <span>Profile</span>
          <select
            data-testid="knob-profile"
            value={knobs.profile}
            onChange={(e) => set('profile', e.currentTarget.value)}
          >
            {THRESHOLD_PROFILES.map((p) => (
              <option key={p.id} value={p.id} title={`${p.label} — ${p.source}`}>
                {p.id}
              </option>
            ))}
          </select>
        </label>
      )}
      {window && (
        <label className="knob" title={describeKnob(window)}>
          <span>Window</span>
          <select
            data-testid="knob-window"
            value={knobs.contextWindow}
            onChange={(e) => set('contextWindow', Number(e.currentTarget.value))}
          >
            <option value={DEFAULT_CONTEXT_WINDOW}>200k</option>
            <option value={EXTENDED_CONTEXT_WINDOW}>1M</option>
            {/* A window the log states (e.g. Codex's model_context_window) that is neither. */}
            {knobs.contextWindow !== DEFAULT_CONTEXT_WINDOW &&
              knobs.contextWindow !== EXTENDED_CONTEXT_WINDOW && (
                <option value={knobs.contextWindow}>{formatTokensShort(knobs.contextWindow)}</option>
              )}
          </select>
        </label>
      )}
      {maxOutput && (
        <NumberKnob
          testId="knob-max-output"
          label="Max output"
          unit="tokens"
          value={knobs.maxOutputTokens}
          min={1}
          max={1_000_000}
          title={`Claude Code reserves min(this, 20,000) for the answer\n${describeKnob(maxOutput)}`}
          onCommit={(v) => set('maxOutputTokens', v ?? DEFAULT_MAX_OUTPUT_TOKENS)}
        />
      )}
      {pct && (
        <NumberKnob
          testId="knob-pct"
          label="Auto-compact %"
          value={knobs.autocompactPctOverride}
          placeholder="default"
          min={1}
          max={100}
          title={`CLAUDE_AUTOCOMPACT_PCT_OVERRIDE (1–100); it can only lower the threshold\n${describeKnob(pct)}`}
          // Empty: no override (`null` clears an optional knob).
          onCommit={(v) => set('autocompactPctOverride', v ?? null)}
        />
      )}
      <div className="threshold-readout mono" data-testid="threshold-readout">
        {thresholds?.bars.map((bar) => (
          <span
            key={bar.id}
            className="threshold"
            data-testid={bar.testId}
            data-value={bar.tokens}
            data-kind={bar.kind}
            data-off={bar.off ? 'true' : undefined}
            title={`${bar.label}: ${bar.off ? 'turned off by the knobs: where it would act' : bar.kind === 'trigger' ? 'the strategy acts here' : bar.kind === 'warning' ? 'a warning only' : 'requests are refused here'}`}
            style={{ color: bar.color }}
          >
            {bar.label} {formatCount(bar.tokens)}
          </span>
        ))}
      </div>
    </div>
  );
}
