import { isObject } from '../record';

// Codex's thread names, `~/.codex/session_index.jsonl`: one `{"id","thread_name","updated_at"}`
// line per rename, appended; the newest line of an id is its name, as Codex resolves it
// (openai/codex@3186b1735199ed9c2bbe8f96336970c90ab132b8 codex-rs/core/src/rollout/session_index.rs:
// `append_thread_name`, `find_thread_name_by_id` scanning from the end; a line that does not parse
// is skipped there too). A rollout holds the rename as well only in releases that persist
// `thread_name_updated` (codex-rs/rollout/src/policy.rs@851c9d5ef023ef39288bd3cb9bde3bdee8812d93,
// `persists_thread_name_updates_in_limited_mode`); the index is what Codex's own lists read.

/** Each thread id's newest name ('' where the newest line takes the name back). Linear in the text. */
export function readCodexThreadNames(text: string): Map<string, string> {
  const names = new Map<string, string>();
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '') continue;
    let record: unknown;
    try {
      record = JSON.parse(trimmed);
    } catch {
      continue;
    }
    if (!isObject(record) || typeof record.id !== 'string' || typeof record.thread_name !== 'string')
      continue;
    // Later lines win: delete first so the map's order is the newest line's.
    names.delete(record.id);
    names.set(record.id, record.thread_name.trim());
  }
  return names;
}
