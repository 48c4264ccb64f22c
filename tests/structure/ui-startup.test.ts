import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type ImportEdge, readImportGraph } from './import-graph';

// The page's first load carries what the UI draws with, not the engine that runs in the worker
// (issue 20, "Startup"). The UI takes the strategies' descriptors (knob specs, labels, threshold
// lines), never the strategies themselves; the replay, the parser's session building, the
// secrets' rules and the summarizers load in the worker, or on the page only through `import()`
// when they are used there (the in-process fallback, a summary run, the first link written). So
// too the dialects: the UI detects, walks folders and lists with their infos (dialects/
// descriptors.ts), never with the normalizers the registry adds.
// This test follows every static value import from src/ui/ and main.tsx, through any module, and
// fails when one reaches a module below; `scripts/entry-size.mjs` holds the bundle to its budget.

const ROOT = resolve(__dirname, '../..');
const SRC = resolve(ROOT, 'src');

const moduleOf = (path: string): string =>
  relative(SRC, path)
    .split(sep)
    .join('/')
    .replace(/\.(d\.)?[cm]?tsx?$/, '');

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

/**
 * The dialects' reading code, found by its text so a new dialect's is held too: every module of a
 * dialect's folder that builds entries (`createEntry(`) or gives a descriptor its normalizer.
 */
const DIALECT_READERS: readonly string[] = walk(resolve(SRC, 'engine/parse/dialects'))
  .filter((p) => /\/dialects\/[\w-]+\/[\w-]+\.ts$/.test(p))
  .filter((p) => /\bcreateEntry\(|\bcreateNormalizer:/.test(readFileSync(p, 'utf8')))
  .map((p) => moduleOf(p));

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

/** Modules (under src/, no extension) only the worker, the CLI or an `import()` may load, and why. */
const WORKER_ONLY: readonly { modules: RegExp; why: string }[] = [
  {
    modules: /^engine\/strategies\/(registry|[\w-]+\/index)$/,
    why: "the strategies' step code: the UI reads their descriptors (strategies/descriptors.ts)",
  },
  {
    modules: /^engine\/replay\/(compute-replay|replay-state|prepare|sweep|compare-strategies)$/,
    why: 'the replay runs in the worker; the UI reads its results',
  },
  {
    modules: new RegExp(`^(${DIALECT_READERS.map(escapeRegExp).join('|')})$`),
    why: "a dialect's normalizer: the UI reads the dialects' infos (parse/dialects/descriptors.ts)",
  },
  {
    modules: /^engine\/parse\/dialects\/(registry|shared\/(claude-messages|anthropic-blocks))$/,
    why: 'the dialects with their normalizers, and the message readers they share',
  },
  {
    modules: /^engine\/parse\/(parse-session|session-builder|file-parse|line-reader|live-parse)$/,
    why: 'the parser runs in the worker (scan workers for the session list)',
  },
  { modules: /^engine\/library\/scan-session$/, why: 'the session list is scanned in scan workers' },
  {
    modules: /^engine\/redact\/(find-secrets|gitleaks-rules|session-secrets)$/,
    why: "the secrets' rules: found in the worker, loaded by the page only to check a link it writes",
  },
  {
    modules: /^engine\/summarize\/(create|run)$/,
    why: 'the summarizers and the scoring load with the first summary run',
  },
  {
    modules:
      /^worker\/(engine-handlers|engine-host|in-process-port|engine\.worker|scan\.worker|[\w-]+-handlers)$/,
    why: "the worker's handlers: on the page only when no worker can start",
  },
];

/**
 * Every worker-only module the roots reach through static value imports, with the chain of
 * modules that reaches it (root first).
 */
function findWorkerOnlyReached(imports: readonly ImportEdge[], roots: readonly string[]): string[] {
  const edges = new Map<string, string[]>();
  for (const i of imports) {
    if (i.typeOnly || i.dynamic || i.asset || i.target === undefined) continue;
    const from = moduleOf(i.file);
    const list = edges.get(from) ?? [];
    list.push(moduleOf(i.target));
    edges.set(from, list);
  }
  const prev = new Map<string, string | undefined>();
  const queue: string[] = [];
  for (const r of roots.map(moduleOf)) {
    if (prev.has(r)) continue;
    prev.set(r, undefined);
    queue.push(r);
  }
  while (queue.length) {
    const m = queue.shift()!;
    for (const t of edges.get(m) ?? [])
      if (!prev.has(t)) {
        prev.set(t, m);
        queue.push(t);
      }
  }
  const found: string[] = [];
  for (const m of prev.keys()) {
    const rule = WORKER_ONLY.find((r) => r.modules.test(m));
    if (!rule) continue;
    const chain: string[] = [];
    for (let c: string | undefined = m; c !== undefined; c = prev.get(c)) chain.unshift(c);
    found.push(`${chain.join(' → ')} (${rule.why})`);
  }
  return found;
}

describe("the page's first load", () => {
  const graph = readImportGraph(resolve(ROOT, 'tsconfig.json'), SRC);
  const roots = graph.files.filter((f) => {
    const m = moduleOf(f);
    return m === 'main' || m.startsWith('ui/');
  });

  it('has UI files and imports to follow', () => {
    expect(roots.length).toBeGreaterThan(100);
    expect(graph.imports.some((i) => i.dynamic)).toBe(true);
  });

  it("finds every dialect's normalizer to hold the page to", () => {
    for (const m of [
      'engine/parse/dialects/claude-code/normalizer',
      'engine/parse/dialects/cline/ui-messages',
      'engine/parse/dialects/gemini-cli/prompt-log',
      'engine/parse/dialects/opencode/index',
    ])
      expect(DIALECT_READERS).toContain(m);
    expect(DIALECT_READERS.some((m) => m.endsWith('/info'))).toBe(false);
  });

  it('src/ui imports no engine code only the worker needs (statically, through any module)', () => {
    expect(findWorkerOnlyReached(graph.imports, roots)).toEqual([]);
  });

  it('src/ui loads Dexie only by import(), when a database is first opened (common/lazy-dexie.ts)', () => {
    const statically = graph.imports.filter(
      (i) => i.spec === 'dexie' && !i.typeOnly && !i.dynamic && roots.includes(i.file),
    );
    expect(statically.map((i) => relative(SRC, i.file))).toEqual([]);
    expect(graph.imports.some((i) => i.spec === 'dexie' && i.dynamic)).toBe(true);
  });

  it('the check finds a worker-only module reached through another, and lets an import() through', () => {
    const edge = (file: string, target: string, dynamic = false): ImportEdge => ({
      file: resolve(SRC, file),
      spec: './x',
      target: resolve(SRC, target),
      typeOnly: false,
      dynamic,
      names: '*',
    });
    const imports = [
      edge('ui/a.tsx', 'engine/replay/sweep-score.ts'),
      edge('engine/replay/sweep-score.ts', 'engine/replay/sweep.ts'),
      edge('ui/b.tsx', 'engine/strategies/codex/index.ts', true),
    ];
    const found = findWorkerOnlyReached(imports, [resolve(SRC, 'ui/a.tsx'), resolve(SRC, 'ui/b.tsx')]);
    expect(found).toHaveLength(1);
    expect(found[0]).toContain('ui/a → engine/replay/sweep-score → engine/replay/sweep');
  });
});
