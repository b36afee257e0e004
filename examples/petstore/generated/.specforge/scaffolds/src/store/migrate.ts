/**
 * Migrations: the numbered SQL files of `migrations/` (`0001_initial.sql`…),
 * which `specforge generate` writes as the spec's storage model changes and
 * you may edit before they run. Each runs once, in order, recorded in
 * `specforge_migrations`. specforge created this file once; it is yours.
 */
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';

/** The project's `migrations/` folder: two levels above this module, in `src/store/` and `dist/store/` alike. */
export const MIGRATIONS_DIR = fileURLToPath(new URL('../../migrations/', import.meta.url));

/** Held for the whole run: instances that start at once migrate one after another, not together. */
const MIGRATION_LOCK = 7_363_551_728;

const MIGRATION_FILE = /^\d{4,}_[\w-]+\.sql$/;

/** The migration files, in the order they run. */
export async function migrationFiles(folder = MIGRATIONS_DIR): Promise<string[]> {
  const names = await readdir(folder).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  return names.filter((name) => MIGRATION_FILE.test(name)).sort();
}

type AnyDatabase = Kysely<Record<string, Record<string, unknown>>>;

async function appliedMigrations(db: AnyDatabase): Promise<Set<string>> {
  const exists = await sql<{
    found: string | null;
  }>`select to_regclass('specforge_migrations') as found`.execute(db);
  if (!exists.rows[0]?.found) return new Set();
  const rows = await sql<{ name: string }>`select name from specforge_migrations`.execute(db);
  return new Set(rows.rows.map((row) => row.name));
}

/** The migrations the database has not run yet. */
export async function pendingMigrations(
  db: AnyDatabase,
  folder = MIGRATIONS_DIR,
): Promise<string[]> {
  const applied = await appliedMigrations(db);
  return (await migrationFiles(folder)).filter((name) => !applied.has(name));
}

/**
 * Runs the pending migrations in one transaction, under an advisory lock: all
 * of them or none, and one instance at a time. Answers the names it ran.
 */
export async function migrate(db: AnyDatabase, folder = MIGRATIONS_DIR): Promise<string[]> {
  return db.transaction().execute(async (transaction) => {
    await sql`select pg_advisory_xact_lock(${MIGRATION_LOCK})`.execute(transaction);
    await sql`create table if not exists specforge_migrations (name text primary key, applied_at timestamptz not null default now())`.execute(
      transaction,
    );
    const pending = await pendingMigrations(transaction, folder);
    for (const name of pending) {
      const text = await readFile(join(folder, name), 'utf8');
      await sql
        .raw(text)
        .execute(transaction)
        .catch((error: unknown) => {
          throw lockTableFull(error) ? tooManyRelations(name, text) : error;
        });
      await sql`insert into specforge_migrations (name) values (${name})`.execute(transaction);
    }
    return pending;
  });
}

/** PostgreSQL's `out of shared memory`: its lock table cannot hold what one transaction locked. */
function lockTableFull(error: unknown): boolean {
  return (error as { code?: unknown }).code === '53200';
}

/**
 * Each table and index a transaction creates holds a lock until it commits;
 * the lock table holds max_locks_per_transaction × max_connections of them
 * (6,400 by default). A large API's first migration can need more.
 */
function tooManyRelations(name: string, text: string): Error {
  const created = text.match(/^\s*create\s+(unique\s+)?(table|index)\b/gim)?.length ?? 0;
  return new Error(
    `${name} creates ${created.toLocaleString('en')} tables and indexes in one transaction, more than PostgreSQL's lock table holds: raise max_locks_per_transaction (to ${Math.ceil((created * 2) / 100).toLocaleString('en')} or more with max_connections at 100) and restart PostgreSQL, or split the file. Nothing was applied.`,
  );
}

/** Refuses a database behind its migrations, naming the command that brings it up to date. */
export async function assertMigrated(db: AnyDatabase, folder = MIGRATIONS_DIR): Promise<void> {
  const pending = await pendingMigrations(db, folder);
  if (pending.length > 0)
    throw new Error(
      `the database is behind its migrations (${pending.join(', ')} not applied): run \`npm run migrate\` first.`,
    );
}
