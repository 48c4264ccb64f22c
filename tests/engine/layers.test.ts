import { at } from '../../src/engine/assert';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

// The engine's folders depend one way (STYLE.md §8, Perfetto's import checks): the pipeline
// order, parse → tokens → compact → simulation → strategies → replay. A folder may import itself,
// the root files (types.ts, thresholds.ts) and the folders its row lists; nothing in the engine
// reaches out of it (ui/, worker/, cli/, sample/). A new folder needs a row here.

const ENGINE = resolve(__dirname, '../../src/engine');
const ROOT = '(root)';

const ALLOWED: Record<string, readonly string[]> = {
  [ROOT]: [],
  tokens: [],
  prompts: [],
  parse: ['tokens'],
  query: ['parse', 'tokens'],
  inspect: ['parse', 'query', 'tokens'],
  compact: ['parse', 'prompts', 'tokens'],
  // The model prepareReplay computes and strategies read: below both.
  simulation: ['compact', 'parse', 'tokens'],
  // A strategy's folder holds its prompt presets (prompts/types.ts: `PromptPreset`).
  strategies: ['simulation', 'compact', 'parse', 'prompts', 'tokens'],
  // query/usage-coverage.ts: a call's context where its usage is zero (estimated).
  replay: ['strategies', 'simulation', 'compact', 'parse', 'query', 'tokens'],
  // The prompt presets, each in its strategy's folder (strategies/prompt-presets.ts).
  summarize: ['compact', 'parse', 'prompts', 'query', 'redact', 'retention', 'strategies', 'tokens'],
  // Secrets found in transcript text and masked (before any export or summarizer request).
  redact: ['parse'],
  // Dialect conventions (project instructions, injected text) come from the descriptors.
  retention: ['parse', 'summarize'],
  // Erosion across compactions: every summary of a chain (the log's, a replay's built-in ones)
  // against the facts of every span before it.
  erosion: [
    'compact',
    'parse',
    'prompts',
    'query',
    'redact',
    'replay',
    'retention',
    'simulation',
    'strategies',
    'summarize',
    'tokens',
  ],
  // Exports and the one-file report: the top of the pipeline, reading all of it.
  export: [
    'compact',
    'erosion',
    'inspect',
    'parse',
    'prompts',
    'query',
    'redact',
    'replay',
    'retention',
    'simulation',
    'strategies',
    'summarize',
    'tokens',
  ],
  // The session list: a scan made for it, its rows and costs (summarize/prices.ts).
  library: ['parse', 'summarize', 'tokens'],
  // A session being written: running figures against a strategy's thresholds.
  live: ['strategies', 'parse', 'tokens'],
  // Learn mode's walk: one compaction told step by step from the replay, the request builder and
  // the built-in summarizer.
  learn: ['replay', 'strategies', 'simulation', 'compact', 'summarize', 'prompts', 'parse', 'tokens'],
  // Fidelity: each log replayed with its own strategy at its own knobs, against its real compactions.
  fidelity: ['replay', 'strategies', 'parse'],
};

/**
 * Two-way dependencies that exist and are yet to be untangled: retention/extract.ts reads
 * summarize's block and digest helpers, summarize scores retention. Any other is a failure.
 */
const KNOWN_TWO_WAY = new Set(['retention|summarize']);

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory()
      ? walk(path)
      : /\.(?:ts|tsx|mts|cts|js|mjs)$/.test(path)
        ? [path]
        : [];
  });
}

const folderOf = (path: string): string => {
  const rel = relative(ENGINE, path);
  return rel.includes(sep) ? rel.split(sep)[0]! : ROOT;
};

interface Import {
  file: string;
  target: string;
  spec: string;
}

function getRelativeImports(file: string): Import[] {
  const code = readFileSync(file, 'utf8');
  const out: Import[] = [];
  for (const m of code.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
    out.push({ file, spec: at(m, 1), target: resolve(dirname(file), at(m, 1)) });
  }
  return out;
}

describe('engine folders depend one way', () => {
  const files = walk(ENGINE);
  const imports = files.flatMap(getRelativeImports);
  it('has imports to check', () => expect(imports.length).toBeGreaterThan(50));

  it('every folder has a row in the table', () => {
    const folders = new Set(files.map(folderOf));
    for (const folder of folders) expect(Object.keys(ALLOWED), `add a row for ${folder}`).toContain(folder);
  });

  it('no engine file imports outside the engine (ui/, worker/, cli/, sample/)', () => {
    const outside = imports
      .filter((i) => relative(ENGINE, i.target).startsWith('..'))
      .map((i) => `${relative(ENGINE, i.file)} → ${i.spec}`);
    expect(outside).toEqual([]);
  });

  it('every import follows the table', () => {
    const violations: string[] = [];
    for (const i of imports) {
      const from = folderOf(i.file);
      const to = folderOf(i.target);
      if (to === from || to === ROOT || relative(ENGINE, i.target).startsWith('..')) continue;
      if (!(ALLOWED[from] ?? []).includes(to))
        violations.push(`${relative(ENGINE, i.file)} → ${i.spec} (${from} → ${to})`);
    }
    expect(violations).toEqual([]);
  });

  it('the table itself has no two-way dependency but the known ones', () => {
    const twoWay: string[] = [];
    for (const [a, targets] of Object.entries(ALLOWED))
      for (const b of targets) if (a < b && ALLOWED[b]?.includes(a)) twoWay.push(`${a}|${b}`);
    expect(twoWay.filter((p) => !KNOWN_TWO_WAY.has(p))).toEqual([]);
  });

  it('catches an import against the table (the check can fail)', () => {
    const fake: Import = {
      file: join(ENGINE, 'strategies', 'x.ts'),
      spec: '../replay/prepare',
      target: join(ENGINE, 'replay', 'prepare'),
    };
    expect(ALLOWED[folderOf(fake.file)]).not.toContain(folderOf(fake.target));
    const ui: Import = {
      file: join(ENGINE, 'replay', 'x.ts'),
      spec: '../../ui/store',
      target: resolve(ENGINE, '../ui/store'),
    };
    expect(relative(ENGINE, ui.target).startsWith('..')).toBe(true);
  });
});
