import { isFolderFileName } from '../parse/detect';
import { DIALECTS } from '../parse/dialects/registry';

// A folder of transcripts (`~/.claude/projects`, `~/.codex/sessions`, any folder) → sessions.
// Claude Code keeps a session's subagent logs in a folder named like the transcript
// (`<project>/<id>.jsonl` + `<project>/<id>/subagents/agent-*.jsonl`, FORMAT.md §1, §4.3): every
// file under `<id>/` joins `<id>.jsonl`. Any other transcript file is a session of its own.

export interface LibraryFile {
  /** Path within the opened folder, `/`-separated. */
  path: string;
  sizeBytes: number;
  /** Modification time (ms since the epoch), part of the cache key. */
  modifiedMs: number;
}

export interface SessionGroup<F extends LibraryFile = LibraryFile> {
  /** The main transcript's path: the session's key in the list and the cache. */
  key: string;
  /** Main file first, then the others by path. */
  files: F[];
}

/** Groups transcript files into sessions; files no dialect would take are left out. */
export function groupSessionFiles<F extends LibraryFile>(files: readonly F[]): SessionGroup<F>[] {
  let taken = files.filter((f) => isFolderFileName(f.path));
  // Dialects whose sessions span many files (OpenCode's storage) group their own.
  const own: SessionGroup<F>[] = [];
  for (const d of DIALECTS) {
    if (!d.files.groupFiles) continue;
    const byPath = new Map(taken.map((f) => [f.path, f]));
    const grouped = new Set<string>();
    for (const g of d.files.groupFiles(taken.map((f) => f.path))) {
      own.push({ key: g.key, files: g.paths.map((p) => byPath.get(p)!).filter((f) => f !== undefined) });
      for (const p of g.paths) grouped.add(p);
    }
    taken = taken.filter((f) => !grouped.has(f.path));
  }
  const mains = new Map<string, SessionGroup<F>>();
  for (const f of taken) {
    if (/\.jsonl$/i.test(f.path)) mains.set(f.path.slice(0, -'.jsonl'.length), { key: f.path, files: [f] });
  }
  const owned = new Set<F>();
  const loose: SessionGroup<F>[] = [];
  for (const f of taken) {
    const owner = ownerOf(f.path, mains);
    if (owner) {
      owner.files.push(f);
      owned.add(f);
    } else if (!/\.jsonl$/i.test(f.path) && /\.json$/i.test(f.path) && !/\.meta\.json$/i.test(f.path)) {
      loose.push({ key: f.path, files: [f] });
    }
  }
  const groups = [...loose, ...own];
  for (const g of mains.values()) {
    const [main, ...rest] = g.files;
    if (owned.has(main!)) continue;
    rest.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    groups.push({ key: g.key, files: [main!, ...rest] });
  }
  return groups.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

function ownerOf<F extends LibraryFile>(
  path: string,
  mains: Map<string, SessionGroup<F>>,
): SessionGroup<F> | undefined {
  for (let cut = path.lastIndexOf('/'); cut > 0; cut = path.lastIndexOf('/', cut - 1)) {
    const owner = mains.get(path.slice(0, cut));
    if (owner) return owner;
  }
  return undefined;
}

/** The cache key of one session's files: a change in any path, size or date rescans it. */
export function getGroupStamp(group: SessionGroup): string {
  return group.files.map((f) => `${f.path}\u0000${f.sizeBytes}\u0000${f.modifiedMs}`).join('\u0001');
}
