import { closeSync, openSync, readdirSync, readSync, realpathSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import {
  groupSessionFiles,
  joinSiblingSubagents,
  type LibraryFile,
  SIBLING_HEAD_BYTES,
} from '../../engine/library/group-files';
import { isOpenCodeDatabaseName } from '../../engine/parse/dialects/opencode/database-name';
import { listDatabaseSessionPaths } from '../session-files';

// The sessions under some folders, grouped as the page's library groups a picked folder
// (engine/library/group-files.ts: Claude Code's subagent folders with their session, Cline's task
// folders, OpenCode's storage, a subagents folder whose transcript is gone as one session).
// Symbolic links are followed (a `~/.claude` kept in a dotfiles repository is one), each real
// folder walked once, so a link back up the tree does not loop.

interface SessionGroup {
  /** The main file: the row's `file`. */
  file: string;
  /** The main file first, then the session's other files. */
  paths: string[];
}

/** Walks `dir`; `seen` holds the real folders walked or to be walked as roots of their own. */
function walk(dir: string, files: LibraryFile[], seen: Set<string>, isRoot = false): void {
  let real: string;
  try {
    real = realpathSync(dir);
  } catch {
    return;
  }
  if (seen.has(real) && !isRoot) return;
  seen.add(real);
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return;
  }
  for (const name of names) {
    const path = join(dir, name);
    let stat: import('node:fs').Stats;
    try {
      stat = statSync(path); // follows links; a dangling one is skipped
    } catch {
      continue;
    }
    if (stat.isDirectory()) walk(path, files, seen);
    else if (stat.isFile()) files.push(toLibraryFile(path, stat));
  }
}

/** `/`-separated, as the engine's grouping reads paths. */
const toLibraryFile = (path: string, stat: import('node:fs').Stats): LibraryFile => ({
  path: sep === '/' ? path : path.split(sep).join('/'),
  sizeBytes: stat.size,
  modifiedMs: stat.mtimeMs,
});
const fromLibraryPath = (path: string) => (sep === '/' ? path : path.split('/').join(sep));

function readHead(path: string): string {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(SIBLING_HEAD_BYTES);
    const n = readSync(fd, buffer, 0, buffer.length, 0);
    return buffer.toString('utf8', 0, n);
  } finally {
    closeSync(fd);
  }
}

/**
 * Finds the sessions under `roots`, sorted by main file path. A folder is walked and grouped; a
 * file named on its own is a session of its own, whatever its name.
 */
export async function findSessions(roots: string[]): Promise<SessionGroup[]> {
  const files: LibraryFile[] = [];
  const named: SessionGroup[] = [];
  // A link into another of the roots is left to that root, so its files keep the names given.
  const seen = new Set<string>();
  const folders = roots.filter((root) => statSync(root).isDirectory());
  for (const root of folders) seen.add(realpathSync(root));
  for (const root of roots) {
    if (folders.includes(root)) walk(root, files, seen, true);
    else named.push({ file: root, paths: [root] });
  }
  const groups = await joinSiblingSubagents(groupSessionFiles(files), async (f) =>
    readHead(fromLibraryPath(f.path)),
  );
  const grouped = groups.map((g) => ({
    file: fromLibraryPath(g.key),
    // Transcripts before the metadata files, so the first path is always a transcript.
    paths: [
      ...g.files.filter((f) => !/\.meta\.json$/i.test(f.path)),
      ...g.files.filter((f) => /\.meta\.json$/i.test(f.path)),
    ].map((f) => fromLibraryPath(f.path)),
  }));
  // An OpenCode database: a session per session it holds (`opencode.db#ses_…`, with its log).
  const expanded: SessionGroup[] = [];
  for (const g of [...named, ...grouped]) {
    if (!isOpenCodeDatabaseName(g.file) || g.file.includes('#')) {
      expanded.push(g);
      continue;
    }
    try {
      for (const paths of await listDatabaseSessionPaths(g.file)) expanded.push({ file: paths[0]!, paths });
    } catch {
      expanded.push(g); // not readable as a database: its row says why
    }
  }
  return expanded.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}
