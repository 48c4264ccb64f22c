import type { ReactNode } from 'react';

/** One tab of a small tab strip (`.tabs`): selected state, test id and click in one place. */
export function TabButton({
  selected,
  testId,
  onSelect,
  children,
}: {
  selected: boolean;
  testId: string;
  onSelect: () => void;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      role="tab"
      aria-selected={selected}
      className={selected ? 'on' : ''}
      data-testid={testId}
      onClick={onSelect}
    >
      {children}
    </button>
  );
}
