import { relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { getPackageName, type ImportEdge, readImportGraph } from './import-graph';

// What may import what in src/ (STYLE.md §1, §2, §8; Perfetto's machine-checked layer rules),
// read from the TypeScript compiler's own syntax trees (./import-graph.ts).
//
// Areas: the engine imports nothing of the app; the worker imports the engine; the UI imports the
// engine's types, a named list of its pure modules, and the worker's protocol and client; the CLI
// imports the engine and Node. Nothing imports the UI but main.tsx, nothing imports the CLI, and
// nothing in src/ reaches out of it (the sample generator lives in ../sample/ and src/ never
// imports it).
//
// Inside the engine, folders depend one way, in pipeline order: parse → tokens → compact →
// simulation → strategies → replay. A folder's row is keyed by its first path segment under
// src/engine/, so a subfolder (strategies/<strategy>/, parse/dialects/<dialect>/) inherits its
// parent's row; a new top-level engine folder needs a row here.

const ROOT = resolve(__dirname, '../..');
const SRC = resolve(ROOT, 'src');
const ENGINE = resolve(SRC, 'engine');

interface Area {
  /** Other areas of src/ this one may import (itself always). */
  areas: readonly string[];
  /** Packages it may import; a string ending in ':' or '/' is a prefix. */
  packages: readonly string[];
}

const AREAS: Record<string, Area> = {
  // @anthropic-ai/sdk: the Anthropic summarizer's client, fetch-based, runs anywhere.
  engine: { areas: [], packages: ['@anthropic-ai/sdk'] },
  // sql.js: SQLite in WebAssembly, for OpenCode's opencode.db (the engine is given a database).
  worker: { areas: ['engine'], packages: ['sql.js', 'sql.js/'] },
  ui: {
    areas: ['engine', 'worker'],
    packages: [
      'react',
      'react-dom',
      '@tanstack/react-query',
      'zustand',
      'monaco-editor',
      '@monaco-editor/react',
      'dexie',
    ],
  },
  // esbuild: a custom strategy file's TypeScript compiled to JavaScript (cli/strategy-file.ts).
  cli: { areas: ['engine'], packages: ['node:', 'sql.js', 'esbuild'] },
  'main.tsx': { areas: ['ui'], packages: ['react', 'react-dom', '@tanstack/react-query'] },
};

/** What the UI takes from the worker: the protocol's types and the clients that post to workers. */
const UI_WORKER_MODULES = [
  'protocol',
  'scan-protocol',
  'engine-client',
  'scan-pool',
  // The .wasm's address, which the custom strategy's sandbox keeps the one fetch of.
  'sql-wasm-url',
];

/** Worker scripts the UI takes the URL of (`?worker&url`), never the code: the custom strategy's sandbox. */
const UI_WORKER_URLS = ['sandbox-runtime'];

/**
 * The engine modules the UI may import values from (types it may import from any). Everything
 * else runs in the worker. A path ending in '/' names a folder and all under it.
 */
const UI_ENGINE_VALUES: readonly { why: string; modules: readonly string[] }[] = [
  {
    why: 'descriptors, registries, labels and limits: data the panels list and the knobs bound',
    modules: [
      'parse/dialects/',
      'strategies/descriptors',
      'strategies/knobs',
      'strategies/prompt-presets',
      'query/entry-kinds',
      'query/bash-summaries',
      'query/hidden-thinking',
      'retention/types',
      'redact/secret-kinds',
      'cost/prices-seen',
      'thresholds',
      'replay/subagent-knobs',
      'replay/sweep-score',
      'replay/compare-table',
      'replay/compare-words',
    ],
  },
  {
    why: 'formatting and cheap pure helpers on a value the UI already holds (one row, one prompt, one URL)',
    modules: [
      'assert',
      'query/numbering',
      'query/row-filter',
      'query/row-page',
      'replay/provenance',
      'prompts/claude-code',
      'prompts/sections',
      'prompts/prompt-asks',
      'strategies/boundary-scoring/detail',
      'strategies/pi/detail',
      'export/compacted-log-formats',
      'export/joiners',
      'export/hidden-chars',
      'redact/printable-url',
      'tokens/estimate',
      'library/forecast',
      'library/row-version',
      'parse/meta-words',
      'live/forecast-score',
      'export/erosion-svg',
      'stats/records',
      'stats/usage-pack',
    ],
  },
  {
    why: "the public strategy API's declaration, as text (`?raw`) for the custom strategy editor's TypeScript worker",
    modules: ['strategies/api'],
  },
  {
    why: "loaded by import() when first used, never with the page (tests/structure/ui-startup.test.ts): the secrets' rules, to keep them out of a link",
    modules: ['redact/find-secrets', 'redact/mask'],
  },
  {
    why: 'file-name rules applied while the page walks a dropped or picked folder, before any worker has the files',
    modules: ['parse/detect', 'library/group-files', 'library/session-names'],
  },
  {
    why: "summaries run on the main thread: the request streams to the user's endpoint and the page shows it as it comes (ui/summaries/run-controller.ts)",
    modules: [
      'summarize/anthropic',
      'summarize/openai-compatible',
      'summarize/model-ids',
      'summarize/create',
      'summarize/run',
      'summarize/types',
    ],
  },
];

const ENGINE_ROOT = '(root)';

const ENGINE_ROWS: Record<string, readonly string[]> = {
  [ENGINE_ROOT]: [],
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
  // What a replay costs: its calls and summaries priced through the session's cache (cost/), the
  // price table the summarizers and the session list read too.
  cost: ['replay', 'simulation', 'strategies', 'compact', 'parse', 'tokens'],
  // The prompt presets, each in its strategy's folder (strategies/prompt-presets.ts).
  summarize: ['cost', 'compact', 'parse', 'prompts', 'query', 'redact', 'retention', 'strategies', 'tokens'],
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
  // The session list: a scan made for it, its rows and costs (cost/prices.ts).
  library: ['cost', 'parse', 'summarize', 'tokens'],
  // A session being written: running figures against a strategy's thresholds.
  live: ['strategies', 'parse', 'tokens'],
  // Learn mode's walk: one compaction told step by step from the replay, the request builder and
  // the built-in summarizer.
  learn: ['replay', 'strategies', 'simulation', 'compact', 'summarize', 'prompts', 'parse', 'tokens'],
  // What-if over many sessions (`compactlab stats --strategy`, the library's what-if): each session
  // replayed at each setting, priced, its retention scored; rows and their NDJSON/CSV records.
  stats: ['cost', 'erosion', 'parse', 'replay', 'strategies', 'simulation', 'compact', 'tokens'],
  // Fidelity: each log replayed with its own strategy at its own knobs, against its real compactions.
  fidelity: ['replay', 'strategies', 'parse'],
};

/**
 * Two-way dependencies that exist and are yet to be untangled: retention/extract.ts reads
 * summarize's block and digest helpers, summarize scores retention. Any other is a failure.
 */
const KNOWN_TWO_WAY = new Set(['retention|summarize']);

const OUTSIDE = '(outside src)';

/** The area of a path: its first segment under src/ (`main.tsx` is its own). */
function areaOf(path: string): string {
  const rel = relative(SRC, path);
  return rel.startsWith('..') ? OUTSIDE : (rel.split(sep)[0] ?? OUTSIDE);
}

/** An engine file's row: its first segment under src/engine/, or the root files' row. */
function engineFolderOf(path: string): string {
  const rel = relative(ENGINE, path);
  return rel.includes(sep) ? rel.split(sep)[0]! : ENGINE_ROOT;
}

/** An engine module as the allow-list names it: its path under src/engine/, no extension. */
const engineModuleOf = (path: string): string =>
  relative(ENGINE, path)
    .split(sep)
    .join('/')
    .replace(/(\/index)?\.(d\.)?[cm]?tsx?$/, '');

const matchesPrefix = (name: string, allowed: string): boolean =>
  allowed.endsWith('/') || allowed.endsWith(':') ? name.startsWith(allowed) : name === allowed;

const show = (i: ImportEdge): string => `${relative(SRC, i.file)} → ${i.spec}`;

/** Why `i` breaks the rules between areas, or undefined when it keeps them. */
function breaksAreaRule(i: ImportEdge): string | undefined {
  const from = areaOf(i.file);
  const rule = AREAS[from];
  if (!rule) return `${show(i)}: ${from} has no row in AREAS`;
  if (i.target === undefined) {
    const name = getPackageName(i.spec);
    const pkg = i.spec.startsWith('node:') ? i.spec : name;
    return rule.packages.some((p) => matchesPrefix(pkg, p))
      ? undefined
      : `${show(i)}: ${from} may not import the package ${pkg}`;
  }
  const to = areaOf(i.target);
  if (to === OUTSIDE) return `${show(i)}: leaves src/`;
  if (to === from) return undefined;
  if (!rule.areas.includes(to)) return `${show(i)}: ${from} may not import ${to}`;
  if (from === 'ui' && to === 'worker') {
    const module = relative(resolve(SRC, 'worker'), i.target).replace(/\.tsx?$/, '');
    if (!UI_WORKER_MODULES.includes(module) && !(i.asset && UI_WORKER_URLS.includes(module)))
      return `${show(i)}: the UI takes only the worker's protocol and clients`;
  }
  if (from === 'ui' && to === 'engine' && !i.typeOnly) {
    const module = engineModuleOf(i.target);
    const allowed = UI_ENGINE_VALUES.some((g) => g.modules.some((m) => matchesPrefix(module, m)));
    if (!allowed)
      return `${show(i)}: the UI imports values only from UI_ENGINE_VALUES (import the types only, or ask the worker)`;
  }
  return undefined;
}

/** Why an import between engine folders breaks the pipeline order, or undefined. */
function breaksEngineRow(i: ImportEdge): string | undefined {
  if (i.target === undefined || areaOf(i.file) !== 'engine' || areaOf(i.target) !== 'engine')
    return undefined;
  const from = engineFolderOf(i.file);
  const to = engineFolderOf(i.target);
  if (to === from || to === ENGINE_ROOT || (ENGINE_ROWS[from] ?? []).includes(to)) return undefined;
  return `${relative(ENGINE, i.file)} → ${i.spec} (${from} → ${to})`;
}

/** Read once: the compiler's trees for all of src/ (the engine's rows read its part). */
const graph = readImportGraph(resolve(ROOT, 'tsconfig.json'), SRC);

describe('src/ imports by layer', () => {
  const { imports } = graph;

  it('has files and imports to check in every area', () => {
    expect(imports.length).toBeGreaterThan(1000);
    for (const area of Object.keys(AREAS))
      expect(
        graph.files.some((f) => areaOf(f) === area),
        `files in ${area}`,
      ).toBe(true);
  });

  it('every import keeps the area rules', () => {
    expect(imports.map(breaksAreaRule).filter(Boolean)).toEqual([]);
  });

  it('nothing imports the UI but main.tsx, and nothing imports the CLI', () => {
    const into = (area: string) =>
      imports.filter((i) => i.target && areaOf(i.target) === area && areaOf(i.file) !== area);
    expect(into('ui').map((i) => areaOf(i.file))).toEqual(expect.arrayContaining(['main.tsx']));
    expect(
      into('ui')
        .filter((i) => areaOf(i.file) !== 'main.tsx')
        .map(show),
    ).toEqual([]);
    expect(into('cli').map(show)).toEqual([]);
  });

  it('every name in the UI allow-lists is still imported (a stale entry goes)', () => {
    const uiEngineValues = imports
      .filter((i) => i.target && !i.typeOnly && areaOf(i.file) === 'ui' && areaOf(i.target) === 'engine')
      .map((i) => engineModuleOf(i.target!));
    const stale = UI_ENGINE_VALUES.flatMap((g) => g.modules).filter(
      (m) => !uiEngineValues.some((used) => matchesPrefix(used, m)),
    );
    expect(stale).toEqual([]);
  });
});

describe('engine folders depend one way', () => {
  const files = graph.files.filter((f) => areaOf(f) === 'engine');
  const imports = graph.imports.filter((i) => areaOf(i.file) === 'engine');

  it('has imports to check', () => expect(imports.length).toBeGreaterThan(500));

  it('every folder has a row in the table', () => {
    const folders = new Set(files.map(engineFolderOf));
    for (const folder of folders)
      expect(Object.keys(ENGINE_ROWS), `add a row for ${folder}`).toContain(folder);
  });

  it('every import follows the table', () => {
    expect(imports.map(breaksEngineRow).filter(Boolean)).toEqual([]);
  });

  it('the table itself has no two-way dependency but the known ones', () => {
    const twoWay: string[] = [];
    for (const [a, targets] of Object.entries(ENGINE_ROWS))
      for (const b of targets) if (a < b && ENGINE_ROWS[b]?.includes(a)) twoWay.push(`${a}|${b}`);
    expect(twoWay.filter((p) => !KNOWN_TWO_WAY.has(p))).toEqual([]);
  });
});

describe('the rules catch what they forbid (the checks can fail)', () => {
  const edge = (file: string, spec: string, typeOnly = false): ImportEdge => {
    const path = resolve(SRC, file);
    return {
      file: path,
      spec,
      target: spec.startsWith('.') ? resolve(path, '..', spec) : undefined,
      typeOnly,
      dynamic: false,
      names: '*',
    };
  };

  it.each([
    ['engine → ui', edge('engine/replay/x.ts', '../../ui/store.ts')],
    ['engine → worker', edge('engine/replay/x.ts', '../../worker/protocol.ts')],
    ['engine → a UI package', edge('engine/replay/x.ts', 'react')],
    ['engine → node:fs', edge('engine/parse/x.ts', 'node:fs')],
    ['worker → ui', edge('worker/x.ts', '../ui/store.ts')],
    ['worker → cli', edge('worker/x.ts', '../cli/main.ts')],
    ['cli → ui', edge('cli/x.ts', '../ui/app.tsx')],
    ['cli → worker', edge('cli/x.ts', '../worker/engine-host.ts')],
    ['ui → cli', edge('ui/x.ts', '../cli/main.ts')],
    ['ui → a worker handler', edge('ui/x.ts', '../worker/replay-handlers.ts', true)],
    ['ui → an engine value off the list', edge('ui/x.ts', '../engine/replay/prepare.ts')],
    ['src → the sample generator', edge('ui/x.ts', '../../sample/generate-session.ts')],
    ['main.tsx → cli', edge('main.tsx', './cli/main.ts')],
  ])('%s', (_what, i) => expect(breaksAreaRule(i)).toBeDefined());

  it.each([
    ['ui → an engine type', edge('ui/x.ts', '../engine/replay/prepare.ts', true)],
    ['ui → a listed engine value', edge('ui/x.ts', '../engine/query/numbering.ts')],
    ['ui → a dialect in its own folder', edge('ui/x.ts', '../engine/parse/dialects/codex/descriptor.ts')],
    ['ui → the worker client', edge('ui/x.ts', '../worker/engine-client.ts')],
    ['worker → engine', edge('worker/x.ts', '../engine/replay/prepare.ts')],
    ['cli → node:fs', edge('cli/x.ts', 'node:fs')],
  ])('lets through %s', (_what, i) => expect(breaksAreaRule(i)).toBeUndefined());

  it('an engine import against the pipeline order, and a subfolder inheriting its row', () => {
    expect(breaksEngineRow(edge('engine/strategies/x.ts', '../replay/prepare.ts'))).toBeDefined();
    expect(breaksEngineRow(edge('engine/strategies/cline/x.ts', '../../replay/prepare.ts'))).toBeDefined();
    expect(
      breaksEngineRow(edge('engine/strategies/cline/x.ts', '../../simulation/model.ts')),
    ).toBeUndefined();
  });
});
