import { readFileSync, statSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import {
  getListedName,
  getSessionNamesFileNames,
  MAX_SESSION_NAMES_BYTES,
  readSessionNamesFile,
  type SessionNamesFile,
} from '../../engine/library/session-names';
import type { StatsRow } from './stats-row';

// `stats`' sessions under the names their agent lists them by (engine/library/session-names.ts):
// for each session, the nearest names file in its folder or the folders above it, wherever the
// walk began (`stats ~/.codex/sessions` finds `~/.codex/session_index.jsonl`). Each folder is
// probed once and each file read once, however many sessions share it.

/** Each session's names file (by its main file), where one is above it. */
export function findSessionNamesFiles(mainFiles: readonly string[]): Map<string, SessionNamesFile> {
  const names = getSessionNamesFileNames();
  const out = new Map<string, SessionNamesFile>();
  if (names.length === 0) return out;
  const inFolder = new Map<string, SessionNamesFile | null>();
  const read = new Map<string, SessionNamesFile | null>();
  const lookUp = (folder: string): SessionNamesFile | null => {
    const known = inFolder.get(folder);
    if (known !== undefined) return known;
    let found: SessionNamesFile | null = null;
    for (const name of names) {
      const path = join(folder, name);
      let file = read.get(path);
      if (file === undefined) {
        file = readNamesFile(path);
        read.set(path, file);
      }
      if (file) {
        found = file;
        break;
      }
    }
    if (!found) {
      const parent = dirname(folder);
      found = parent === folder ? null : lookUp(parent);
    }
    inFolder.set(folder, found);
    return found;
  };
  for (const main of mainFiles) {
    const file = lookUp(dirname(main));
    if (file) out.set(main, file);
  }
  return out;
}

/** A names file at `path`, read, or null where there is none (or none that can be read). */
function readNamesFile(path: string): SessionNamesFile | null {
  try {
    const stat = statSync(path, { throwIfNoEntry: false });
    if (!stat?.isFile() || stat.size > MAX_SESSION_NAMES_BYTES) return null;
    const slashed = sep === '/' ? path : path.split(sep).join('/');
    return readSessionNamesFile(slashed, readFileSync(path, 'utf8')) ?? null;
  } catch {
    return null;
  }
}

/** `row` with the `title` its names file lists it under ('' taken back: no title). */
export function nameStatsRow(row: StatsRow, file: SessionNamesFile | undefined): StatsRow {
  const name = getListedName(
    file,
    String(row.agent ?? ''),
    row.sessionId === undefined ? undefined : String(row.sessionId),
  );
  return name === undefined ? row : { ...row, title: name };
}
