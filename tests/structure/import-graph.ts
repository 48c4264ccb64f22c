import { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { type Node, SyntaxKind } from 'typescript/unstable/ast';
import { API } from 'typescript/unstable/sync';

// Imports as the TypeScript compiler reads them (TypeScript 7's API: `typescript/unstable/sync`
// runs the native compiler and hands back its syntax trees). A source file's `imports` are the
// module specifiers the parser found: `import … from`, `export … from`, `import('…')`,
// `import x = require('…')` and `import('…').T` types. Text in comments, strings and property
// names (`window.start`) never counts, which is what a regex over the text got wrong.
// The project has no path aliases, so a relative specifier resolves by the bundler's rule: the
// path itself, or with a TypeScript extension, or its folder's index file.

export interface ImportEdge {
  /** Absolute path of the importing file. */
  file: string;
  /** The module specifier as written. */
  spec: string;
  /** Absolute path of the imported file, for a relative specifier; undefined for a package. */
  target: string | undefined;
  /** `import type`, `export type`, every named binding `type`, or an `import('…')` type. */
  typeOnly: boolean;
}

export interface ImportGraph {
  /** Every source file of the project under the given folder, absolute. */
  files: string[];
  imports: ImportEdge[];
}

const EXTENSIONS = ['', '.ts', '.tsx', '.mts', '.cts', '.d.ts', '.js', '/index.ts', '/index.tsx'];

/** The file a relative specifier names (a Vite `?worker`/`?url` suffix dropped), if it exists. */
export function resolveRelative(from: string, spec: string): string {
  const base = resolve(dirname(from), spec.replace(/\?.*$/, ''));
  for (const ext of EXTENSIONS) {
    const path = base + ext;
    if (existsSync(path) && statSync(path).isFile()) return path;
  }
  return base;
}

interface ImportNodes {
  kind: SyntaxKind;
  parent?: ImportNodes;
  isTypeOnly?: boolean;
  importClause?: {
    phaseModifier?: SyntaxKind;
    name?: unknown;
    namedBindings?: { kind: SyntaxKind; elements?: readonly { isTypeOnly: boolean }[] };
  };
}

/** Whether the declaration holding a module specifier brings in types only. */
function isTypeOnly(specifier: Node): boolean {
  let node = (specifier as unknown as ImportNodes).parent;
  // `import('…').T`: the specifier sits in a literal type inside an ImportType node.
  while (node && node.kind === SyntaxKind.LiteralType) node = node.parent;
  if (!node) return false;
  if (node.kind === SyntaxKind.ImportType) return true;
  if (node.kind === SyntaxKind.ExportDeclaration) return node.isTypeOnly === true;
  if (node.kind !== SyntaxKind.ImportDeclaration || !node.importClause) return false;
  const clause = node.importClause;
  if (clause.phaseModifier === SyntaxKind.TypeKeyword) return true;
  const elements = clause.namedBindings?.elements;
  return !clause.name && elements !== undefined && elements.length > 0 && elements.every((e) => e.isTypeOnly);
}

type Project = NonNullable<ReturnType<ReturnType<API['updateSnapshot']>['getProject']>>;

/** Runs `use` on the compiler's project for `tsconfig` (one spawn of the native compiler). */
export function withProject<T>(tsconfig: string, use: (project: Project) => T): T {
  const api = new API({ cwd: dirname(tsconfig) });
  try {
    const snapshot = api.updateSnapshot({ openProjects: [tsconfig] });
    const project = snapshot.getProject(tsconfig) ?? snapshot.getProjects()[0];
    if (!project) throw new Error(`no project for ${tsconfig}`);
    return use(project);
  } finally {
    api.close();
  }
}

/** The project's source files under the folder `under`, as absolute paths. */
export function getProjectFiles(project: Project, under: string): string[] {
  const prefix = `${resolve(under)}/`;
  return project.program
    .getSourceFileNames()
    .map((name) => resolve(name))
    .filter((name) => name.startsWith(prefix));
}

/** The imports of every file of `project` under the folder `under`, as the compiler parsed them. */
export function getImportGraph(project: Project, under: string): ImportGraph {
  const files = getProjectFiles(project, under);
  const imports = files.flatMap((file) => {
    const source = project.program.getSourceFile(file);
    if (!source) throw new Error(`the compiler has no syntax tree for ${file}`);
    return source.imports.map((node): ImportEdge => {
      const spec = (node as unknown as { text: string }).text;
      return {
        file,
        spec,
        target: spec.startsWith('.') ? resolveRelative(file, spec) : undefined,
        typeOnly: isTypeOnly(node),
      };
    });
  });
  return { files, imports };
}

/** The imports of every file of the TypeScript project `tsconfig` under `under` (about 2 s here). */
export const readImportGraph = (tsconfig: string, under: string): ImportGraph =>
  withProject(tsconfig, (project) => getImportGraph(project, under));

/** The package a bare specifier names: `@scope/name` or `name` (`node:fs` stays whole). */
export const getPackageName = (spec: string): string =>
  spec
    .replace(/\?.*$/, '')
    .split('/')
    .slice(0, spec.startsWith('@') ? 2 : 1)
    .join('/');
