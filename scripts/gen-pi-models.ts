// Writes src/engine/parse/dialects/pi/models.ts: the context window of every model in pi's own
// registry (badlogic/pi-mono `packages/ai/src/models.generated.ts`, generated there from the
// providers' catalogs), by provider and model id, at one commit of pi-mono.
//   node bin/run-ts.mjs scripts/gen-pi-models.ts <pi-mono checkout or models.generated.ts> <commit>
//   npx biome check --write src/engine/parse/dialects/pi/models.ts
// The file is read as text (never run): each `"<provider>": {` opens a provider, each
// `"<id>": {` within it a model, whose `contextWindow:` is taken.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [input, commit] = process.argv.slice(2);
if (!input || !commit || !/^[0-9a-f]{40}$/.test(commit)) {
  process.stderr.write('usage: gen-pi-models.ts <pi-mono checkout or models.generated.ts> <40-hex commit>\n');
  process.exit(2);
}
const path = statSync(input).isDirectory() ? join(input, 'packages/ai/src/models.generated.ts') : input;
const windows = new Map<string, Map<number, string[]>>();
let provider: string | undefined;
let model: string | undefined;
let count = 0;
for (const line of readFileSync(path, 'utf8').split('\n')) {
  const p = /^\t"([^"]+)": \{$/.exec(line);
  if (p) {
    provider = p[1]!;
    continue;
  }
  const m = /^\t\t"([^"]+)": \{$/.exec(line);
  if (m) {
    model = m[1]!;
    continue;
  }
  const w = /^\t\t\tcontextWindow: (\d+),$/.exec(line);
  if (w && provider && model) {
    if (/\s/.test(model)) throw new Error(`${provider}/${model}: a model id with a space`);
    const byWindow = windows.get(provider) ?? new Map<number, string[]>();
    windows.set(provider, byWindow);
    const ids = byWindow.get(Number(w[1])) ?? [];
    byWindow.set(Number(w[1]), ids);
    ids.push(model);
    model = undefined;
    count++;
  }
}
if (count < 100) throw new Error(`${path}: only ${count} models read; is it pi's models.generated.ts?`);

const out = [
  `// pi's context window per model: its registry, badlogic/pi-mono@${commit}:packages/ai/src/models.generated.ts`,
  `// (${count} models), written by scripts/gen-pi-models.ts; do not edit. pi compacts against the window of`,
  '// the model it runs (agent-session.ts `this.model.contextWindow`); a model the user defines in',
  '// ~/.pi/agent/models.json is not here. Provider → window → the model ids (space-separated).',
  '',
  `export const PI_MODELS_SOURCE = 'badlogic/pi-mono@${commit}:packages/ai/src/models.generated.ts';`,
  '',
  'export const PI_MODEL_WINDOWS: Readonly<Record<string, Readonly<Record<number, string>>>> = {',
];
for (const [name, byWindow] of [...windows].sort(([a], [b]) => a.localeCompare(b))) {
  out.push(`  ${JSON.stringify(name)}: {`);
  for (const [tokens, ids] of [...byWindow].sort(([a], [b]) => a - b))
    out.push(`    ${tokens}: ${JSON.stringify(ids.sort().join(' ')).replace(/^"|"$/g, "'")},`);
  out.push('  },');
}
out.push('};', '');
writeFileSync('src/engine/parse/dialects/pi/models.ts', out.join('\n'));
process.stdout.write(`wrote src/engine/parse/dialects/pi/models.ts (${count} models)\n`);
