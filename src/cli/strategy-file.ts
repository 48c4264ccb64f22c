import fs from 'node:fs';
import { basename, resolve } from 'node:path';
import vm from 'node:vm';
import { CustomStrategyError } from '../engine/strategies/custom-actions';
import {
  adaptCustomStrategy,
  type CustomStrategyHost,
  readStrategyExport,
} from '../engine/strategies/custom';
import { registerCustomStrategy } from '../engine/strategies/registry';
import { getErrorSourceLine } from '../engine/strategies/source-map-line';
import type { CompactionStrategy, KnobValue } from '../engine/strategies/types';

// `--strategy-file my-strategy.ts` (and `--strategy a,./my-strategy.ts`): a strategy written
// against the public API (docs/custom-strategies.md), compiled by esbuild (TypeScript to
// JavaScript, a source map to name lines), evaluated in a fresh `node:vm` context (the language's
// built-ins only: no require, process, fetch or timers) and registered beside the built-ins. Every
// call into it runs under one time budget per replay: an endless loop is stopped there and said
// so. Memory: a command that names a file runs it in a worker thread with a heap limit
// (strategy-thread.ts). A plain `.js` file is read the same way.

/** Ours: the time the strategy's own code may take over one replay (its steps, all calls), and to load. */
const STRATEGY_TIME_LIMIT_MS = 10_000;
/** Ours: a strategy file larger than this is refused before compiling. */
const MAX_FILE_BYTES = 1_000_000;

/** Whether a `--strategy` list item names a file rather than a strategy id. */
export function isStrategyPath(item: string): boolean {
  return /[\\/]/.test(item) || /\.[cm]?[jt]s$/.test(item);
}

const loaded = new Map<string, string>();
let onLoaded: ((path: string, id: string) => void) | undefined;

/** Called with each file's full path and strategy id as it loads (a strategy thread tells its parent). */
export function setStrategyLoadListener(listener: (path: string, id: string) => void): void {
  onLoaded = listener;
}

/** A loaded file's strategy id (cached per path for this process and thread). */
export async function loadStrategyFile(path: string, timeLimitMs = STRATEGY_TIME_LIMIT_MS): Promise<string> {
  const full = resolve(path);
  const known = loaded.get(full);
  if (known !== undefined) return known;
  const stat = fs.statSync(full, { throwIfNoEntry: false });
  if (!stat?.isFile()) throw new CustomStrategyError(`${path}: no such file`);
  if (stat.size > MAX_FILE_BYTES)
    throw new CustomStrategyError(`${path}: ${stat.size} bytes (the limit is 1 MB)`);
  const strategy = await compileStrategySource(fs.readFileSync(full, 'utf8'), basename(full), timeLimitMs);
  registerCustomStrategy(strategy);
  loaded.set(full, strategy.id);
  onLoaded?.(full, strategy.id);
  return strategy.id;
}

/** Compiles, evaluates and adapts a strategy's source; errors name the file and line. */
export async function compileStrategySource(
  source: string,
  fileName: string,
  timeLimitMs = STRATEGY_TIME_LIMIT_MS,
): Promise<CompactionStrategy<Record<string, KnobValue>>> {
  const { transform } = await import('esbuild');
  let compiled: { code: string; map: string };
  try {
    compiled = await transform(source, {
      loader: /\.[cm]?js$/.test(fileName) ? 'js' : 'ts',
      format: 'cjs',
      target: 'es2022',
      sourcemap: 'external',
      sourcefile: fileName,
    });
  } catch (error) {
    const first = (error as { errors?: { text: string; location?: { line: number; column: number } }[] })
      .errors?.[0];
    const at = first?.location ? `:${first.location.line}:${first.location.column + 1}` : '';
    throw new CustomStrategyError(`${fileName}${at}: ${first?.text ?? (error as Error).message}`);
  }
  const mappings = (JSON.parse(compiled.map) as { mappings: string }).mappings;
  const jsName = `${fileName}.js`;
  let spent = 0;
  const describe = (error: unknown, what: string): CustomStrategyError => {
    if (error instanceof CustomStrategyError) return error;
    const e = error as { code?: string; message?: string; stack?: string; name?: string };
    if (e?.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT')
      return new CustomStrategyError(
        `${fileName}: ${what} was stopped: the strategy's code ran past its time limit (${(timeLimitMs / 1000).toLocaleString('en-US')} s a replay; an endless loop?)`,
      );
    const line = typeof e?.stack === 'string' ? getErrorSourceLine(e.stack, jsName, mappings) : undefined;
    const message = typeof e?.message === 'string' ? `${e.name ?? 'Error'}: ${e.message}` : String(error);
    return new CustomStrategyError(
      `${fileName}${line !== undefined ? `:${line}` : ''}: ${what} threw ${message}`,
    );
  };
  const context = vm.createContext(Object.create(null), {
    name: fileName,
    codeGeneration: { strings: false, wasm: false },
  });
  const run = new vm.Script('globalThis.__call()', { filename: 'compactlab-host.js' });
  const host: CustomStrategyHost = {
    fileName,
    startRun: () => {
      spent = 0;
    },
    call<T>(what: string, fn: () => T): T {
      const left = timeLimitMs - spent;
      if (left <= 0) throw describe({ code: 'ERR_SCRIPT_EXECUTION_TIMEOUT' }, what);
      let result: T | undefined;
      const t0 = performance.now();
      try {
        (context as { __call?: () => void }).__call = () => {
          result = fn();
        };
        run.runInContext(context, { timeout: Math.max(1, Math.ceil(left)) });
      } catch (error) {
        throw describe(error, what);
      } finally {
        spent += performance.now() - t0;
      }
      return result as T;
    },
  };
  // The module's own code: `require` answers only the API's types' module (erased already).
  const moduleObject = { exports: {} as Record<string, unknown> };
  const requireStub = (id: string) => {
    if (id === 'compactlab/strategy') return {};
    throw new Error(
      `imports are not available to a strategy (only "import type" from 'compactlab/strategy'): "${id}"`,
    );
  };
  host.call('loading the file', () => {
    const factory = new vm.Script(`(function (module, exports, require) {${compiled.code}\n})`, {
      filename: jsName,
    }).runInContext(context) as (m: unknown, e: unknown, r: unknown) => void;
    factory(moduleObject, moduleObject.exports, requireStub);
  });
  const given = moduleObject.exports;
  try {
    return adaptCustomStrategy(readStrategyExport(moduleObject.exports, given), host);
  } catch (error) {
    if (error instanceof CustomStrategyError) throw new CustomStrategyError(`${fileName}: ${error.message}`);
    throw describe(error, 'its definition');
  }
}
