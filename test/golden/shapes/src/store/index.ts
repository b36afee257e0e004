/**
 * The store the default handlers use: a table per resource (see
 * ../generated/store.ts, ../generated/tables.ts and migrations/), in the
 * database DATABASE_URL names (./database.ts). specforge created this file
 * once; it is yours.
 */
import { createStore } from '../generated/store.js';
import { databaseSettingsFromEnv, openDatabase, type Database } from './database.js';

let opened: Promise<Database> | undefined;

/** The database, opened on first use. */
export function database(): Promise<Database> {
  opened ??= openDatabase(databaseSettingsFromEnv());
  return opened;
}

/** Closes the database, for a graceful shutdown. */
export async function closeDatabase(): Promise<void> {
  const db = opened;
  opened = undefined;
  if (db) await (await db).destroy();
}

export const store = createStore(database);
