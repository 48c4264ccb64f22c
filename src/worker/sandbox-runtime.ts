/// <reference lib="webworker" />
// The worker a custom strategy runs in (docs/custom-strategies.md, "Where it runs"). The page
// starts it from a blob it writes (ui/custom/sandbox.ts): that blob first removes the network and
// storage from this global (fetch, XMLHttpRequest, WebSocket, importScripts, indexedDB, …), then
// defines the strategy's compiled module as a function, then imports this file. Here the module is
// run, adapted and registered beside the built-ins, and the worker answers the engine's requests
// (the session's load, replays, Compare) as the page's engine does; a custom strategy's id is one
// more strategy to them. The page gives it the session's files and nothing else (no API key), and
// terminates it when a request passes the time limit.

import {
  adaptCustomStrategy,
  type CustomStrategyHost,
  readStrategyExport,
} from '../engine/strategies/custom';
import { CustomStrategyError } from '../engine/strategies/custom-actions';
import { registerCustomStrategy } from '../engine/strategies/registry';
import { getErrorSourceLine } from '../engine/strategies/source-map-line';
import { ENGINE_HANDLERS } from './engine-handlers';
import { createEngineHost } from './engine-host';
import type { SandboxReady, ToWorker } from './protocol';

declare const self: DedicatedWorkerGlobalScope & {
  __compactlabStrategy?: {
    factory: (module: unknown, exports: unknown, require: unknown) => void;
    fileName: string;
    mappings?: string;
    /** Lines of the blob before the compiled code's first line. */
    lineOffset: number;
  };
};

function load(): SandboxReady {
  const source = self.__compactlabStrategy;
  if (!source) return { type: 'sandbox-ready', error: 'no strategy was given' };
  const { fileName, mappings, lineOffset } = source;
  const describe = (error: unknown, what: string): CustomStrategyError => {
    if (error instanceof CustomStrategyError) return error;
    const e = error as { message?: string; stack?: string; name?: string };
    const line =
      typeof e?.stack === 'string'
        ? getErrorSourceLine(e.stack, self.location.href, mappings, lineOffset)
        : undefined;
    const message = typeof e?.message === 'string' ? `${e.name ?? 'Error'}: ${e.message}` : String(error);
    return new CustomStrategyError(
      `${fileName}${line !== undefined ? `:${line}` : ''}: ${what} threw ${message}`,
    );
  };
  const host: CustomStrategyHost = {
    fileName,
    call: (what, fn) => {
      try {
        return fn();
      } catch (error) {
        throw describe(error, what);
      }
    },
  };
  try {
    const module = { exports: {} as Record<string, unknown> };
    const given = module.exports;
    const require = (id: string) => {
      if (id === 'compactlab/strategy') return {};
      throw new Error(
        `imports are not available to a strategy (only "import type" from 'compactlab/strategy'): "${id}"`,
      );
    };
    host.call('loading the file', () => source.factory(module, module.exports, require));
    const strategy = adaptCustomStrategy(readStrategyExport(module.exports, given), host);
    registerCustomStrategy(strategy);
    return {
      type: 'sandbox-ready',
      id: strategy.id,
      label: strategy.label,
      knobSpecs: [...strategy.knobSpecs],
      defaultKnobs: { ...strategy.defaultKnobs },
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      type: 'sandbox-ready',
      error: message.startsWith(fileName) ? message : `${fileName}: ${message}`,
    };
  }
}

const ready = load();
self.postMessage(ready);
const host = createEngineHost(ENGINE_HANDLERS, (message, transfer) => self.postMessage(message, transfer));
self.onmessage = (event: MessageEvent<ToWorker>) => host.receive(event.data);
