import type { LibraryRow } from '../engine/library/library-row';
import type { PriceOverrides } from '../engine/cost/prices';

// The contract between the page's scan pool (`scan-pool.ts`) and each scan worker
// (`scan.worker.ts`): one session at a time, plain data. Separate from the engine protocol: a scan
// worker holds no session, and a cancel ends it rather than asking it to stop.

export interface ScanFile {
  /** Path within the opened folder: the parser tells subagent files by it. */
  name: string;
  blob: Blob;
}

export type ScanRequest =
  | { kind: 'scan'; jobId: number; files: ScanFile[]; prices?: PriceOverrides }
  /** Liveness (scan-pool.ts): answered with `pong` as soon as the worker's thread is free. */
  | { kind: 'ping' };

export type ScanReply =
  | { kind: 'row'; jobId: number; row: LibraryRow }
  | { kind: 'failed'; jobId: number; message: string }
  /** Bytes of this job read so far. */
  | { kind: 'progress'; jobId: number; bytesRead: number }
  | { kind: 'pong' };
