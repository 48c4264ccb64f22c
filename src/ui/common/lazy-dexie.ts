import type { Dexie, Table } from 'dexie';

// The page's IndexedDB databases (summary runs, recent files, the library's rows and folders,
// custom strategies), each opened on first use with Dexie loaded by `import()` then: Dexie was
// ~27 kB of the page's startup JavaScript (gzipped), which no first render needs (issue 20,
// "Startup"; tests/structure/ui-startup.test.ts keeps it out).

let dexie: Promise<typeof import('dexie')> | undefined;

/** A database of these tables (Dexie's `stores` schema, version 1). */
export type Database<Tables> = Dexie & { [K in keyof Tables]: Tables[K] };

/** Opens a database of these tables, loading Dexie the first time one is opened. */
export async function openDatabase<Tables extends Record<string, Table>>(
  name: string,
  stores: { [K in keyof Tables]: string },
): Promise<Database<Tables>> {
  dexie ??= import('dexie');
  const { Dexie } = await dexie;
  const db = new Dexie(name);
  db.version(1).stores(stores);
  return db as Database<Tables>;
}

/** `openDatabase` once: every caller shares the database the first call opened. */
export function sharedDatabase<Tables extends Record<string, Table>>(
  name: string,
  stores: { [K in keyof Tables]: string },
): () => Promise<Database<Tables>> {
  let db: Promise<Database<Tables>> | undefined;
  return () => {
    // A failed load (the chunk could not be fetched) is tried again by the next caller.
    db ??= openDatabase<Tables>(name, stores).catch((error: unknown) => {
      db = undefined;
      throw error;
    });
    return db;
  };
}
