import { at } from '../assert';
import { type FileRole, type SessionFile, UNKNOWN_DIALECT } from '../types';
import { detectFileRole, isSessionMemoryName } from './detect';
import type { DialectInfo } from './dialects/descriptor';
import type { ByteSource } from './source';

// Which part each dropped file plays, and the order the files are read in: the main transcript
// first (its entries are the session's spine), then subagents, side questions, compaction calls,
// content and side files; within a role, by the dialect's load-order key (`loadOrderKey`), then
// in drop order.

const ROLE_ORDER: Record<FileRole, number> = {
  main: 0,
  subagent: 1,
  'side-question': 2,
  'compaction-call': 3,
  content: 4,
  'session-memory': 5,
  'subagent-meta': 6,
  'other-session': 7,
};

/** Decides each file's role; when no file looks like a main transcript, the first one is. */
export function assignRoles(sources: ByteSource[], dialects: readonly DialectInfo[]): SessionFile[] {
  const memory = sources.map((s) => isSessionMemoryName(s.name, false, dialects));
  // Once for all files (a storage folder can hold thousands: a copy per file was quadratic).
  const names = sources.map((s) => s.name);
  const withTranscript = memory.some((m) => !m);
  const files = sources.map((source, index): SessionFile => {
    if (memory[index] || isSessionMemoryName(source.name, withTranscript, dialects)) {
      return {
        index,
        name: source.name,
        sizeBytes: source.sizeBytes,
        lines: 0,
        role: 'session-memory',
        dialect: UNKNOWN_DIALECT,
      };
    }
    for (const d of dialects) {
      const metaOf = d.files.metadata?.agentIdOf(source.name);
      if (metaOf === undefined) continue;
      return {
        index,
        name: source.name,
        sizeBytes: source.sizeBytes,
        lines: 0,
        role: 'subagent-meta',
        agentId: metaOf,
        dialect: d.id,
      };
    }
    const { role, agentId } = detectFileRole(source.name, dialects, names);
    return {
      index,
      name: source.name,
      sizeBytes: source.sizeBytes,
      lines: 0,
      role,
      agentId,
      dialect: UNKNOWN_DIALECT,
    };
  });
  const transcripts = files.filter((f) => f.role !== 'session-memory' && f.role !== 'subagent-meta');
  if (transcripts.length > 0 && !transcripts.some((f) => f.role === 'main')) {
    const first =
      transcripts.find((f) => f.role === 'subagent' || f.role === 'side-question') ?? at(transcripts, 0);
    first.role = 'main';
    first.openedAlone = true;
  }
  return files;
}

/** The files in the order they are read: by role, then load-order key, then drop order. */
export function orderFiles(files: readonly SessionFile[], dialects: readonly DialectInfo[]): SessionFile[] {
  const keys = files.map((f) => loadOrderKey(f.name, dialects));
  return [...files].sort(
    (a, b) =>
      ROLE_ORDER[a.role] - ROLE_ORDER[b.role] ||
      compareKeys(keys[a.index], keys[b.index]) ||
      a.index - b.index,
  );
}

/** A file's read-order key from the dialect whose files name one (`loadOrderKey`). */
function loadOrderKey(path: string, dialects: readonly DialectInfo[]): string | undefined {
  for (const d of dialects) {
    const key = d.files.loadOrderKey?.(path);
    if (key !== undefined) return key;
  }
  return undefined;
}

/** Files without a key first (in drop order), then by key. */
function compareKeys(a: string | undefined, b: string | undefined): number {
  if (a === undefined || b === undefined) return (a === undefined ? 0 : 1) - (b === undefined ? 0 : 1);
  return a < b ? -1 : a > b ? 1 : 0;
}
