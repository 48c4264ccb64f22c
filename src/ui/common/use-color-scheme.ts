import { useSyncExternalStore } from 'react';

// The scheme the page shows: <html data-theme> when the user picked one (top-bar toggle), else
// the system's prefers-color-scheme. For what CSS cannot colour (Monaco's theme).

type ColorScheme = 'light' | 'dark';

const LIGHT_QUERY = '(prefers-color-scheme: light)';

function getScheme(): ColorScheme {
  const chosen = document.documentElement.dataset.theme;
  if (chosen === 'light' || chosen === 'dark') return chosen;
  return window.matchMedia(LIGHT_QUERY).matches ? 'light' : 'dark';
}

function subscribe(onChange: () => void): () => void {
  const media = window.matchMedia(LIGHT_QUERY);
  media.addEventListener('change', onChange);
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
  return () => {
    media.removeEventListener('change', onChange);
    observer.disconnect();
  };
}

export function useColorScheme(): ColorScheme {
  return useSyncExternalStore(subscribe, getScheme, () => 'dark');
}
