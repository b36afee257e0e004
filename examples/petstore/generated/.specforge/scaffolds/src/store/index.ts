/**
 * The store the default handlers use: a table per resource (see
 * ../generated/tables.ts and migrations/), in the database DATABASE_URL
 * names (./database.ts). specforge created this file once; it is yours.
 */
import { TABLES } from '../generated/tables.js';
import { databaseSettingsFromEnv, openDatabase, type Database } from './database.js';
import { SqlCollection } from './sql.js';
import type * as PetsTypes from '../generated/resources/pets.js';

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

const pets = new SqlCollection<PetsTypes.Pet>(database, {
  table: TABLES.pets,
  type: 'pets',
  shape: 'flat',
  idParam: 'pet_id',
  ids: 'integer',
  createdField: 'created_at',
  sortOrders: { status: ['available', 'pending', 'sold'] },
});

export const store = {
  pets,
};
