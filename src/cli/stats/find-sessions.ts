import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

// The sessions under some folders, each with the files that belong to it. Claude Code keeps a
// session as `<project>/<sessionId>.jsonl` and its sub-agents, compaction calls and their
// `.meta.json` as `<project>/<sessionId>/subagents/agent-*` (FORMAT.md §7); Codex keeps one
// `rollout-*.jsonl` per session under `~/.codex/sessions/YYYY/MM/DD/`. A subagents folder whose
// session file is gone becomes one session of its own (its first file taken as the main one).

export interface SessionGroup {
  /** The main file: the row's `file`. */
  file: string;
  /** The main file first, then the subagent and compaction-call files, then their metadata. */
  paths: string[];
}

const SUBAGENT_FILE = /^(.*)[\\/]subagents[\\/][^\\/]+\.(jsonl|meta\.json)$/;

function walk(dir: string, files: string[]): void {
  let entries: import('node:fs').Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path, files);
    else if (entry.isFile() && (entry.name.endsWith('.jsonl') || entry.name.endsWith('.meta.json')))
      files.push(path);
  }
}

/** Finds the sessions under `roots` (folders or single files), sorted by main file path. */
export function findSessions(roots: string[]): SessionGroup[] {
  const files: string[] = [];
  for (const root of roots) {
    if (statSync(root).isDirectory()) walk(root, files);
    else files.push(root);
  }
  files.sort();
  const mains = new Set(files.filter((f) => f.endsWith('.jsonl') && !SUBAGENT_FILE.test(f)));
  const groups = new Map<string, string[]>();
  for (const main of mains) groups.set(main, [main]);
  for (const f of files) {
    const m = SUBAGENT_FILE.exec(f);
    if (!m) continue;
    const key = `${m[1]}.jsonl`;
    const group = groups.get(key) ?? [];
    if (!groups.has(key)) groups.set(key, group);
    group.push(f);
  }
  const out: SessionGroup[] = [];
  for (const [key, paths] of groups) {
    // `.meta.json` files after the transcripts, so the first path is always a transcript.
    const ordered = [
      ...paths.filter((p) => p.endsWith('.jsonl')),
      ...paths.filter((p) => !p.endsWith('.jsonl')),
    ];
    if (ordered.length === 0 || !ordered[0]!.endsWith('.jsonl')) continue;
    out.push({ file: mains.has(key) ? key : ordered[0]!, paths: ordered });
  }
  return out.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}
