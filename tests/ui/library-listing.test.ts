import { describe, expect, it } from 'vitest';
import {
  getListing,
  libraryListingQuery,
  setListing,
  setListingRows,
  setListingScan,
} from '../../src/ui/library/library-queries';
import { queryClient } from '../../src/ui/query-client';

// The library's listing is a query the scan writes (not zustand state): a batch of rows replaces
// only the sessions it scanned, and the listing stays while nothing observes it.

describe('the library listing', () => {
  it('is null until a folder is listed, then each batch updates its own sessions', async () => {
    expect(await queryClient.fetchQuery(libraryListingQuery())).toBeNull();
    setListing({
      folderName: 'projects',
      filesOpen: true,
      sessions: [
        { key: 'a', sizeBytes: 10, fileCount: 1 },
        { key: 'b', sizeBytes: 20, fileCount: 1 },
      ],
      scan: { bytesRead: 0, totalBytes: 30, sessionsDone: 0, sessionsTotal: 2 },
    });
    const before = getListing()!;
    setListingRows(new Map([['b', { error: 'unreadable' }]]));
    const after = getListing()!;
    expect(after).not.toBe(before);
    expect(after.sessions[0]).toBe(before.sessions[0]);
    expect(after.sessions[1]).toEqual({ key: 'b', sizeBytes: 20, fileCount: 1, error: 'unreadable' });
    setListingScan(undefined);
    expect(getListing()?.scan).toBeUndefined();
    expect(queryClient.getQueryCache().find({ queryKey: libraryListingQuery().queryKey })?.gcTime).toBe(
      Number.POSITIVE_INFINITY,
    );
  });
});
