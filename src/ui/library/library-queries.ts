import { queryOptions } from '@tanstack/react-query';
import { queryClient } from '../query-client';
import type { LibrarySession, ScanProgress } from './library-store';

// The opened folder's listing is an async result: the rows come from the cache and from the scan
// pool as they are read (open-folder.ts), and live mode grows the live session's row
// (live.ts). They live in the query cache, put there by those writers; the view only reads them.
// One object per update (a batch of rows), never shared structurally: a folder has 10,000 rows.

interface LibraryListing {
  folderName: string;
  /** True when the files are at hand (not only the cached listing after a reload). */
  filesOpen: boolean;
  sessions: LibrarySession[];
  /** The scan's progress while it runs. */
  scan?: ScanProgress;
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

/** Updates several sessions at once (the scan delivers rows in batches). */
export function setListingRows(updates: ReadonlyMap<string, Partial<LibrarySession>>): void {
  const listing = getListing();
  if (!listing) return;
  setListing({
    ...listing,
    sessions: listing.sessions.map((x) => (updates.has(x.key) ? { ...x, ...updates.get(x.key) } : x)),
  });
}

export function setListingScan(scan: ScanProgress | undefined): void {
  const listing = getListing();
  if (listing) setListing({ ...listing, scan });
}
