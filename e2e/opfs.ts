import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';

// Files of the origin-private file system (`navigator.storage.getDirectory()`): real
// FileSystemDirectoryHandles and FileSystemFileHandles, the interfaces the browser's pickers
// return, which Playwright cannot drive. Tests stub a picker to hand these over; each helper works
// under one top folder of that file system.

export interface TreeFile {
  /** Path under the folder, `/`-separated. */
  path: string;
  text: string;
}

/** The files under a folder on disk, their paths relative to it. */
export function readTree(root: string, dir = ''): TreeFile[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = dir ? `${dir}/${e.name}` : e.name;
    return e.isDirectory()
      ? readTree(root, rel)
      : [{ path: rel, text: fs.readFileSync(path.join(root, rel), 'utf8') }];
  });
}

/** "Open folder…" hands over `folder` of the origin-private file system (the picker stubbed). */
export async function stubFolderPicker(page: Page, folder: string): Promise<void> {
  await page.addInitScript((name) => {
    (window as unknown as { showDirectoryPicker: unknown }).showDirectoryPicker = async () =>
      (await navigator.storage.getDirectory()).getDirectoryHandle(name);
  }, folder);
}

/**
 * Writes files (and their folders) under `folder` in the page's origin-private file system;
 * `fresh`: what was there goes first.
 */
export async function writeOpfsFiles(
  page: Page,
  folder: string,
  files: TreeFile[],
  fresh: boolean,
): Promise<void> {
  await page.evaluate(
    async ({ folder, files, fresh }) => {
      const root = await navigator.storage.getDirectory();
      if (fresh) await root.removeEntry(folder, { recursive: true }).catch(() => {});
      const top = await root.getDirectoryHandle(folder, { create: true });
      for (const f of files) {
        const parts = f.path.split('/');
        let dir = top;
        for (const p of parts.slice(0, -1)) dir = await dir.getDirectoryHandle(p, { create: true });
        const writable = await (await dir.getFileHandle(parts.at(-1)!, { create: true })).createWritable();
        await writable.write(f.text);
        await writable.close();
      }
    },
    { folder, files, fresh },
  );
}

/** Removes a file or folder under `folder` in the origin-private file system. */
export async function removeOpfsEntry(page: Page, folder: string, entry: string): Promise<void> {
  await page.evaluate(
    async ({ folder, entry }) => {
      let dir = await (await navigator.storage.getDirectory()).getDirectoryHandle(folder);
      const parts = entry.split('/');
      for (const p of parts.slice(0, -1)) dir = await dir.getDirectoryHandle(p);
      await dir.removeEntry(parts.at(-1)!, { recursive: true });
    },
    { folder, entry },
  );
}

/** Appends text to a file under `folder` in the origin-private file system. */
export async function appendOpfsFile(page: Page, folder: string, file: string, text: string): Promise<void> {
  await page.evaluate(
    async ({ folder, file, text }) => {
      let dir = await (await navigator.storage.getDirectory()).getDirectoryHandle(folder);
      const parts = file.split('/');
      for (const p of parts.slice(0, -1)) dir = await dir.getDirectoryHandle(p);
      const handle = await dir.getFileHandle(parts.at(-1)!);
      const sizeBytes = (await handle.getFile()).size;
      const writable = await handle.createWritable({ keepExistingData: true });
      await writable.seek(sizeBytes);
      await writable.write(text);
      await writable.close();
    },
    { folder, file, text },
  );
}
