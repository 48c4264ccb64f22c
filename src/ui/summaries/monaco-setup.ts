// Monaco, bundled and fully offline (docs/sources.md#stack-monaco).
// The core API plus the features and languages this view uses; workers come from the bundle;
// `loader.config({ monaco })` stops @monaco-editor/react from fetching Monaco from a CDN.
import { loader } from '@monaco-editor/react';
import * as monaco from 'monaco-editor/editor';
import 'monaco-editor/features/register.all';
import 'monaco-editor/languages/features/json/register';
import 'monaco-editor/languages/definitions/markdown/register';
import 'monaco-editor/languages/definitions/xml/register';
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';
import JsonWorker from 'monaco-editor/languages/features/json/json.worker?worker';
import TsWorker from 'monaco-editor/languages/features/typescript/ts.worker?worker';

self.MonacoEnvironment = {
  getWorker(_id: string, label: string) {
    if (label === 'json') return new JsonWorker();
    // The custom strategy's editor (ui/custom/typescript.ts): types checked and JavaScript emitted.
    if (label === 'typescript' || label === 'javascript') return new TsWorker();
    // Diff computation, links and the rest run in the generic editor worker.
    return new EditorWorker();
  },
};

loader.config({ monaco });

/** Fired when Monaco could not compute a diff (below); the diff box says so (editors.tsx). */
export const diffFailures = new EventTarget();

// Monaco's diff view model rejects with this error when its editor worker answers a diff with no
// result (the worker asked did not hold the two texts); nothing in Monaco awaits that promise, so
// it reached the page as an uncaught error, once, on a loaded CI machine (not reproduced here: a
// refused worker gives other errors). The diff box shows what failed instead.
self.addEventListener('unhandledrejection', (event) => {
  if (event.reason instanceof Error && event.reason.message === 'no diff result available') {
    event.preventDefault();
    diffFailures.dispatchEvent(new Event('failure'));
  }
});

export { monaco };
