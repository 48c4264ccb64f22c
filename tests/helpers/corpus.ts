import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { detectDialectFromName, detectDialectFromRecord } from '../../src/engine/parse/detect';
import type { DialectId } from '../../src/engine/types';

// The one way tests reach ../shared/corpus (other people's real logs: read here, never copied into
// the repo). A fresh clone without ../shared skips every corpus test with one message per test file.

export const CORPUS = resolve(__dirname, '../../../shared/corpus');
export const corpusPresent = existsSync(CORPUS);

/** Warns once that `what` is skipped; returns whether the corpus is present. */
export function corpusOrSkip(what: string): boolean {
  if (!corpusPresent) console.warn(`${what} skipped: ${CORPUS} is absent (a fresh clone without ../shared)`);
  return corpusPresent;
}

/** Other agents' real logs (Codex, Gemini CLI, pi, Cline), kept in their original layout with a manifest. */
export const FOREIGN = join(CORPUS, 'foreign');

/** Every file under the foreign corpus's source folders (original paths kept), sorted; not the manifest. */
export function foreignFiles(): string[] {
  if (!existsSync(FOREIGN)) return [];
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (dir !== FOREIGN) out.push(path);
    }
  };
  walk(FOREIGN);
  return out.sort();
}

/**
 * Real logs restored from tests/real-logs/manifest.json's pointers by scripts/restore-real-logs.mjs
 * (`.real-logs/<owner>__<repo>/<path>`, ignored by git); absent until restored.
 */
export const REAL_LOGS = resolve(__dirname, '../../.real-logs');

/** Every file under `.real-logs/`, sorted (none when it was not restored). */
export function restoredRealLogFiles(): string[] {
  if (!existsSync(REAL_LOGS)) return [];
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else out.push(path);
    }
  };
  walk(REAL_LOGS);
  return out.sort();
}

/** The corpus path without the corpus folder (`<dir>/<file>`), for test names. */
export function corpusName(path: string): string {
  return path.slice(CORPUS.length + 1);
}

/** Every file in the corpus's source folders, sorted; `filter` by base name. */
export function corpusFiles(filter: (baseName: string) => boolean = () => true): string[] {
  if (!corpusPresent) return [];
  const out: string[] = [];
  for (const dir of readdirSync(CORPUS)) {
    // `foreign/` holds other agents' logs in their original folder trees (foreignFiles reads them).
    if (dir === 'foreign') continue;
    const path = join(CORPUS, dir);
    if (!statSync(path).isDirectory()) continue;
    for (const f of readdirSync(path)) {
      const file = join(path, f);
      if (filter(f) && statSync(file).isFile()) out.push(file);
    }
  }
  return out.sort();
}

/** Every `.jsonl` file of the corpus, sorted. */
export function corpusJsonl(): string[] {
  return corpusFiles((f) => f.endsWith('.jsonl'));
}

/**
 * The dialect a corpus file is, asked of the registry's descriptors as the engine detects it: the
 * name first, then the first JSON line (or the whole document) that proves one.
 */
export function corpusDialect(path: string): DialectId | undefined {
  const byName = detectDialectFromName(basename(path));
  if (byName) return byName.id;
  const text = readFileSync(path, 'utf8');
  try {
    const whole = detectDialectFromRecord(JSON.parse(text));
    if (whole) return whole.id;
  } catch {
    // JSON lines, not one document.
  }
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const d = detectDialectFromRecord(JSON.parse(line));
      if (d) return d.id;
    } catch {
      // a cut or foreign line
    }
  }
  return undefined;
}

/** The corpus files of one dialect, sorted. */
export function corpusFilesOf(dialect: DialectId): string[] {
  return corpusFiles((f) => f.endsWith('.jsonl') || f.endsWith('.json')).filter(
    (p) => corpusDialect(p) === dialect,
  );
}

/** A session folder as the corpus flattens it (`<session>/subagents/agent-*` → `<session>__subagents__agent-*`). */
export interface CorpusSessionGroup {
  /** Absent when the corpus holds only the folder's subagent files. */
  main?: string;
  /** Every `<session>__subagents__agent-*` file: `.jsonl` logs and `.meta.json` files. */
  subagents: string[];
}

/** The session folders of the corpus that have subagent files. */
export function corpusSessionGroups(): CorpusSessionGroup[] {
  if (!corpusPresent) return [];
  const out: CorpusSessionGroup[] = [];
  for (const dir of readdirSync(CORPUS)) {
    const path = join(CORPUS, dir);
    if (!statSync(path).isDirectory()) continue;
    const names = readdirSync(path);
    const stems = new Set<string>();
    for (const name of names) {
      const at = name.indexOf('__subagents__agent-');
      if (at > 0 && (name.endsWith('.jsonl') || name.endsWith('.meta.json'))) stems.add(name.slice(0, at));
    }
    for (const stem of stems) {
      const subagents = names
        .filter((n) => n.startsWith(`${stem}__subagents__agent-`))
        .filter((n) => n.endsWith('.jsonl') || n.endsWith('.meta.json'))
        .map((n) => join(path, n));
      const main = names.includes(`${stem}.jsonl`) ? join(path, `${stem}.jsonl`) : undefined;
      out.push({ main, subagents });
    }
  }
  return out;
}

/**
 * The corpus rebuilt as real folders (`stats.py --restore-tree`: `~/.claude/projects`, `.codex`,
 * … as their agents wrote them) in a fresh temporary folder named after `what`; its path.
 */
export function restoreCorpusTree(what: string): string {
  const tree = mkdtempSync(join(tmpdir(), `compactlab-${what}-`));
  const restore = spawnSync('python3', [join(CORPUS, 'stats.py'), '--restore-tree', tree], {
    encoding: 'utf8',
  });
  if (restore.status !== 0) throw new Error(`stats.py --restore-tree failed: ${restore.stderr}`);
  return tree;
}
