import type { Table } from 'dexie';
import { sharedDatabase } from '../common/lazy-dexie';
import { hasIndexedDb } from '../common/storage';

// Custom strategies kept in the browser (IndexedDB, as summary runs are), by file name; in memory
// when the browser keeps nothing for the page (common/storage.ts). Only the source is kept: it
// runs again only when the person presses Run.

interface SavedStrategy {
  /** The file name (`my-strategy.ts`): what exports and the table name it by. */
  name: string;
  source: string;
  updatedAt: number;
}

const openStrategiesDb = sharedDatabase<{ strategies: Table<SavedStrategy, string> }>(
  'compactlab-strategies',
  {
    strategies: 'name, updatedAt',
  },
);
const memory = new Map<string, SavedStrategy>();

/** The database, opened on first use; undefined where the browser keeps nothing (then `memory`). */
async function getDb() {
  return hasIndexedDb() ? openStrategiesDb() : undefined;
}

export async function saveStrategy(name: string, source: string): Promise<void> {
  const row = { name, source, updatedAt: Date.now() };
  const store = await getDb();
  if (store) await store.strategies.put(row);
  else memory.set(name, row);
}

/** Newest first. */
export async function listStrategies(): Promise<SavedStrategy[]> {
  const store = await getDb();
  const rows = store ? await store.strategies.toArray() : [...memory.values()];
  return rows.sort((a, b) => b.updatedAt - a.updatedAt);
}
