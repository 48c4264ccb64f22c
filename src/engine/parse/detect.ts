import type { FileRole } from '../types';
import type { DialectInfo, NotSessionFile } from './dialects/descriptor';
import { DIALECT_INFOS } from './dialects/descriptors';

// Two-pass detection (STYLE.md §3): the file name first, then the structure of the first records.
// Each dialect's descriptor says what its names and records look like; this file only asks them.
// Their infos (dialects/descriptors.ts) are enough, so the page detects and walks folders without
// the parsing code; the parser passes its own list (the registry's descriptors) and gets them back.

/** The dialect the file name alone suggests. */
export function detectDialectFromName(name: string): DialectInfo | undefined;
export function detectDialectFromName<D extends DialectInfo>(
  name: string,
  dialects: readonly D[],
): D | undefined;
export function detectDialectFromName(
  name: string,
  dialects: readonly DialectInfo[] = DIALECT_INFOS,
): DialectInfo | undefined {
  const base = baseName(name);
  return dialects.find((d) => d.files.matchName?.(base));
}

/** The dialect one parsed JSON value (a line, or a whole document) proves, if any. */
export function detectDialectFromRecord(value: unknown): DialectInfo | undefined;
export function detectDialectFromRecord<D extends DialectInfo>(
  value: unknown,
  dialects: readonly D[],
): D | undefined;
export function detectDialectFromRecord(
  value: unknown,
  dialects: readonly DialectInfo[] = DIALECT_INFOS,
): DialectInfo | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  return dialects.find((d) => d.files.matchRecord?.(value));
}

export function baseName(path: string): string {
  const i = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return i >= 0 ? path.slice(i + 1) : path;
}

/** A plain-text side file kept with the session (Claude Code's session memory), by its path. */
export function isSessionMemoryName(
  path: string,
  withTranscript: boolean,
  dialects: readonly DialectInfo[] = DIALECT_INFOS,
): boolean {
  return dialects.some((d) => d.files.sessionMemory?.(path, withTranscript));
}

/**
 * The role of a file within a dropped set, from its name and the set's names (`names`, default:
 * the file alone); 'main' unless a dialect says otherwise.
 */
export function detectFileRole(
  name: string,
  dialects: readonly DialectInfo[] = DIALECT_INFOS,
  names: readonly string[] = [name],
): { role: FileRole; agentId?: string } {
  const base = baseName(name);
  const bases = baseNamesOf(names);
  for (const d of dialects) {
    const match = d.files.fileRole?.(base, bases);
    if (match) return match.agentId === undefined ? { role: match.role } : { ...match };
  }
  return { role: 'main' };
}

const basesOf = new WeakMap<readonly string[], string[]>();

/** The base names of a set of paths, computed once per set (each file of the set asks). */
function baseNamesOf(names: readonly string[]): string[] {
  let bases = basesOf.get(names);
  if (!bases) {
    bases = names.map(baseName);
    basesOf.set(names, bases);
  }
  return bases;
}

/** A file a dropped folder's walk takes: some dialect's file, or a session-memory side file. */
export function isFolderFileName(path: string, dialects: readonly DialectInfo[] = DIALECT_INFOS): boolean {
  if (dialects.some((d) => d.files.notSessions?.some((n) => n.matchPath(path)))) return false;
  return dialects.some((d) => d.files.folderFile?.(path)) || isSessionMemoryName(path, true, dialects);
}

/** The agent file that is not a session one of whose records `value` is, if any. */
export function findNotSessionByRecord(
  value: unknown,
  dialects: readonly DialectInfo[] = DIALECT_INFOS,
): NotSessionFile | undefined {
  for (const d of dialects) for (const n of d.files.notSessions ?? []) if (n.matchRecord(value)) return n;
  return undefined;
}

/** A file the main transcript is loaded before (a subagent's log and the like), by its path. */
export function loadsAfterMain(path: string, dialects: readonly DialectInfo[] = DIALECT_INFOS): boolean {
  return dialects.some((d) => d.files.loadsAfterMain?.(path));
}
