// Reads a transcript that grows while it is read (a live session): each call reads only the bytes
// appended since the last one and hands back the complete lines among them. A partial last line
// is not consumed: the next call reads it again once its newline has been written. A file that
// shrank, or whose first bytes changed (replaced, rewritten), is read again from the start.
// The state is plain numbers, so a caller can keep it between processes (the status line does);
// it never holds transcript text: the first bytes are kept as a hash.

/** A file that may grow, shrink or be replaced between reads. */
export interface GrowingSource {
  getSizeBytes(): Promise<number>;
  read(offsetBytes: number, lengthBytes: number): Promise<Uint8Array>;
}

export interface IncrementalReaderState {
  /** Bytes consumed: everything before this offset ended in a newline and was handed out. */
  offsetBytes: number;
  /** 1-based number of the next line. */
  nextLine: number;
  /** How many first bytes `headHash` covers (at most HEAD_BYTES). */
  headBytes: number;
  /** FNV-1a 32-bit hash of the first `headBytes` bytes. */
  headHash: number;
}

/** Bytes hashed to notice a replaced file; a transcript's first record is longer than this. */
export const HEAD_BYTES = 256;
/** Bytes read per request: bounds memory on a first read of a large file. */
export const READ_CHUNK_BYTES = 4 * 1024 * 1024;
const NEWLINE = 0x0a;

export const INITIAL_READER_STATE: IncrementalReaderState = {
  offsetBytes: 0,
  nextLine: 1,
  headBytes: 0,
  headHash: 0,
};

/** FNV-1a, 32 bits: cheap, and enough to tell a replaced file from the same one. */
export function hashBytes(bytes: Uint8Array): number {
  let h = 0x811c9dc5;
  for (const b of bytes) h = Math.imul(h ^ b, 0x01000193) >>> 0;
  return h;
}

/** Why a file was read again from its start. */
export type RestartReason = 'shrank' | 'replaced';

interface ReadAppendedResult {
  state: IncrementalReaderState;
  /** The file was read again from the start: figures built from earlier lines are stale. */
  restarted: boolean;
  /** Why (undefined when it was not): `watch` says it, as the page's live bar does. */
  restartReason?: RestartReason;
  /** Bytes left for the next call: an unfinished last line, or what a stop left unread. */
  pendingBytes: number;
}

/**
 * Reads the complete lines appended since `state` and passes each to `onLine` (without its
 * newline, with its 1-based number). `onRestart` runs before any line when the file shrank or its
 * first bytes changed.
 */
export async function readAppendedLines(
  source: GrowingSource,
  state: IncrementalReaderState,
  onLine: (text: string, line: number) => void,
  onRestart: (why: RestartReason) => void = () => {},
  /** Asked after each chunk: true stops there, the state at its last complete line (a time budget). */
  shouldStop: () => boolean = () => false,
): Promise<ReadAppendedResult> {
  const sizeBytes = await source.getSizeBytes();
  let next = { ...state };
  let restartReason: RestartReason | undefined;
  if (sizeBytes < state.offsetBytes || sizeBytes < state.headBytes) restartReason = 'shrank';
  else if (state.headBytes > 0) {
    const head = await source.read(0, state.headBytes);
    if (hashBytes(head) !== state.headHash) restartReason = 'replaced';
  }
  const restarted = restartReason !== undefined;
  if (restartReason) {
    next = { ...INITIAL_READER_STATE };
    onRestart(restartReason);
  }
  if (next.headBytes < HEAD_BYTES && sizeBytes > next.headBytes) {
    const head = await source.read(0, Math.min(HEAD_BYTES, sizeBytes));
    next.headBytes = head.byteLength;
    next.headHash = hashBytes(head);
  }
  const decoder = new TextDecoder('utf-8');
  // Bytes of a line that started in an earlier chunk of this call.
  let carry: Uint8Array = new Uint8Array(0);
  let offset = next.offsetBytes;
  while (offset < sizeBytes) {
    const chunk = await source.read(offset, Math.min(READ_CHUNK_BYTES, sizeBytes - offset));
    if (chunk.byteLength === 0) break;
    offset += chunk.byteLength;
    const lastNewline = chunk.lastIndexOf(NEWLINE);
    if (lastNewline < 0) {
      carry = concat(carry, chunk);
      continue;
    }
    const complete = concat(carry, chunk.subarray(0, lastNewline + 1));
    carry = chunk.slice(lastNewline + 1);
    let start = 0;
    for (let i = complete.indexOf(NEWLINE); i >= 0; i = complete.indexOf(NEWLINE, start)) {
      const end = i > start && complete[i - 1] === 0x0d ? i - 1 : i;
      onLine(decoder.decode(complete.subarray(start, end)), next.nextLine++);
      start = i + 1;
    }
    next.offsetBytes = offset - carry.byteLength;
    if (shouldStop()) break;
  }
  return {
    state: next,
    restarted,
    ...(restartReason && { restartReason }),
    pendingBytes: sizeBytes - next.offsetBytes,
  };
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.byteLength === 0) return b;
  const out = new Uint8Array(a.byteLength + b.byteLength);
  out.set(a, 0);
  out.set(b, a.byteLength);
  return out;
}
