import { useLayoutEffect, useRef } from 'react';

/**
 * A password input whose value never reaches a DOM attribute. React mirrors a controlled
 * input's `value` into the `value` attribute (and `defaultValue` is that attribute), where
 * extensions, DOM dumps and CSS attribute selectors can read it; this input is uncontrolled and
 * its value is set as a property only.
 */
export function SecretInput({
  value,
  onChange,
  testId,
  type = 'password',
  className,
}: {
  value: string;
  onChange: (value: string) => void;
  testId?: string;
  /** `text` for a value shown as typed but kept out of attributes (a base URL may hold a key). */
  type?: 'password' | 'text';
  className?: string;
}) {
  const ref = useRef<HTMLInputElement>(null);
  useLayoutEffect(() => {
    if (ref.current && ref.current.value !== value) ref.current.value = value;
  }, [value]);
  return (
    <input
      ref={ref}
      type={type}
      className={className}
      autoComplete="off"
      spellCheck={false}
      data-testid={testId}
      onChange={(e) => onChange(e.currentTarget.value)}
    />
  );
}
