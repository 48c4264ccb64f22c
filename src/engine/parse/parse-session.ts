import type { Session } from '../types';
import type { ByteSource } from './source';

export interface ParseProgress {
  bytesRead: number;
  totalBytes: number;
  fileIndex: number;
}

export interface ParseOptions {
  signal?: AbortSignal;
  onProgress?: (progress: ParseProgress) => void;
  /** Bytes read per step (default 4 MiB). Tests use tiny chunks to catch boundary bugs. */
  chunkBytes?: number;
  /** Characters of each text block kept in memory (default 2,000); the rest is re-read on demand. */
  previewChars?: number;
}

/**
 * Parses one session: a main transcript plus any subagent / compaction-call files dropped with
 * it. Reads each source as a stream of chunks; never throws on bad input (issues are collected).
 * Rejects only when `signal` aborts.
 */
export async function parseSession(_sources: ByteSource[], _options: ParseOptions = {}): Promise<Session> {
  throw new Error('not implemented yet');
}

/** Re-reads an entry's raw line and returns it as text (for the raw-JSON view and summarizers). */
export async function readEntryText(_sources: ByteSource[], _session: Session, _entryIndex: number): Promise<string> {
  throw new Error('not implemented yet');
}
