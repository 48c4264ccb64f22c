// Writes the bundled sample session to public/samples/ (`npm run sample`):
//   public/samples/<sessionId>.jsonl                         main transcript
//   public/samples/<sessionId>/subagents/agent-<id>.jsonl    subagent and compaction-call files
//   public/samples/index.json                                what the app fetches, with roles
// Files listed by a previous index.json are removed first, so a new seed leaves no strays.

import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { GENERATOR_VERSION, generateSession } from '../sample/generate-session';
import { SAMPLE_OPTIONS } from '../sample/sample-options';
import { createSampleIndex, type SampleIndex } from '../sample/sample-index';

const root = resolve(import.meta.dirname, '..');
const outDir = join(root, 'public', 'samples');
const indexPath = join(outDir, 'index.json');

if (existsSync(indexPath)) {
  const previous = JSON.parse(readFileSync(indexPath, 'utf8')) as SampleIndex;
  for (const file of previous.files) rmSync(join(outDir, file.path), { force: true });
  for (const file of previous.files) {
    const folder = file.path.split('/')[0];
    if (folder && file.path.includes('/')) rmSync(join(outDir, folder), { recursive: true, force: true });
  }
}

const session = generateSession(SAMPLE_OPTIONS);
for (const file of session.files) {
  const path = join(outDir, file.name);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, file.text);
}
const index = createSampleIndex(session, GENERATOR_VERSION);
writeFileSync(indexPath, `${JSON.stringify(index, null, 2)}\n`);

for (const file of index.files) {
  process.stdout.write(
    `${(file.bytes / 1024).toFixed(0).padStart(6)} KiB  ${file.role.padEnd(15)} public/samples/${file.path}\n`,
  );
}
