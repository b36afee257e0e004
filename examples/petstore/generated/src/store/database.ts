/**
 * The database the store keeps its items in, through Kysely (a typed query
 * builder over plain SQL: the tables are typed in ../generated/tables.ts);
 * the store's own statements go to the `pg` pool straight (`executeCompiled`).
 *
 * - `DATABASE_URL=postgres://…`: PostgreSQL (or a PostgreSQL-compatible
 *   engine) through a `pg` pool of DATABASE_POOL_SIZE connections (default 10).
 * - no DATABASE_URL: PGlite, PostgreSQL compiled to WebAssembly, keeping its
 *   files in DATA_DIR (default `./data`): nothing to install, durable across restarts.
 * - `DATABASE_URL=memory:`: PGlite in memory, migrated on open: a throwaway
 *   database for tests.
 *
 * specforge created this file once; it is yours.
 */
import { readFile } from 'node:fs/promises';
import { Socket } from 'node:net';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import {
  CompiledQuery,
  Kysely,
  PostgresAdapter,
  PostgresDialect,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type QueryResult,
} from 'kysely';
import pg from 'pg';
import { migrate } from './migrate.js';

/** A database this store opens, its tables as the store sees them: any table, any column (../generated/tables.ts types each). */
export type Database = Kysely<Tables>;
type Tables = Record<string, Record<string, unknown>>;

export interface DatabaseSettings {
  /** `postgres://…`, `memory:`, or undefined for PGlite in `dataDir`. */
  url?: string | undefined;
  dataDir?: string | undefined;
  poolSize?: number;
}

export function databaseSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): DatabaseSettings {
  const poolSize = Number(env.DATABASE_POOL_SIZE ?? 10);
  if (!Number.isInteger(poolSize) || poolSize < 1)
    throw new Error(`DATABASE_POOL_SIZE=${env.DATABASE_POOL_SIZE} is not a positive integer.`);
  return { url: env.DATABASE_URL || undefined, dataDir: env.DATA_DIR || './data', poolSize };
}

/** Opens the database the settings name; a `memory:` one comes migrated. */
export async function openDatabase(settings: DatabaseSettings): Promise<Database> {
  const { url } = settings;
  if (url === 'memory:') {
    const db = new Kysely<Tables>({ dialect: pgliteDialect(await startPglite(undefined)) });
    await migrate(db);
    return db;
  }
  if (url === undefined)
    return new Kysely<Tables>({ dialect: pgliteDialect(await startPglite(settings.dataDir)) });
  if (!/^postgres(ql)?:\/\//.test(url))
    throw new Error('DATABASE_URL must be a postgres:// URL, or memory: for a throwaway database.');
  const pool = new pg.Pool({
    connectionString: url,
    // The socket class taken now, not required by pg on each new connection: a host that unloads
    // modules (jest, between the files of a suite that shares one service) still connects.
    stream: () => new Socket(),
    max: settings.poolSize ?? 10,
    types: { getTypeParser },
  });
  // An idle client's error (the server restarted) must not end the process: the pool replaces it.
  pool.on('error', (error) => console.error(`database connection lost: ${error.message}`));
  const database = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) });
  pools.set(database, pool);
  return database;
}

/** The pool of each database opened on PostgreSQL, for `executeCompiled`. */
const pools = new WeakMap<object, pg.Pool>();

/** Statements that say how many rows they changed, as Kysely's pg driver reports them. */
const CHANGING = new Set(['INSERT', 'UPDATE', 'DELETE', 'MERGE']);

/**
 * Runs a compiled statement. On a database opened on PostgreSQL it goes to
 * the pool straight: Kysely's way there (a query id, a connection provider,
 * plugins) cost a read by id a tenth of its time. A transaction, or PGlite,
 * goes through Kysely.
 */
export async function executeCompiled<Row>(
  database: Pick<Database, 'executeQuery'>,
  query: CompiledQuery,
): Promise<QueryResult<Row>> {
  const pool = pools.get(database);
  if (!pool) return database.executeQuery<Row>(query);
  const result = await pool.query(query.sql, query.parameters as unknown[]);
  return {
    rows: result.rows as Row[],
    ...(CHANGING.has(result.command) ? { numAffectedRows: BigInt(result.rowCount ?? 0) } : {}),
  };
}

