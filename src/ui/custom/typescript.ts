import 'monaco-editor/languages/definitions/typescript/register';
import {
  getTypeScriptWorker,
  ModuleKind,
  ScriptTarget,
  typescriptDefaults,
} from 'monaco-editor/languages/features/typescript/register';
import API_TYPES from '../../engine/strategies/api.ts?raw';
import { monaco } from '../summaries/monaco-setup';
import type { CompiledStrategy } from './sandbox';

// TypeScript in the custom strategy's editor, loaded with it (never with the page): Monaco's
// TypeScript worker checks the file against the public API's types (the `compactlab/strategy`
// module, api.ts verbatim) and emits the JavaScript and source map the sandbox runs. No server
// and no other compiler: the worker's language service does both.

typescriptDefaults.setCompilerOptions({
  target: ScriptTarget.ES2020,
  module: ModuleKind.CommonJS,
  strict: true,
  sourceMap: true,
  noEmitOnError: false,
  isolatedModules: true,
});
typescriptDefaults.addExtraLib(
  `declare module 'compactlab/strategy' {\n${API_TYPES}\n}\n`,
  'file:///node_modules/compactlab/strategy.d.ts',
);

export { monaco };

/** One problem of the file, at its line. */
export interface CompileProblem {
  line: number;
  message: string;
}

function flatten(text: string | { messageText: string; next?: unknown[] }): string {
  return typeof text === 'string' ? text : text.messageText;
}

/** How long a compile waits for Monaco to set TypeScript up (ours: 5 s, 100 tries of 50 ms). */
const SETUP_TRIES = 100;
const SETUP_WAIT_MS = 50;

/**
 * Monaco's TypeScript worker factory. Monaco sets the language up when a model of it is first
 * seen, in a later task; a compile asked for before then is refused with "TypeScript not
 * registered!" (a CI run, the machine loaded: the custom strategy's first Run failed with it). So
 * it is asked again until the setup is done, a bounded number of times.
 */
async function getWorkerFactory(): Promise<Awaited<ReturnType<typeof getTypeScriptWorker>>> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await getTypeScriptWorker();
    } catch (error) {
      if (attempt >= SETUP_TRIES || String(error) !== 'TypeScript not registered!') throw error;
      await new Promise((resolve) => setTimeout(resolve, SETUP_WAIT_MS));
    }
  }
}

/** Checks and compiles the editor's model; the problems (syntax and types) block the run. */
export async function compileModel(
  model: monaco.editor.ITextModel,
  fileName: string,
): Promise<{ compiled?: CompiledStrategy; problems: CompileProblem[] }> {
  const getWorker = await getWorkerFactory();
  const worker = await getWorker(model.uri);
  const uri = model.uri.toString();
  const diagnostics = [
    ...(await worker.getSyntacticDiagnostics(uri)),
    ...(await worker.getSemanticDiagnostics(uri)),
  ];
  const problems = diagnostics.map((d) => ({
    line: d.start === undefined ? 1 : model.getPositionAt(d.start).lineNumber,
    message: flatten(d.messageText as string),
  }));
  if (problems.length > 0) return { problems };
  const output = await worker.getEmitOutput(uri);
  const js = output.outputFiles.find((f) => f.name.endsWith('.js'));
  const map = output.outputFiles.find((f) => f.name.endsWith('.js.map'));
  if (!js) return { problems: [{ line: 1, message: 'the TypeScript worker emitted no JavaScript' }] };
  const mappings = map ? (JSON.parse(map.text) as { mappings?: string }).mappings : undefined;
  return { compiled: { code: js.text, mappings, fileName }, problems: [] };
}
