// Worker entry when the CLI runs from source (no build in dist/cli): compiles the worker through tsx.
import { register } from 'tsx/esm/api';

register();
await import('./strategy-worker.ts');
