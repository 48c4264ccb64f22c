// A SQLite database with its write-ahead log, as one database file: OpenCode keeps `opencode.db`
// in WAL mode, and its newest messages sit in `opencode.db-wal` until a checkpoint copies them
// into the main file (one real database: 86 messages in the main file, 91 with its WAL). SQLite
// compiled to WebAssembly (sql.js) opens a single file, so the log's committed pages are copied
// in first, as a checkpoint would. The format is SQLite's own (sqlite.org/fileformat2.html §4,
// "The Write-Ahead Log"; src/wal.c `walChecksumBytes`, `walIndexRecover`):
// - a 32-byte header, big-endian: magic 0x377f0682 | 0x377f0683 (its low bit: the checksums read
//   the words big-endian), format version, page size, checkpoint sequence, salt-1, salt-2, and a
//   checksum of the first 24 bytes;
// - frames: a 24-byte header (page number; for a commit frame the database's size in pages after
//   it, else 0; salt-1; salt-2; a checksum over the first 8 bytes of this header and the page,
//   continued from the previous frame's, or the header's) followed by the page.
// A frame is valid while its salts are the header's and its checksum holds; the pages of valid
// frames up to the last valid commit frame are the database (a later frame of a page wins).

const MAGIC = 0x377f0682;
const WAL_HEADER_BYTES = 32;
const FRAME_HEADER_BYTES = 24;

interface WalMerge {
  /** The database with the log's committed pages in it, in rollback-journal mode. */
  bytes: Uint8Array;
  /** Frames copied (those of committed transactions). */
  framesApplied: number;
  /** Frames after the last commit, or past a bad checksum: written by no finished transaction. */
  framesIgnored: number;
  /** Why the log was not used, when it was not (an empty, foreign or damaged header). */
  skipped?: string;
}

/** `walChecksumBytes`: s1 += x[i] + s2; s2 += x[i+1] + s1 over 32-bit words, from (s1, s2). */
function checksum(
  view: DataView,
  offset: number,
  length: number,
  bigEndian: boolean,
  s: [number, number],
): [number, number] {
  let [s1, s2] = s;
  for (let i = offset; i < offset + length; i += 8) {
    s1 = (s1 + view.getUint32(i, !bigEndian) + s2) >>> 0;
    s2 = (s2 + view.getUint32(i + 4, !bigEndian) + s1) >>> 0;
  }
  return [s1, s2];
}

/** `db` with the committed frames of `wal` written into it (a checkpoint, in memory). */
export function mergeWal(db: Uint8Array, wal: Uint8Array): WalMerge {
  const none = (skipped: string): WalMerge => ({ bytes: db, framesApplied: 0, framesIgnored: 0, skipped });
  if (wal.length < WAL_HEADER_BYTES) return none('the log is empty');
  const view = new DataView(wal.buffer, wal.byteOffset, wal.byteLength);
  const magic = view.getUint32(0);
  if ((magic & 0xfffffffe) !== MAGIC) return none('the log does not start with the WAL magic number');
  const bigEndian = (magic & 1) === 1;
  const pageBytes = view.getUint32(8);
  if (pageBytes < 512 || pageBytes > 65536 || (pageBytes & (pageBytes - 1)) !== 0)
    return none(`the log's page size ${pageBytes} is not a power of two from 512 to 65,536`);
  let sum = checksum(view, 0, 24, bigEndian, [0, 0]);
  if (sum[0] !== view.getUint32(24) || sum[1] !== view.getUint32(28))
    return none("the log's header checksum does not hold");
  const salt1 = view.getUint32(16);
  const salt2 = view.getUint32(20);

  const frameBytes = FRAME_HEADER_BYTES + pageBytes;
  const frames = Math.floor((wal.length - WAL_HEADER_BYTES) / frameBytes);
  /** Page number → offset of its newest committed frame's page. */
  const committed = new Map<number, number>();
  const pending = new Map<number, number>();
  let dbPages = 0;
  let applied = 0;
  let valid = 0;
  for (let f = 0; f < frames; f++) {
    const at = WAL_HEADER_BYTES + f * frameBytes;
    if (view.getUint32(at + 8) !== salt1 || view.getUint32(at + 12) !== salt2) break;
    sum = checksum(view, at, 8, bigEndian, sum);
    sum = checksum(view, at + FRAME_HEADER_BYTES, pageBytes, bigEndian, sum);
    if (sum[0] !== view.getUint32(at + 16) || sum[1] !== view.getUint32(at + 20)) break;
    valid++;
    pending.set(view.getUint32(at), at + FRAME_HEADER_BYTES);
    const commitPages = view.getUint32(at + 4);
    if (commitPages !== 0) {
      for (const [page, offset] of pending) committed.set(page, offset);
      pending.clear();
      dbPages = commitPages;
      applied = valid;
    }
  }
  if (applied === 0) return { bytes: db, framesApplied: 0, framesIgnored: frames };

  const out = new Uint8Array(dbPages * pageBytes);
  out.set(db.subarray(0, Math.min(db.length, out.length)));
  for (const [page, offset] of committed)
    if (page >= 1 && page <= dbPages)
      out.set(wal.subarray(offset, offset + pageBytes), (page - 1) * pageBytes);
  // The header (sqlite.org/fileformat2.html §1.3): read and write versions 1 (rollback journal:
  // no log to look for), the size in pages, valid for this change counter.
  const header = new DataView(out.buffer);
  out[18] = 1;
  out[19] = 1;
  header.setUint32(28, dbPages);
  header.setUint32(92, header.getUint32(24));
  return { bytes: out, framesApplied: applied, framesIgnored: frames - applied };
}
