import { isFolderFileName } from '../../engine/parse/detect';
import { isSessionNamesPath } from '../../engine/library/session-names';
import type { LoadFile } from '../../worker/protocol';

// Files from a drop. Dropped folders (e.g. `<sessionId>/subagents/`) are walked for the files the
// dialects name (`.jsonl` logs, their metadata files, Cline's `api_conversation_history.json`,
// OpenCode's storage records, the session memory's .md),
// named by their path inside the drop so subagent files are recognisable.

/** As many as _Open folder…_ takes (open-folder.ts): OpenCode's storage holds a file per message part. */
const MAX_FOLDER_FILES = 50_000;

function readEntries(reader: FileSystemDirectoryReader): Promise<FileSystemEntry[]> {
  return new Promise((resolve, reject) => reader.readEntries(resolve, reject));
}

function getFile(entry: FileSystemFileEntry): Promise<File> {
  return new Promise((resolve, reject) => entry.file(resolve, reject));
}

async function walk(entry: FileSystemEntry, path: string, out: LoadFile[]): Promise<void> {
  if (out.length >= MAX_FOLDER_FILES) return;
  if (entry.isFile) {
    // The names an agent lists its sessions under (Codex's session_index.jsonl) come too: a
    // dropped ~/.codex listed its threads without them, where "Open folder…" named them.
    if (isFolderFileName(path) || isSessionNamesPath(path))
      out.push({ name: path, blob: await getFile(entry as FileSystemFileEntry) });
    return;
  }
  if (!entry.isDirectory) return;
  const reader = (entry as FileSystemDirectoryEntry).createReader();
  for (;;) {
    const batch = await readEntries(reader); // returns at most ~100 per call
    if (batch.length === 0) break;
    for (const child of batch) await walk(child, `${path}/${child.name}`, out);
  }
}

/** Must be called synchronously in the drop handler: DataTransfer items expire after it returns. */
export function collectDroppedFiles(dataTransfer: DataTransfer): Promise<LoadFile[]> {
  const entries: FileSystemEntry[] = [];
  for (const item of Array.from(dataTransfer.items ?? [])) {
    const entry = item.kind === 'file' ? item.webkitGetAsEntry?.() : null;
    if (entry) entries.push(entry);
  }
  if (entries.some((e) => e.isDirectory)) {
    return (async () => {
      const out: LoadFile[] = [];
      for (const entry of entries) {
        if (entry.isFile) {
          // A file dropped next to a folder is taken whatever its extension (it was chosen).
          out.push({ name: entry.name, blob: await getFile(entry as FileSystemFileEntry) });
        } else await walk(entry, entry.name, out);
      }
      return out;
    })();
  }
  const files = Array.from(dataTransfer.files, (file) => ({ name: file.name, blob: file as Blob }));
  return Promise.resolve(files);
}
