/**
 * The store the default handlers use. By default a table per resource (see
 * ../generated/store.ts, ../generated/tables.ts and migrations/), in the
 * database DATABASE_URL names (./database.ts). STORE=memory keeps the items
 * in this process's memory instead, lost when it stops: for mocks and tests.
 * specforge created this file once; it is yours.
 */
import { createMemoryStore, createStore, type Store } from '../generated/store.js';
import { databaseSettingsFromEnv, openDatabase, type Database } from './database.js';
import { assertMigrated } from './migrate.js';

const STORE = process.env.STORE ?? '';

let opened: Promise<Database> | undefined;

/** The database, opened on first use. */
export function database(): Promise<Database> {
  opened ??=
    STORE === '' || STORE === 'sql'
      ? openDatabase(databaseSettingsFromEnv())
      : Promise.reject(new Error(`STORE=${STORE} is neither sql nor memory.`));
  return opened;
}

/** Closes the database, for a graceful shutdown. */
export async function closeDatabase(): Promise<void> {
  const db = opened;
  opened = undefined;
  if (db) await (await db).destroy();
}

export const store: Store = STORE === 'memory' ? createMemoryStore() : createStore(database);

/** Ready to serve: the database opened and migrated (the memory store always is). */
export async function storeReady(): Promise<void> {
  if (STORE !== 'memory') await assertMigrated(await database());
}
