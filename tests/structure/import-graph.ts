import { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import {
  type ModifiersBase,
  ModifierFlags,
  type Node,
  type QualifiedName,
  type SourceFile,
  SyntaxKind,
} from 'typescript/unstable/ast';
import {
  isExportDeclaration,
  isImportDeclaration,
  isImportTypeNode,
  isLiteralTypeNode,
  isNamedExports,
  isNamedImports,
  isNamespaceImport,
  isQualifiedName,
  isVariableStatement,
} from 'typescript/unstable/ast/is';
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
  /** An `import('…')` call: loaded when the code runs, not with the importing module. */
  dynamic: boolean;
  /**
   * A Vite `?url`, `?raw` or `?worker&url` import: the module's URL or text, not its code (the
   * sandbox's runtime URL, the public API's declaration for the editor).
   */
  asset?: boolean;
  /** What it takes from the module. */
  names: ImportedNames;
}

export interface ImportGraph {
  /** Every source file of the project under the given folder, absolute. */
  files: string[];
  imports: ImportEdge[];
  /** What each of those files exports itself, by name (`getExportedNames`). */
  exports: Map<string, string[]>;
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

/** `*`: the whole module (a namespace import, `export *`, a dynamic import). */
export type ImportedNames = readonly string[] | '*';

const nameText = (node: Node): string => (node as unknown as { text: string }).text;

/** The declaration a module specifier belongs to (an `import('…')` type's literal skipped). */
function getImportingNode(specifier: Node): Node {
  const parent = specifier.parent;
  return isLiteralTypeNode(parent) ? parent.parent : parent;
}

/** Whether the declaration holding a module specifier brings in types only. */
function isTypeOnly(specifier: Node): boolean {
  const node = getImportingNode(specifier);
  if (isImportTypeNode(node)) return true;
  if (isExportDeclaration(node)) return node.isTypeOnly;
  if (!isImportDeclaration(node) || !node.importClause) return false;
  const clause = node.importClause;
  if (clause.phaseModifier === SyntaxKind.TypeKeyword) return true;
  const bindings = clause.namedBindings;
  return (
    !clause.name &&
    bindings !== undefined &&
    isNamedImports(bindings) &&
    bindings.elements.length > 0 &&
    bindings.elements.every((e) => e.isTypeOnly)
  );
}

/** The names a module specifier's declaration takes from the module (as the module exports them). */
function getImportedNames(specifier: Node): ImportedNames {
  const node = getImportingNode(specifier);
  if (isImportDeclaration(node)) {
    const clause = node.importClause;
    if (!clause) return []; // `import './x'`: for its effects
    const bindings = clause.namedBindings;
    if (bindings && isNamespaceImport(bindings)) return '*';
    const named = bindings && isNamedImports(bindings) ? bindings.elements : [];
    return [...(clause.name ? ['default'] : []), ...named.map((e) => nameText(e.propertyName ?? e.name))];
  }
  if (isExportDeclaration(node)) {
    const clause = node.exportClause;
    return clause && isNamedExports(clause)
      ? clause.elements.map((e) => nameText(e.propertyName ?? e.name))
      : '*';
  }
  if (isImportTypeNode(node) && node.qualifier)
    return [nameText(isQualifiedName(node.qualifier) ? getLeftmost(node.qualifier) : node.qualifier)];
  return '*';
}

function getLeftmost(name: QualifiedName): Node {
  return isQualifiedName(name.left) ? getLeftmost(name.left) : name.left;
}

/** The names a source file exports itself (re-exports from other modules not included). */
export function getExportedNames(source: SourceFile): string[] {
  return source.statements.flatMap((statement): string[] => {
    if (isExportDeclaration(statement)) {
      const clause = statement.exportClause;
      return !statement.moduleSpecifier && clause && isNamedExports(clause)
        ? clause.elements.map((e) => nameText(e.name))
        : [];
    }
    const flags = (statement as Partial<ModifiersBase>).modifierFlags ?? 0;
    if (!(flags & ModifierFlags.Export)) return [];
    if (flags & ModifierFlags.Default) return ['default'];
    if (isVariableStatement(statement))
      return statement.declarationList.declarations.map((d) => nameText(d.name));
    const name = (statement as { name?: Node }).name;
    return name ? [nameText(name)] : [];
  });
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

/** The project's own source files under the folder `under` (no packages), as absolute paths. */
export function getProjectFiles(project: Project, under: string): string[] {
  const prefix = `${resolve(under)}/`;
  return project.program
    .getSourceFileNames()
    .map((name) => resolve(name))
    .filter((name) => name.startsWith(prefix) && !name.includes('/node_modules/'));
}

/** The imports of every file of `project` under the folder `under`, as the compiler parsed them. */
export function getImportGraph(project: Project, under: string): ImportGraph {
  const files = getProjectFiles(project, under);
  const imports = files.flatMap((file) => {
    const source = project.program.getSourceFile(file);
    if (!source) throw new Error(`the compiler has no syntax tree for ${file}`);
    return source.imports.map((node): ImportEdge => {
      const spec = nameText(node);
      return {
        file,
        spec,
        target: spec.startsWith('.') ? resolveRelative(file, spec) : undefined,
        typeOnly: isTypeOnly(node),
        dynamic: node.parent.kind === SyntaxKind.CallExpression,
        asset: /\?(?:.*&)?(?:url|raw)(?:&|$)/.test(spec),
        names: getImportedNames(node),
      };
    });
  });
  const exports = new Map(
    files.map((file) => [file, getExportedNames(project.program.getSourceFile(file)!)]),
  );
  return { files, imports, exports };
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
