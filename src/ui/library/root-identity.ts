import type { LibraryRoot } from './library-queries';

// Which listed root a folder being opened is: the same folder opened again (its listing is
// replaced, rescanning only what changed), a folder inside a listed one or around listed ones, or a
// new root with an id of its own. Through File System Access handles where both have them (the
// browser's own answer: `isSameEntry`, `resolve`); a folder from a directory input or a drop has no
// identity, so it is the same as a listed root of its name that lists one of the same sessions.

type RootPlace =
  /** A listed root is this folder: its listing is replaced. */
  | { kind: 'same'; id: string }
  /** This folder is inside a listed root, whose listing already holds its sessions. */
  | { kind: 'inside'; id: string }
  /** A new root; `replaces`: listed roots inside it (their sessions are its sessions). */
  | { kind: 'new'; id: string; replaces: string[] };

type ResolvingHandle = FileSystemDirectoryHandle & {
  resolve?: (possibleDescendant: FileSystemHandle) => Promise<string[] | null>;
};

async function isInside(
  child: FileSystemDirectoryHandle,
  parent: FileSystemDirectoryHandle,
): Promise<boolean> {
  try {
    return ((await (parent as ResolvingHandle).resolve?.(child)) ?? null) !== null;
  } catch {
    return false;
  }
}

/** An id no listed root has: the name, else "name (2)", "name (3)"… */
export function getFreeRootId(name: string, roots: readonly LibraryRoot[]): string {
  const taken = new Set(roots.map((r) => r.id));
  if (!taken.has(name)) return name;
  let n = 2;
  while (taken.has(`${name} (${n})`)) n++;
  return `${name} (${n})`;
}

/**
 * Where a folder named `name` (its files' paths, as opened: `<name>/…`) goes among `roots`, each
 * with the keys of its sessions (`keysOf`).
 */
export async function placeRoot(
  name: string,
  handle: FileSystemDirectoryHandle | undefined,
  paths: readonly string[],
  roots: readonly LibraryRoot[],
  keysOf: (root: LibraryRoot) => readonly string[],
): Promise<RootPlace> {
  if (handle) {
    const replaces: string[] = [];
    for (const r of roots) {
      if (!r.handle) continue;
      if (await r.handle.isSameEntry(handle).catch(() => false)) return { kind: 'same', id: r.id };
      if (await isInside(handle, r.handle)) return { kind: 'inside', id: r.id };
      if (await isInside(r.handle, handle)) replaces.push(r.id);
    }
    // A root listed without its handle (after a reload, from an input) may be this folder too.
    const same = roots.find((r) => !r.handle && r.name === name && sharesSession(r, paths, keysOf));
    if (same) return { kind: 'same', id: same.id };
    return {
      kind: 'new',
      id: getFreeRootId(
        name,
        roots.filter((r) => !replaces.includes(r.id)),
      ),
      replaces,
    };
  }
  const same = roots.find((r) => r.name === name && sharesSession(r, paths, keysOf));
  return same ? { kind: 'same', id: same.id } : { kind: 'new', id: getFreeRootId(name, roots), replaces: [] };
}

/** Whether one of the root's sessions is a file of the folder being opened (named as it opened). */
function sharesSession(
  root: LibraryRoot,
  paths: readonly string[],
  keysOf: (root: LibraryRoot) => readonly string[],
): boolean {
  const own = new Set(paths);
  const prefix = `${root.id}/`;
  return keysOf(root).some((key) =>
    own.has(key.startsWith(prefix) ? `${root.name}/${key.slice(prefix.length)}` : key),
  );
}

/** A path as opened (`<name>/…`, or a bare file name) under the root's id. */
export function toRootPath(path: string, name: string, id: string): string {
  if (id === name) return path;
  return path.startsWith(`${name}/`) ? `${id}/${path.slice(name.length + 1)}` : `${id}/${path}`;
}
