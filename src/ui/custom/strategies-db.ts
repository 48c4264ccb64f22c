import Dexie, { type Table } from 'dexie';
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

class StrategiesDatabase extends Dexie {
  strategies!: Table<SavedStrategy, string>;
  constructor() {
    super('compactlab-strategies');
    this.version(1).stores({ strategies: 'name, updatedAt' });
  }
}

let db: StrategiesDatabase | undefined;
const memory = new Map<string, SavedStrategy>();

function getDb(): StrategiesDatabase | undefined {
  if (!hasIndexedDb()) return undefined;
  db ??= new StrategiesDatabase();
  return db;
}

export async function saveStrategy(name: string, source: string): Promise<void> {
  const row = { name, source, updatedAt: Date.now() };
  const store = getDb();
  if (store) await store.strategies.put(row);
  else memory.set(name, row);
}

/** Newest first. */
export async function listStrategies(): Promise<SavedStrategy[]> {
  const store = getDb();
  const rows = store ? await store.strategies.toArray() : [...memory.values()];
  return rows.sort((a, b) => b.updatedAt - a.updatedAt);
}
