import { lazy } from 'react';

// Monaco is ~4 MB: it loads with the first editor the Summaries view shows, never at startup.

export const PromptEditor = lazy(() => import('./editors').then((m) => ({ default: m.PromptEditor })));
export const ReadOnlyViewer = lazy(() => import('./editors').then((m) => ({ default: m.ReadOnlyViewer })));
export const TextDiff = lazy(() => import('./editors').then((m) => ({ default: m.TextDiff })));
