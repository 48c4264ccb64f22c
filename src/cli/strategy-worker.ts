import { parentPort, workerData } from 'node:worker_threads';
import type { StrategyThreadMessage } from './strategy-thread';
import { setStrategyLoadListener } from './strategy-file';
import { reportCommandError } from './cli-args';

// A strategy thread (strategy-thread.ts): runs one command that names a strategy file, under the
// heap limit its parent set. Its output and errors go to the parent as messages (in order, and
// before the thread ends: a thread's own stdout is flushed asynchronously), and so does each
// loaded file's strategy id, so that a thread stopped for lack of memory is named by its strategy.

const { command, args } = workerData as { command: 'replay'; args: string[] };
const post = (m: StrategyThreadMessage) => parentPort!.postMessage(m);
process.stderr.write = ((text: string | Uint8Array) => {
  post({ err: typeof text === 'string' ? text : Buffer.from(text).toString('utf8') });
  return true;
}) as typeof process.stderr.write;
setStrategyLoadListener((path, id) => post({ loaded: { path, id } }));
const { replayCommand } = await import('./replay');
const commands = { replay: replayCommand };
// What the command throws is said and given its exit code here, as `main` does on the main thread:
// thrown out of the thread, a `UsageError` would reach the parent as a plain `Error` (exit 1).
let code: number;
try {
  code = await commands[command](args, (text) => post({ out: text }));
} catch (error) {
  code = reportCommandError(command, error);
}
post({ code });
