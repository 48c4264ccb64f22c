import { useState } from 'react';

// Light or dark: the system's choice (prefers-color-scheme) until the user picks one here; the
// pick is kept in localStorage and applied as <html data-theme> (styles.css holds both palettes).

type ThemeChoice = 'system' | 'light' | 'dark';

const STORAGE_KEY = 'compactlab.theme';
const NEXT: Record<ThemeChoice, ThemeChoice> = { system: 'light', light: 'dark', dark: 'system' };
const LABELS: Record<ThemeChoice, string> = { system: '◐ Auto', light: '☀ Light', dark: '☾ Dark' };

function readThemeChoice(): ThemeChoice {
  try {
    const stored = localStorage.getItem(STORAGE_KEY);
    return stored === 'light' || stored === 'dark' ? stored : 'system';
  } catch {
    return 'system'; // storage blocked (private mode, sandboxed frame)
  }
}

function applyThemeChoice(choice: ThemeChoice): void {
  const root = document.documentElement;
  if (choice === 'system') delete root.dataset.theme;
  else root.dataset.theme = choice;
  try {
    if (choice === 'system') localStorage.removeItem(STORAGE_KEY);
    else localStorage.setItem(STORAGE_KEY, choice);
  } catch {
    // The choice still holds for this tab.
  }
}

// Before the first paint of the top bar, so a stored choice does not flash the other scheme.
if (typeof document !== 'undefined') applyThemeChoice(readThemeChoice());

export function ThemeToggle() {
  const [choice, setChoice] = useState(readThemeChoice);
  return (
    <button
      type="button"
      className="btn theme-toggle"
      data-testid="theme-toggle"
      data-theme-choice={choice}
      title={`Colour scheme: ${choice === 'system' ? 'follows the system' : choice} (click for ${NEXT[choice] === 'system' ? 'the system’s' : NEXT[choice]})`}
      onClick={() => {
        const next = NEXT[choice];
        applyThemeChoice(next);
        setChoice(next);
      }}
    >
      {LABELS[choice]}
    </button>
  );
}
