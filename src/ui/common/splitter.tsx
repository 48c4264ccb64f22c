import { type KeyboardEvent, type PointerEvent, useRef } from 'react';

// A drag handle between two panels. Dragging (or arrow keys when focused) reports the new size;
// `sign` is −1 when moving the pointer right/down should shrink the panel it sizes.

interface SplitterProps {
  axis: 'x' | 'y';
  value: number;
  onChange: (px: number) => void;
  sign?: 1 | -1;
  label: string;
  testId?: string;
}

const KEY_STEP_PX = 16;

export function Splitter({ axis, value, onChange, sign = 1, label, testId }: SplitterProps) {
  const drag = useRef<{ start: number; value: number }>(undefined);
  const coord = (e: PointerEvent) => (axis === 'x' ? e.clientX : e.clientY);
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const back = axis === 'x' ? 'ArrowLeft' : 'ArrowUp';
    const forward = axis === 'x' ? 'ArrowRight' : 'ArrowDown';
    if (e.key !== back && e.key !== forward) return;
    e.preventDefault();
    onChange(value + sign * (e.key === forward ? KEY_STEP_PX : -KEY_STEP_PX));
  };
  return (
    // biome-ignore lint/a11y/useSemanticElements: an <hr> cannot take focus or pointer drags.
    <div
      role="separator"
      tabIndex={0}
      aria-orientation={axis === 'x' ? 'vertical' : 'horizontal'}
      aria-label={label}
      aria-valuenow={Math.round(value)}
      title={`${label} (drag, or arrow keys)`}
      className={`splitter splitter-${axis}`}
      data-testid={testId}
      onPointerDown={(e) => {
        e.preventDefault();
        e.currentTarget.setPointerCapture(e.pointerId);
        drag.current = { start: coord(e), value };
      }}
      onPointerMove={(e) => {
        if (!drag.current) return;
        onChange(drag.current.value + sign * (coord(e) - drag.current.start));
      }}
      onPointerUp={() => {
        drag.current = undefined;
      }}
      onPointerCancel={() => {
        drag.current = undefined;
      }}
      onKeyDown={onKeyDown}
    />
  );
}
