import { closeSync, openSync, readdirSync, readSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, sep } from 'node:path';
import {
  groupSessionFiles,
  isSubagentLogPath,
  joinSiblingSubagents,
  type LibraryFile,
  type SessionGroup as LibraryGroup,
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
  const grouped = (await groupFiles(files)).map((g) => ({ file: fromLibraryPath(g.key), paths: pathsOf(g) }));
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

/** Files grouped into sessions as the page's library groups them, 2.0.x sibling logs joined. */
function groupFiles(files: LibraryFile[]): Promise<LibraryGroup[]> {
  return joinSiblingSubagents(groupSessionFiles(files), async (f) => readHead(fromLibraryPath(f.path)));
}

/** A group's paths: transcripts before the metadata files, so the first path is always a transcript. */
const pathsOf = (g: LibraryGroup): string[] =>
  [
    ...g.files.filter((f) => !/\.meta\.json$/i.test(f.path)),
    ...g.files.filter((f) => /\.meta\.json$/i.test(f.path)),
  ].map((f) => fromLibraryPath(f.path));

/**
 * The files of the session whose main transcript `file` is, as `findSessions` takes them from a
 * walk of its whole folder: the same grouping run over the folder's own files (not its other
 * sessions' folders) and the walk of `<name>/`, so a Claude Code session brings its subagent,
 * compaction-call and side-question logs, their `.meta.json` and its session memory
 * (`<id>/…`, docs/sources.md#fmt-files), and a 2.0.x session the `agent-*.jsonl` beside it that
 * state its id (#fmt-subagents). `file` comes first, as named. A file that is not the main file of
 * a session (a subagent's log, a file no dialect takes) is its own session, alone.
 */
export async function findSessionOf(file: string): Promise<string[]> {
  const dir = dirname(file);
  const main = toLibraryFile(join(dir, basename(file)), statSync(file)).path;
  // Only JSON lines name a folder of their session's files (the library's rule, group-files.ts):
  // another agent's file (a Cline task's `.json`, an OpenCode database) is read as named.
  if (!/\.jsonl$/i.test(main) || isSubagentLogPath(main)) return [file];
  const files: LibraryFile[] = [];
  const named = basename(file);
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
  )) {
    const { name } = entry;
    // Not statted: a folder (the session's own, `<name>/`, is walked below), and another session's
    // transcript, a `.jsonl` that is no 2.0.x subagent log beside it (it is the main file of a
    // session of its own in the library's grouping). A project folder of a thousand sessions
    // cost a thousand `stat`s for the one session asked.
    if (entry.isDirectory()) continue;
    if (name !== named && /\.jsonl$/i.test(name) && !isSubagentLogPath(name)) continue;
    const path = join(dir, name);
    try {
      const stat = statSync(path);
      if (stat.isFile()) files.push(toLibraryFile(path, stat));
    } catch {
      // a dangling link: not a file of the session
    }
  }
  const folder = join(dir, basename(file).replace(/\.jsonl$/i, ''));
  if (statSync(folder, { throwIfNoEntry: false })?.isDirectory()) walk(folder, files, new Set(), true);
  const own = (await groupFiles(files)).find((g) => g.key === main);
  if (!own) return [file];
  return [file, ...pathsOf(own).slice(1)];
}
