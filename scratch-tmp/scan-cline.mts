import { readFileSync } from 'node:fs';
import { scanSession } from '../src/engine/library/scan-session';
import { createMemorySource } from '../src/engine/parse/source';
const path = process.argv[2]!;
const name = process.argv[3] ?? path.split('/').slice(-2).join('/');
const row = await scanSession([createMemorySource(name, readFileSync(path))]);
console.log(JSON.stringify({ ...row, usage: undefined }, null, 0).slice(0, 1500));
