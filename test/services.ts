/**
 * Tests that need a real service (Redis, PostgreSQL) run against it. Where it
 * does not answer they are skipped, and the skip names the service and why;
 * under CI=true they fail instead, since the CI machine must provide it
 * (.ci/run starts it) and a skipped test there would hide a gap.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { createClient, type RedisClientType } from '@redis/client';
import pg from 'pg';

export function redisUrl(): string {
  return process.env.REDIS_URL || 'redis://127.0.0.1:6379';
}

export function databaseUrl(): string {
  return process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
}

/** Says why the service cannot be used; undefined when it answers. */
export type Probe = () => Promise<string | undefined>;

export interface RequiredService {
  /** Whether the tests run against the service. */
  available: boolean;
  /** `describe`, or where the service does not answer: a skip that tells why (a failure under CI=true). */
  describe: (name: string, body: () => void) => void;
}

/** Probes the service once; its tests then go through the returned `describe`. */
export async function requireService(name: string, probe: Probe): Promise<RequiredService> {
  const reason = await probe().catch((error: unknown) => (error instanceof Error ? error.message : String(error)));
  if (reason === undefined) return { available: true, describe: (title, body) => describe(title, body) };
  const why = `needs ${name}, which is not available: ${reason}`;
  if (process.env.CI === 'true') {
    return { available: false, describe: (title) => describe(title, () => test(`${why} (required under CI=true)`, () => { throw new Error(`${why}. CI=true: the machine must provide it (.ci/run starts it).`); })) };
  }
  return { available: false, describe: (title) => describe(title, () => test.skip(why, () => {})) };
}

/** Redis answers PING with PONG at `url` within `timeoutMs`. */
export function pingRedis(url = redisUrl(), timeoutMs = 1000): Probe {
  return () => exchange(url, 6379, 'PING\r\n', (reply) => (reply.startsWith('+PONG') || reply.startsWith('-NOAUTH') ? undefined : `answered ${JSON.stringify(reply.slice(0, 80))} to PING`), timeoutMs);
}

/** Something accepts connections at the URL's host and port within `timeoutMs` (PostgreSQL: 5432 by default). */
export function acceptsConnections(url: string, defaultPort: number, timeoutMs = 1000): Probe {
  return () => exchange(url, defaultPort, undefined, () => undefined, timeoutMs);
}

/** Connects, sends `request` if any, and judges the first reply (or the connection alone). */
function exchange(url: string, defaultPort: number, request: string | undefined, judge: (reply: string) => string | undefined, timeoutMs: number): Promise<string | undefined> {
  const { hostname, port } = new URL(url);
  const where = `${hostname}:${port || defaultPort}`;
  return new Promise((resolve) => {
    const socket = connect({ host: hostname.replace(/^\[|\]$/g, ''), port: Number(port || defaultPort) });
    const done = (reason: string | undefined) => {
      socket.destroy();
      resolve(reason);
    };
    socket.setTimeout(timeoutMs, () => done(`no answer at ${where} within ${timeoutMs} ms`));
    socket.once('error', (error) => done(`${where}: ${error.message}`));
    socket.once('connect', () => (request === undefined ? done(undefined) : socket.write(request)));
    socket.once('data', (data) => done(judge(data.toString('utf8'))));
  });
}

/** `work` with a Redis client of its own, closed after. */
export async function withRedis<T>(work: (client: RedisClientType) => Promise<T>, url = redisUrl()): Promise<T> {
  const client: RedisClientType = createClient({ url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    client.destroy();
  }
}

/** Deletes the keys a test run wrote under its own prefix. */
export function deleteRedisKeys(prefix: string): Promise<void> {
  return withRedis(async (client) => {
    const keys = await client.keys(`${prefix}*`);
    if (keys.length > 0) await client.del(keys);
  });
}

/** `work` with a client of its own on the server DATABASE_URL names (or `url`), closed after. */
export async function withDatabase<T>(work: (client: pg.Client) => Promise<T>, url = databaseUrl()): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * Databases of a test file's own on the PostgreSQL server, each created
 * empty; `dropAll` drops them (after the file's tests).
 */
export function testDatabases(): { create(): Promise<string>; dropAll(): Promise<void> } {
  const created: string[] = [];
  return {
    async create() {
      const name = `specforge_test_${process.pid}_${randomBytes(4).toString('hex')}`;
      await withDatabase((client) => client.query(`create database ${name}`));
      created.push(name);
      const url = new URL(databaseUrl());
      url.pathname = `/${name}`;
      return url.toString();
    },
    async dropAll() {
      for (const name of created.splice(0)) await withDatabase((client) => client.query(`drop database if exists ${name} with (force)`));
    },
  };
}

/**
 * Applies a generated project's migrations/*.sql in order, as plain SQL: for
 * tests that run the suite in-process, which build nothing (`npm run
 * migrate`, with its lock and bookkeeping, is tested on its own).
 */
export function applyMigrationFiles(project: string, url: string): Promise<void> {
  const folder = join(project, 'migrations');
  const files = readdirSync(folder).filter((file) => file.endsWith('.sql')).sort();
  return withDatabase(async (client) => {
    for (const file of files) await client.query(readFileSync(join(folder, file), 'utf8'));
  }, url);
}
