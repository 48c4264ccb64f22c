import { at } from '../assert';
import type { ByteSource } from '../parse/source';
import type { Session } from '../types';

/** Bytes read per step: amortises the async read, keeps progress and cancel responsive. */
const FULL_TEXT_CHUNK_BYTES = 4 * 1024 * 1024;

export interface FullTextProgress {
  bytesRead: number;
  totalBytes: number;
}

interface FullTextOptions {
  signal?: AbortSignal;
  onProgress?: (progress: FullTextProgress) => void;
  /** Bytes read per step (default 4 MiB); tests use tiny chunks. A longer line is read whole. */
  chunkBytes?: number;
}

const yieldToEventLoop = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * The forms of `query` to look for in a raw JSONL line, lower-cased: the query itself and, when
 * JSON escapes some of its characters (quotes, backslashes, newlines, control characters), its
 * escaped form as JSON.stringify writes it.
 */
export function getFullTextNeedles(query: string): string[] {
  const needle = query.trim().toLowerCase();
  if (needle === '') return [];
  const escaped = JSON.stringify(needle).slice(1, -1);
  return escaped === needle ? [needle] : [needle, escaped];
}

/**
 * Per entry, 1 when its raw line (the whole record, not the 2,000-character previews) contains
 * the query, ignoring case (Unicode `toLowerCase` on the decoded line). Reads the bytes of each
 * file's entry lines once, in chunks, yielding to the event loop between chunks so that a worker
 * sees its cancel messages; throws `AbortError` when the signal aborts. An empty query matches all.
 */
export async function computeFullTextMatches(
  session: Session,
  sources: ByteSource[],
  query: string,
  options: FullTextOptions = {},
): Promise<Uint8Array> {
  const { signal, onProgress } = options;
  const chunkBytes = Math.max(1, options.chunkBytes ?? FULL_TEXT_CHUNK_BYTES);
  const matches = new Uint8Array(session.entries.length);
  const needles = getFullTextNeedles(query);
  if (needles.length === 0) return matches.fill(1);

  // Entries are in line order within each file; entries recovered from one concatenated line
  // share its byte range, so each distinct range is read and tested once.
  const byFile = new Map<number, number[]>();
  for (const entry of session.entries) {
    const list = byFile.get(entry.fileIndex);
    if (list) list.push(entry.index);
    else byFile.set(entry.fileIndex, [entry.index]);
  }
  let totalBytes = 0;
  for (const [fileIndex] of byFile) totalBytes += sources[fileIndex]?.sizeBytes ?? 0;

  const decoder = new TextDecoder('utf-8');
  let bytesRead = 0;
  onProgress?.({ bytesRead, totalBytes });
  for (const [fileIndex, entryIndices] of byFile) {
    const source = sources[fileIndex];
    if (!source) continue;
    let i = 0;
    while (i < entryIndices.length) {
      signal?.throwIfAborted();
      const first = session.entries[at(entryIndices, i)]!;
      const startBytes = first.offsetBytes;
      let endBytes = startBytes + first.lengthBytes;
      let j = i + 1;
      while (j < entryIndices.length) {
        const next = session.entries[at(entryIndices, j)]!;
        const nextEnd = Math.max(endBytes, next.offsetBytes + next.lengthBytes);
        if (next.offsetBytes < startBytes || nextEnd - startBytes > chunkBytes) break;
        endBytes = nextEnd;
        j++;
      }
      const bytes = await source.read(startBytes, endBytes - startBytes);
      let lastOffset = -1;
      let lastMatch = false;
      for (let k = i; k < j; k++) {
        const entry = session.entries[at(entryIndices, k)]!;
        if (entry.offsetBytes !== lastOffset) {
          const from = entry.offsetBytes - startBytes;
          const line = decoder.decode(bytes.subarray(from, from + entry.lengthBytes)).toLowerCase();
          lastMatch = needles.some((n) => line.includes(n));
          lastOffset = entry.offsetBytes;
        }
        if (lastMatch) matches[entry.index] = 1;
      }
      bytesRead += endBytes - startBytes;
      onProgress?.({ bytesRead: Math.min(bytesRead, totalBytes), totalBytes });
      i = j;
      await yieldToEventLoop();
    }
  }
  signal?.throwIfAborted();
  onProgress?.({ bytesRead: totalBytes, totalBytes });
  return matches;
}
