import { queryOptions } from '@tanstack/react-query';
import { queryClient } from '../query-client';
import type { LibrarySession, ScanProgress } from './library-store';
import { nameListedRow } from './session-names';

// The opened folders' listing is an async result: the rows come from the cache and from the scan
// pool as they are read (open-folder.ts), and live mode grows the live session's row
// (live.ts). They live in the query cache, put there by those writers; the view only reads them.
// One object per update (a batch of rows), never shared structurally: a folder has 10,000 rows.

/** A folder listed in the library (several may be: ~/.claude/projects and ~/.codex/sessions). */
export interface LibraryRoot {
  /**
   * What its sessions' paths start with: the folder's name, or "name (2)" for a second folder of
   * that name (two machines' `projects`), so every session's key is unique across roots.
   */
  id: string;
  /** The folder's own name. */
  name: string;
  /** True when its files are at hand (not only its cached listing after a reload). */
  filesOpen: boolean;
  /** Its File System Access handle, where the browser gave one: reopened and compared through it. */
  handle?: FileSystemDirectoryHandle;
  /** When it was first listed (ms since the epoch): roots keep that order, across reloads too. */
  listedAtMs: number;
  /** Its scan's progress while it runs. */
  scan?: ScanProgress;
}

interface LibraryListing {
  /** In the order they were opened. */
  roots: LibraryRoot[];
  /** Every root's sessions (each says its `root`). */
  sessions: LibrarySession[];
}

const LISTING_KEY = ['library', 'listing'] as const;

// Kept while nothing observes it (the session view): the writers may put it there first.
queryClient.setQueryDefaults(LISTING_KEY, { gcTime: Number.POSITIVE_INFINITY, structuralSharing: false });

/** The listing as the writers left it; undefined until a folder is listed. */
export function libraryListingQuery() {
  return queryOptions<LibraryListing | null>({
    queryKey: LISTING_KEY,
    // Nothing to fetch: a folder's opening puts the listing here (null: none yet).
    queryFn: () => queryClient.getQueryData<LibraryListing | null>(LISTING_KEY) ?? null,
    initialData: null,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
    structuralSharing: false,
  });
}

export function getListing(): LibraryListing | undefined {
  return queryClient.getQueryData<LibraryListing | null>(LISTING_KEY) ?? undefined;
}

export function setListing(listing: LibraryListing): void {
  queryClient.setQueryData(LISTING_KEY, listing);
}

/**
 * Updates several sessions at once (the scan delivers rows in batches; live mode its session's).
 * A new row takes the name its root's names file gives it (session-names.ts): one live mode
 * replaced lost it.
 */
export function setListingRows(updates: ReadonlyMap<string, Partial<LibrarySession>>): void {
  const listing = getListing();
  if (!listing) return;
  const apply = (x: LibrarySession, u: Partial<LibrarySession>): LibrarySession =>
    u.row ? { ...x, ...u, row: nameListedRow(x.root, x.key, u.row) } : { ...x, ...u };
  setListing({
    ...listing,
    sessions: listing.sessions.map((x) => (updates.has(x.key) ? apply(x, updates.get(x.key)!) : x)),
  });
}

/** One root's scan progress (undefined: done or cancelled). */
export function setListingScan(rootId: string, scan: ScanProgress | undefined): void {
  const listing = getListing();
  if (listing)
    setListing({ ...listing, roots: listing.roots.map((r) => (r.id === rootId ? { ...r, scan } : r)) });
}

/** The roots' scans added up (undefined when none runs). */
export function getTotalScan(roots: readonly LibraryRoot[]): ScanProgress | undefined {
  const running = roots.filter((r) => r.scan);
  if (running.length === 0) return undefined;
  const total: ScanProgress = { bytesRead: 0, totalBytes: 0, sessionsDone: 0, sessionsTotal: 0 };
  for (const { scan } of running) {
    total.bytesRead += scan!.bytesRead;
    total.totalBytes += scan!.totalBytes;
    total.sessionsDone += scan!.sessionsDone;
    total.sessionsTotal += scan!.sessionsTotal;
  }
  return total;
}

/** Forgets the listing (the last root removed). */
export function clearListing(): void {
  queryClient.setQueryData(LISTING_KEY, null);
}
