import { useState } from 'react';
import {
  DEFAULT_CONTEXT_WINDOW,
  EXTENDED_CONTEXT_WINDOW,
  THRESHOLD_PROFILES,
  type ThresholdProfileId,
  type Thresholds,
} from '../../engine/thresholds';
import { formatCount, formatTokensShort } from '../common/format';
import { useUiStore } from '../store';
import { THRESHOLD_STYLES } from './draw-timeline';

/** A number input that keeps what the user types and commits only valid values. */
function NumberKnob(props: {
  testId: string;
  label: string;
  value: number | undefined;
  placeholder?: string;
  min: number;
  max: number;
  title: string;
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
    </label>
  );
}

export function KnobsBar({ thresholds }: { thresholds: Thresholds }) {
  const knobs = useUiStore((s) => s.knobs);
  const setKnobs = useUiStore((s) => s.setKnobs);
  return (
    <div className="knobs-bar">
      <label
        className="knob"
        title={`Which Claude Code threshold formula to use: ${THRESHOLD_PROFILES.find((p) => p.id === knobs.profile)?.label ?? ''}`}
      >
        <span>Profile</span>
        <select
          data-testid="knob-profile"
          value={knobs.profile}
          onChange={(e) => setKnobs({ profile: e.currentTarget.value as ThresholdProfileId })}
        >
          {THRESHOLD_PROFILES.map((p) => (
            <option key={p.id} value={p.id} title={`${p.label} — ${p.source}`}>
              {p.id}
            </option>
          ))}
        </select>
      </label>
      <label className="knob" title="Model context window">
        <span>Window</span>
        <select
          data-testid="knob-window"
          value={knobs.contextWindow}
          onChange={(e) => setKnobs({ contextWindow: Number(e.currentTarget.value) })}
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
      <NumberKnob
        testId="knob-max-output"
        label="Max output"
        value={knobs.maxOutputTokens}
        min={1}
        max={1_000_000}
        title="Max output tokens of the model; Claude Code reserves min(this, 20,000)"
        onCommit={(v) => setKnobs({ maxOutputTokens: v ?? 64_000 })}
      />
      <NumberKnob
        testId="knob-pct"
        label="Auto-compact %"
        value={knobs.autocompactPctOverride}
        placeholder="default"
        min={1}
        max={100}
        title="CLAUDE_AUTOCOMPACT_PCT_OVERRIDE (1–100); it can only lower the threshold"
        onCommit={(v) => setKnobs({ autocompactPctOverride: v })}
      />
      <div className="threshold-readout mono">
        {THRESHOLD_STYLES.map((style) => (
          <span
            key={style.key}
            className="threshold"
            data-testid={`threshold-${style.key === 'autoCompact' ? 'autocompact' : style.key}`}
            data-value={thresholds[style.key]}
            style={{ color: style.color }}
          >
            {style.label} {formatCount(thresholds[style.key])}
          </span>
        ))}
      </div>
    </div>
  );
}
