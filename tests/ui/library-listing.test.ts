import { describe, expect, it } from 'vitest';
import {
  clearListing,
  getListing,
  getTotalScan,
  libraryListingQuery,
  setListing,
  setListingRows,
  setListingScan,
} from '../../src/ui/library/library-queries';
import { getFreeRootId, placeRoot, toRootPath } from '../../src/ui/library/root-identity';
import { queryClient } from '../../src/ui/query-client';

// The library's listing is a query the scan writes (not zustand state): a batch of rows replaces
// only the sessions it scanned, and the listing stays while nothing observes it. Several folders
// (roots) are listed at once, each with its own scan; a folder opened again is the same root.

describe('the library listing', () => {
  it('is null until a folder is listed, then each batch updates its own sessions', async () => {
    expect(await queryClient.fetchQuery(libraryListingQuery())).toBeNull();
    setListing({
      roots: [
        {
          id: 'projects',
          name: 'projects',
          filesOpen: true,
          listedAtMs: 1,
          scan: { bytesRead: 5, totalBytes: 30, sessionsDone: 0, sessionsTotal: 2 },
        },
        {
          id: 'sessions',
          name: 'sessions',
          filesOpen: true,
          listedAtMs: 1,
          scan: { bytesRead: 1, totalBytes: 4, sessionsDone: 1, sessionsTotal: 3 },
        },
      ],
      sessions: [
        { key: 'projects/a', root: 'projects', sizeBytes: 10, fileCount: 1 },
        { key: 'projects/b', root: 'projects', sizeBytes: 20, fileCount: 1 },
        { key: 'sessions/c', root: 'sessions', sizeBytes: 4, fileCount: 1 },
      ],
    });
    expect(getTotalScan(getListing()!.roots)).toEqual({
      bytesRead: 6,
      totalBytes: 34,
      sessionsDone: 1,
      sessionsTotal: 5,
    });
    const before = getListing()!;
    setListingRows(new Map([['projects/b', { error: 'unreadable' }]]));
    const after = getListing()!;
    expect(after).not.toBe(before);
    expect(after.sessions[0]).toBe(before.sessions[0]);
    expect(after.sessions[1]).toEqual({
      key: 'projects/b',
      root: 'projects',
      sizeBytes: 20,
      fileCount: 1,
      error: 'unreadable',
    });
    setListingScan('projects', undefined);
    expect(getListing()?.roots[0]?.scan).toBeUndefined();
    expect(getTotalScan(getListing()!.roots)).toEqual({
      bytesRead: 1,
      totalBytes: 4,
      sessionsDone: 1,
      sessionsTotal: 3,
    });
    setListingScan('sessions', undefined);
    expect(getTotalScan(getListing()!.roots)).toBeUndefined();
    expect(queryClient.getQueryCache().find({ queryKey: libraryListingQuery().queryKey })?.gcTime).toBe(
      Number.POSITIVE_INFINITY,
    );
    clearListing();
    expect(getListing()).toBeUndefined();
  });
});

describe('library roots', () => {
  const projects = { id: 'projects', name: 'projects', filesOpen: true, listedAtMs: 1 };
  const keys = new Map([['projects', ['projects/-home-ada/1.jsonl', 'projects/-home-ada/2.jsonl']]]);
  const keysOf = (r: { id: string }) => keys.get(r.id) ?? [];

  it('gives a second folder of a name an id of its own, and its paths that id', () => {
    expect(getFreeRootId('projects', [])).toBe('projects');
    expect(getFreeRootId('projects', [projects])).toBe('projects (2)');
    expect(getFreeRootId('projects', [projects, { ...projects, id: 'projects (2)' }])).toBe('projects (3)');
    expect(toRootPath('projects/-home-ada/1.jsonl', 'projects', 'projects')).toBe(
      'projects/-home-ada/1.jsonl',
    );
    expect(toRootPath('projects/-home-ada/1.jsonl', 'projects', 'projects (2)')).toBe(
      'projects (2)/-home-ada/1.jsonl',
    );
    expect(toRootPath('opencode.db', 'opencode.db', 'opencode.db (2)')).toBe('opencode.db (2)/opencode.db');
  });

  it('takes a folder of the same name listing one of the same sessions as the same folder (inputs have no identity)', async () => {
    expect(
      await placeRoot(
        'projects',
        undefined,
        ['projects/-home-ada/2.jsonl', 'projects/-home-ada/3.jsonl'],
        [projects],
        keysOf,
      ),
    ).toEqual({ kind: 'same', id: 'projects' });
    expect(
      await placeRoot('projects', undefined, ['projects/-home-bob/9.jsonl'], [projects], keysOf),
    ).toEqual({ kind: 'new', id: 'projects (2)', replaces: [] });
    expect(await placeRoot('sessions', undefined, ['sessions/2026/r.jsonl'], [projects], keysOf)).toEqual({
      kind: 'new',
      id: 'sessions',
      replaces: [],
    });
  });

  it('asks the handles whether a folder is a listed one, inside one, or around some', async () => {
    // Handles as the File System Access API answers: by path here.
    const handle = (path: string) =>
      ({
        name: path.split('/').pop(),
        isSameEntry: async (o: { path: string }) => o.path === path,
        resolve: async (o: { path: string }) =>
          o.path.startsWith(`${path}/`) ? o.path.slice(path.length + 1).split('/') : null,
        path,
      }) as unknown as FileSystemDirectoryHandle;
    const roots = [
      {
        id: 'projects',
        name: 'projects',
        filesOpen: true,
        listedAtMs: 1,
        handle: handle('/home/ada/.claude/projects'),
      },
      {
        id: 'sessions',
        name: 'sessions',
        filesOpen: true,
        listedAtMs: 1,
        handle: handle('/home/ada/.codex/sessions'),
      },
    ];
    expect(await placeRoot('projects', handle('/home/ada/.claude/projects'), [], roots, keysOf)).toEqual({
      kind: 'same',
      id: 'projects',
    });
    expect(
      await placeRoot('-home-ada', handle('/home/ada/.claude/projects/-home-ada'), [], roots, keysOf),
    ).toEqual({ kind: 'inside', id: 'projects' });
    expect(await placeRoot('.codex', handle('/home/ada/.codex'), [], roots, keysOf)).toEqual({
      kind: 'new',
      id: '.codex',
      replaces: ['sessions'],
    });
    expect(
      await placeRoot('projects', handle('/mnt/old/projects'), ['projects/x.jsonl'], roots, keysOf),
    ).toEqual({ kind: 'new', id: 'projects (2)', replaces: [] });
  });
});
