import { create } from 'zustand';
import type { KnobSpec, KnobValue } from '../../engine/strategies/types';
import type { SessionId } from '../../worker/protocol';
import type { SandboxRun } from './sandbox';
import type { CompileProblem } from './typescript';
import { TEMPLATES } from './templates';

// The Custom strategy editor's state, outside the panel: the panel unmounts whenever the replay
// strip re-renders without it (its strategy's setup loading after a pick in the strip, the × and
// Custom… again), and a state held in the panel went back to the first example then, so Run ran
// the example instead of the file that was run (tester's report: picking the custom strategy in
// the strip showed clear-old-results.ts). The file stays across sessions; a run's result and its
// knobs are the session's they ran on.

export type CustomStatus =
  | { kind: 'idle' }
  /** Compiling the file (the editor's TypeScript), then replaying it in its sandbox. */
  | { kind: 'running'; stage: 'compiling' | 'replaying'; fileName: string }
  | { kind: 'problems'; problems: CompileProblem[] }
  | { kind: 'error'; message: string }
  | { kind: 'done'; run: SandboxRun };

interface CustomEditorState {
  /** The session the status and knobs are of. */
  sessionId?: SessionId;
  name: string;
  source: string;
  status: CustomStatus;
  /** The last run's knobs (its strategy's specs) and the values set for the next run. */
  knobSpecs: KnobSpec[];
  knobDefaults: Record<string, KnobValue>;
  overrides: Record<string, number | boolean>;
}

const FIRST = TEMPLATES[0]!;

export const useCustomEditor = create<CustomEditorState>()(() => ({
  name: FIRST.name,
  source: FIRST.source,
  status: { kind: 'idle' },
  knobSpecs: [],
  knobDefaults: {},
  overrides: {},
}));

/** The panel opened on `sessionId`: another session's result and knobs are dropped, the file kept. */
export function enterCustomEditor(sessionId: SessionId): void {
  if (useCustomEditor.getState().sessionId === sessionId) return;
  useCustomEditor.setState({
    sessionId,
    status: { kind: 'idle' },
    knobSpecs: [],
    knobDefaults: {},
    overrides: {},
  });
}

/** A file opened (an example, a saved one, an import): shown, not run, the last run's knobs gone. */
export function openCustomFile(name: string, source: string): void {
  useCustomEditor.setState({ name, source, status: { kind: 'idle' }, knobSpecs: [], overrides: {} });
}
