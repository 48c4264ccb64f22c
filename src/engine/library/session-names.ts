import { DIALECT_INFOS } from '../parse/dialects/descriptors';

// The names an agent lists its sessions under, kept apart from the logs (a dialect's
// `files.sessionNames`: Codex's `~/.codex/session_index.jsonl`). A session takes the name the
// nearest such file in the folders above its main file gives its id: the name the agent's own
// list shows, over the one its log states (an older Codex writes a rename only to the index); an
// id the file does not name keeps its log's. Page and CLI alike (ui/library/session-names.ts,
// cli/stats/session-names.ts).

/** One names file, read. */
export interface SessionNamesFile {
  /** `/`-separated. */
  path: string;
  /** The agent whose sessions it names (`LibraryRow.agent`). */
  agent: string;
  /** Session id → name ('' where the name was taken back). */
  names: ReadonlyMap<string, string>;
}

/**
 * Ours: a names file larger than this is not read (Codex's holds a short line per rename; 16 MB
 * is some 150,000 renames).
 */
export const MAX_SESSION_NAMES_BYTES = 16 * 1024 * 1024;

const baseName = (path: string) => path.slice(path.lastIndexOf('/') + 1).toLowerCase();

/** The dialects' names files, by file name (lower case). */
function getNamesDialects() {
  return DIALECT_INFOS.flatMap((d) =>
    d.files.sessionNames && d.agent !== undefined
      ? [
          {
            agent: d.agent as string,
            ...d.files.sessionNames,
            key: d.files.sessionNames.fileName.toLowerCase(),
          },
        ]
      : [],
  );
}

/** The file names to look for in a session's folders and those above them. */
export function getSessionNamesFileNames(): string[] {
  return getNamesDialects().map((d) => d.fileName);
}

/** Whether a path (`/`-separated) is a names file of some dialect: a folder walk keeps it. */
export function isSessionNamesPath(path: string): boolean {
  const name = baseName(path);
  return getNamesDialects().some((d) => d.key === name);
}

/** A names file's text read by its dialect; undefined when no dialect names files so. */
export function readSessionNamesFile(path: string, text: string): SessionNamesFile | undefined {
  const name = baseName(path);
  const dialect = getNamesDialects().find((d) => d.key === name);
  return dialect && { path, agent: dialect.agent, names: dialect.read(text) };
}

/**
 * The names file nearest above `sessionPath` (`/`-separated) among `files` (by path), walking up
 * its folders; undefined when none is.
 */
export function findSessionNamesFile(
  sessionPath: string,
  files: ReadonlyMap<string, SessionNamesFile>,
): SessionNamesFile | undefined {
  if (files.size === 0) return undefined;
  const names = getSessionNamesFileNames();
  for (let at = sessionPath.lastIndexOf('/'); ; at = sessionPath.lastIndexOf('/', at - 1)) {
    const dir = at < 0 ? '' : sessionPath.slice(0, at + 1);
    for (const name of names) {
      const hit = files.get(`${dir}${name}`);
      if (hit) return hit;
    }
    if (at <= 0) return undefined;
  }
}

/**
 * The name `file` lists a session under: a string ('' the name taken back), or undefined when it
 * does not list it (another agent's session, an id it does not hold): the log's own name holds.
 */
export function getListedName(
  file: SessionNamesFile | undefined,
  agent: string | undefined,
  sessionId: string | undefined,
): string | undefined {
  if (!file || agent !== file.agent || sessionId === undefined) return undefined;
  return file.names.get(sessionId);
}

/** `row` under the name `file` gives it (its `title`), or `row` itself when it gives none. */
export function withListedName<R extends { agent: string; sessionId?: string; title?: string }>(
  row: R,
  file: SessionNamesFile | undefined,
): R {
  const name = getListedName(file, row.agent, row.sessionId);
  if (name === undefined || name === row.title) return row;
  const { title: _old, ...rest } = row;
  return (name === '' ? rest : { ...rest, title: name }) as R;
}
