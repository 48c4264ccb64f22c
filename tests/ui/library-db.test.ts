import Dexie from 'dexie';
import { IDBKeyRange, indexedDB } from 'fake-indexeddb';
import { beforeAll, describe, expect, it } from 'vitest';

// What the page keeps of the library's folders (library-db.ts): every root's listing under its id,
// in the order first listed; the one folder an older version kept (`last`) read as a root of its
// name and replaced by the first save.

const listing = (key: string) => [
  { key, stamp: `${key}|1|1`, files: [{ path: key, sizeBytes: 1, modifiedMs: 1 }] },
];

describe('library roots in IndexedDB', () => {
  beforeAll(() => {
    Dexie.dependencies.indexedDB = indexedDB;
    Dexie.dependencies.IDBKeyRange = IDBKeyRange;
    (globalThis as { indexedDB?: unknown }).indexedDB = indexedDB;
  });

  it('keeps every root, reads the older single folder as one, and forgets a removed one', async () => {
    // The record an older version wrote.
    const old = new Dexie('compactlab-library');
    old.version(1).stores({ rows: 'stamp', folders: 'id' });
    await old
      .table('folders')
      .put({ id: 'last', name: 'projects', openedAtMs: 5, sessions: listing('projects/a.jsonl') });
    old.close();

    const { deleteRoot, getSavedRoots, saveRoot } = await import('../../src/ui/library/library-db');
    expect(await getSavedRoots()).toEqual([
      { root: 'projects', name: 'projects', openedAtMs: 5, sessions: listing('projects/a.jsonl') },
    ]);
    // Made a root: a save of another root does not lose it.
    expect(await getSavedRoots()).toHaveLength(1);
    // Saving the same root (reopened) replaces its record; another root is kept beside it.
    await saveRoot({
      root: 'sessions',
      name: 'sessions',
      openedAtMs: 9,
      sessions: listing('sessions/r.jsonl'),
    });
    await saveRoot({
      root: 'projects',
      name: 'projects',
      openedAtMs: 5,
      sessions: listing('projects/b.jsonl'),
    });
    await saveRoot({
      root: 'projects (2)',
      name: 'projects',
      openedAtMs: 12,
      sessions: listing('projects (2)/c.jsonl'),
    });
    const roots = await getSavedRoots();
    expect(roots.map((r) => [r.root, r.sessions[0]!.key])).toEqual([
      ['projects', 'projects/b.jsonl'],
      ['sessions', 'sessions/r.jsonl'],
      ['projects (2)', 'projects (2)/c.jsonl'],
    ]);
    await deleteRoot('sessions');
    expect((await getSavedRoots()).map((r) => r.root)).toEqual(['projects', 'projects (2)']);
  });
});
