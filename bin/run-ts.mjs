#!/usr/bin/env node
// Runs a TypeScript script through tsx: `node bin/run-ts.mjs <script.ts> [args…]`. The script sees
// its own arguments from process.argv[2] on, as if it had been run directly.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { register } from 'tsx/esm/api';

const script = process.argv[2];
if (!script) {
  process.stderr.write('usage: node bin/run-ts.mjs <script.ts> [args…]\n');
  process.exit(2);
}
register();
process.argv.splice(1, 1);
process.argv[1] = resolve(script);
await import(pathToFileURL(resolve(script)).href);
