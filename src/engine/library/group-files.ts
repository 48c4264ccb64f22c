import { isFolderFileName } from '../parse/detect';
import { DIALECT_INFOS } from '../parse/dialects/descriptors';

// A folder of transcripts (`~/.claude/projects`, `~/.codex/sessions`, any folder) → sessions.
// Claude Code keeps a session's subagent logs in a folder named like the transcript
// (`<project>/<id>.jsonl` + `<project>/<id>/subagents/agent-*.jsonl`, docs/sources.md#fmt-files, #fmt-around-compaction): every
// file under `<id>/` joins `<id>.jsonl`; a `subagents/` folder whose transcript is gone is one
// session of its own (its first log the main file). Any other transcript file is a session of its own.

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
  for (const d of DIALECT_INFOS) {
    if (!d.files.groupFiles) continue;
    const byPath = new Map(taken.map((f) => [f.path, f]));
    const grouped = new Set<string>();
    for (const g of d.files.groupFiles(taken.map((f) => f.path))) {
      own.push({ key: g.key, files: g.paths.map((p) => byPath.get(p)!).filter((f) => f !== undefined) });
      for (const p of g.paths) grouped.add(p);
    }
    taken = taken.filter((f) => !grouped.has(f.path));
  }
  // Subagent folders whose session transcript is not in the folder: one session each.
  const present = new Set(taken.map((f) => f.path));
  const orphans = new Map<string, F[]>();
  for (const f of taken) {
    const m = SUBAGENT_FILE.exec(f.path);
    if (!m || present.has(`${m[1]}.jsonl`) || hasOwnerJsonl(m[1]!, present)) continue;
    const list = orphans.get(m[1]!) ?? [];
    if (list.length === 0) orphans.set(m[1]!, list);
    list.push(f);
  }
  for (const list of orphans.values()) {
    list.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    const main = list.find((f) => /\.jsonl$/i.test(f.path));
    if (main) own.push({ key: main.path, files: [main, ...list.filter((f) => f !== main)] });
  }
  if (orphans.size > 0) {
    const grouped = new Set([...orphans.values()].flat());
    taken = taken.filter((f) => !grouped.has(f));
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

/** A file in a session's `subagents/` folder: group 1 is the folder the session's `.jsonl` names. */
const SUBAGENT_FILE = /^(.+)\/subagents\/[^/]+$/;

/**
 * Whether a session's key is a subagent log: a `subagents/` folder whose session transcript is not
 * in the opened folder, listed on its own (its figures are the subagents', not the session's).
 */
export function isSubagentsOnly(key: string): boolean {
  return SUBAGENT_FILE.test(key);
}

/**
 * Whether a path is a subagent's own log by its place or name: in a `subagents/` folder, or a
 * Claude Code 2.0.x `agent-<id>.jsonl` (docs/sources.md#fmt-subagents). Named alone to the CLI, it
 * is opened alone (its figures are the subagent's), never grown into the session its siblings make.
 */
export function isSubagentLogPath(path: string): boolean {
  return SUBAGENT_FILE.test(path) || SIBLING_SUBAGENT.test(path);
}

/** Whether a transcript `<dir>.jsonl` exists for `dir` or a folder above it. */
function hasOwnerJsonl(dir: string, present: Set<string>): boolean {
  for (let cut = dir.length; cut > 0; cut = dir.lastIndexOf('/', cut - 1)) {
    if (present.has(`${dir.slice(0, cut)}.jsonl`)) return true;
  }
  return false;
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

/**
 * Claude Code 2.0.x's subagent logs: `agent-<id>.jsonl` beside the session's file (docs/sources.md#fmt-subagents;
 * 7–8 hex digits then, 17 characters in later ids). Not those in a `subagents/` folder.
 */
const SIBLING_SUBAGENT = /^((?:[^/]*\/)*)agent-[0-9a-z_-]+\.jsonl$/i;
/** Bytes of a sibling log read for its session id: the envelope's `sessionId` comes before the message. */
export const SIBLING_HEAD_BYTES = 16_384;
const SESSION_ID = /"sessionId"\s*:\s*"([0-9a-fA-F-]{8,64})"/;

/**
 * Joins 2.0.x subagent logs to their session. Their path does not say whose they are: their lines
 * carry the parent's `sessionId` (docs/sources.md#fmt-subagents), so each one's head is read (`readHead`: the
 * file's first `SIBLING_HEAD_BYTES` as text) and the log joins `<its folder>/<sessionId>.jsonl`
 * when that session is in the list. The logs of one session that is not there make one session
 * (as a `subagents/` folder without its transcript does), its first log the main file.
 */
export async function joinSiblingSubagents<F extends LibraryFile>(
  groups: SessionGroup<F>[],
  readHead: (file: F) => Promise<string>,
): Promise<SessionGroup<F>[]> {
  const byKey = new Map(groups.map((g) => [g.key, g]));
  const joined = new Set<SessionGroup<F>>();
  const owners = new Set<SessionGroup<F>>();
  for (const g of groups) {
    const m = g.files.length === 1 ? SIBLING_SUBAGENT.exec(g.key) : null;
    if (!m || /(^|\/)subagents\/$/.test(m[1]!)) continue;
    let head: string;
    try {
      head = await readHead(g.files[0]!);
    } catch {
      continue; // unreadable now: listed on its own, where its scan says why
    }
    const sessionId = SESSION_ID.exec(head)?.[1];
    if (sessionId === undefined) continue;
    const ownerKey = `${m[1]}${sessionId}.jsonl`;
    const owner = byKey.get(ownerKey);
    if (owner === g) continue;
    if (!owner) {
      // The session is not in the folder: this log stands for it, the next ones join it.
      byKey.set(ownerKey, g);
      continue;
    }
    owner.files.push(g.files[0]!);
    owners.add(owner);
    joined.add(g);
  }
  if (joined.size === 0) return groups;
  for (const g of owners) {
    const [main, ...rest] = g.files;
    rest.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    g.files = [main!, ...rest];
  }
  return groups.filter((g) => !joined.has(g));
}