/** int8 (counts, identities) as a number, as PGlite reads it: ids beyond 2^53 do not occur in JSON anyway. */
function getTypeParser(oid: number, format?: 'text' | 'binary') {
  if (oid === 20) return (value: string) => Number(value);
  if (oid === TIMESTAMPTZ && format !== 'binary') return isoTimestamp;
  return pg.types.getTypeParser(oid, format);
}

const TIMESTAMPTZ = 1184;
const UTC_TIMESTAMP = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)(?:\.(\d{1,6}))?\+00$/;

/**
 * A timestamptz as the API shows times, ISO 8601 in UTC with milliseconds
 * (`2026-11-24T23:21:17.528Z`), from PostgreSQL's text of it. A UTC one is
 * rewritten as text: through a Date and back, a page of 20 items spent a
 * tenth of its time on its 40 times. Another offset goes through a Date;
 * what no Date holds (`infinity`) stays as PostgreSQL wrote it.
 */
export function isoTimestamp(text: string): string {
  const utc = UTC_TIMESTAMP.exec(text);
  if (utc) return `${utc[1]}T${utc[2]}.${(utc[3] ?? '').padEnd(3, '0').slice(0, 3)}Z`;
  const date: unknown = pg.types.getTypeParser(TIMESTAMPTZ, 'text')(text);
  return date instanceof Date && Number.isFinite(date.getTime()) ? date.toISOString() : text;
}

/**
 * PGlite's WebAssembly compiled and its file system bundle read once per
 * process: each database of the process (a test file's own `memory:` one)
 * then starts without doing it again.
 */
let artifacts: Promise<PGliteOptions> | undefined;

async function readArtifacts(): Promise<PGliteOptions> {
  const dist = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
  const [pglite, initdb, bundle] = await Promise.all(
    ['pglite.wasm', 'initdb.wasm', 'pglite.data'].map((file) => readFile(join(dist, file))),
  );
  const [pgliteWasmModule, initdbWasmModule] = await Promise.all([
    compileWasm(pglite!),
    compileWasm(initdb!),
  ]);
  return { pgliteWasmModule, initdbWasmModule, fsBundle: new Blob([bundle!]) };
}

/** WebAssembly's compile, which Node has and its type declarations of this TypeScript lib may not. */
type WasmModule = NonNullable<PGliteOptions['pgliteWasmModule']>;
const compileWasm = (bytes: Uint8Array): Promise<WasmModule> =>
  (
    globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<WasmModule> } }
  ).WebAssembly.compile(bytes);

async function startPglite(dataDir: string | undefined): Promise<PGlite> {
  const shared = await (artifacts ??= readArtifacts());
  return PGlite.create({
    ...shared,
    ...(dataDir === undefined ? {} : { dataDir }),
    extensions: { pg_trgm },
    parsers: { [TIMESTAMPTZ]: isoTimestamp },
  });
}

/** Kysely over PGlite: one connection, so queries and transactions take turns. */
function pgliteDialect(database: PGlite): Dialect {
  return {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new PgliteDriver(database),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  };
}

class PgliteDriver implements Driver {
  private turn: Promise<void> = Promise.resolve();
  private readonly connection: DatabaseConnection;

  constructor(private readonly database: PGlite) {
    this.connection = {
      executeQuery: (query) => runQuery(database, query),
      streamQuery: () => {
        throw new Error('PGlite does not stream query results.');
      },
    };
  }

  async init(): Promise<void> {
    await this.database.waitReady;
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    let release!: () => void;
    const previous = this.turn;
    this.turn = new Promise((resolve) => (release = resolve));
    await previous;
    this.releases.push(release);
    return this.connection;
  }

  private readonly releases: (() => void)[] = [];

  async releaseConnection(): Promise<void> {
    this.releases.shift()?.();
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async destroy(): Promise<void> {
    if (!this.database.closed) await this.database.close();
  }
}

/** A query with parameters as one statement; one without (a migration) may hold several. */
async function runQuery<Row>(database: PGlite, query: CompiledQuery): Promise<QueryResult<Row>> {
  if (query.parameters.length === 0) {
    const results = await database.exec(query.sql);
    const last = results.at(-1);
    return { rows: (last?.rows ?? []) as Row[], numAffectedRows: BigInt(last?.affectedRows ?? 0) };
  }
  const result = await database.query<Row>(query.sql, [...query.parameters]);
  return { rows: result.rows, numAffectedRows: BigInt(result.affectedRows ?? 0) };
}
