/**
 * The generated service on a real database: PostgreSQL (a database of this
 * run's own, dropped after) and the embedded PGlite in a data folder. The
 * migrations apply once and under a lock, the service refuses a database
 * behind them, its data outlives a restart, and its own suite passes.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { ROOT, scratchDir } from '../helpers.js';
import { compile, generateService, linkDependencies, startService, type RunningService } from '../service.js';
import { acceptsConnections, applyMigrationFiles, databaseUrl, deleteRedisKeys, pingRedis, redisUrl, requireService, testDatabases, withDatabase } from '../services.js';
import { failures, runSuite } from '../suite-run.js';

const postgres = await requireService('PostgreSQL', acceptsConnections(databaseUrl(), 5432));
const redis = await requireService('Redis', pingRedis());
const scratch = scratchDir();
const bookshop = join(scratch.dir, 'bookshop');
const databases = testDatabases();
const newDatabase = () => databases.create();

/** `npm run migrate` of the built project: its exit code and output. */
function migrate(env: Record<string, string>, project = bookshop): Promise<{ code: number; output: string }> {
  return new Promise((done) => {
    execFile(process.execPath, ['dist/migrate.js'], { cwd: project, env: { PATH: process.env.PATH, ...env } }, (error, stdout, stderr) =>
      done({ code: error ? ((error as { code?: number }).code ?? 1) : 0, output: `${stdout}${stderr}` }),
    );
  });
}

async function request(base: string, path: string, init: RequestInit = {}): Promise<{ status: number; body: { data?: { id?: string } } & Record<string, unknown> }> {
  const response = await fetch(`${base}${path}`, {
    ...init,
    headers: { authorization: 'Bearer token-1', 'content-type': 'application/json', ...(init.headers as Record<string, string>) },
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : {} };
}

/** v2 of the bookshop: authors trade `bio` for `website`, and labels are new. */
function evolve(spec: string): void {
  for (const file of ['author.yaml', 'author-input.yaml', 'author-patch.yaml']) {
    const path = join(spec, 'schemas', file);
    const schema = yaml.load(readFileSync(path, 'utf8')) as { properties: Record<string, unknown>; examples?: Record<string, unknown>[] };
    schema.properties.website = { type: 'string', maxLength: 200 };
    delete schema.properties.bio;
    for (const example of schema.examples ?? []) delete example.bio;
    writeFileSync(path, yaml.dump(schema));
  }
  const path = join(spec, 'openapi.yaml');
  const document = yaml.load(readFileSync(path, 'utf8')) as { paths: Record<string, unknown>; components: { schemas: Record<string, unknown> } };
  const label = { $ref: '#/components/schemas/Label' };
  const answer = (schema: unknown) => ({ description: 'ok', content: { 'application/json': { schema } } });
  document.components.schemas.Label = {
    type: 'object',
    required: ['id', 'name'],
    properties: { id: { type: 'string', format: 'uuid', readOnly: true }, name: { type: 'string', minLength: 1, maxLength: 100 } },
  };
  document.paths['/labels'] = {
    get: { operationId: 'listLabels', summary: 'List labels', tags: ['labels'], responses: { '200': answer({ type: 'array', items: label }) } },
    post: { operationId: 'createLabel', summary: 'Create a label', tags: ['labels'], requestBody: { required: true, content: { 'application/json': { schema: label } } }, responses: { '201': answer(label) } },
  };
  document.paths['/labels/{label_id}'] = {
    parameters: [{ name: 'label_id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }],
    get: { operationId: 'getLabel', summary: 'Get a label', tags: ['labels'], responses: { '200': answer(label) } },
  };
  writeFileSync(path, yaml.dump(document));
}

/** An author's name: the bookshop answers authors in the typed shape. */
const nameOf = (data: unknown) => (data as { attributes?: { name?: string } } | undefined)?.attributes?.name;

const SERVICE_ENV = { API_TOKENS: 'token-1:catalog:write reviews:write' };

beforeAll(async () => {
  await generateService(join(ROOT, 'examples/bookshop/openapi.yaml'), bookshop);
  linkDependencies(bookshop);
  expect(await compile(bookshop)).toBe('');
});

afterAll(async () => {
  scratch.cleanup();
  if (postgres.available) await databases.dropAll();
});

postgres.describe('on PostgreSQL', () => {
  test('migrations apply once, under a lock: two instances migrating at once both end up to date', async () => {
    const url = await newDatabase();
    const runs = await Promise.all([migrate({ DATABASE_URL: url }), migrate({ DATABASE_URL: url })]);
    expect(runs.map((run) => run.code)).toEqual([0, 0]);
    expect(runs.map((run) => run.output.trim()).sort()).toEqual(['Applied 0001_initial.sql.', 'The database is up to date.']);
    const again = await migrate({ DATABASE_URL: url });
    expect(again.output.trim()).toBe('The database is up to date.');
  });

  // GitHub's first migration (537 tables, 9,027 indexes) needs more locks than PostgreSQL's defaults hold in one transaction.
  test('a migration that locks more than PostgreSQL holds names the setting to raise, in one line, and applies nothing', async () => {
    const url = await newDatabase();
    const extra = join(bookshop, 'migrations/0002_many_tables.sql');
    writeFileSync(extra, Array.from({ length: 8000 }, (_, n) => `create table many_${n} (id int);`).join('\n'));
    try {
      const run = await migrate({ DATABASE_URL: url });
      expect(run.code).toBe(1);
      expect(run.output.trim()).toBe(
        "Migrating failed: 0002_many_tables.sql creates 8,000 tables and indexes in one transaction, more than PostgreSQL's lock table holds: raise max_locks_per_transaction (to 160 or more with max_connections at 100) and restart PostgreSQL, or split the file. Nothing was applied.",
      );
      const authors = await withDatabase((client) => client.query<{ found: string | null }>("select to_regclass('authors') as found"), url);
      expect(authors.rows[0]!.found).toBeNull();
    } finally {
      rmSync(extra);
    }
  });

  test('the service refuses a database behind its migrations, and names the command', async () => {
    const url = await newDatabase();
    const service = await startService(bookshop, { ...SERVICE_ENV, DATABASE_URL: url }).catch((error: Error) => error);
    expect(service).toBeInstanceOf(Error);
    expect((service as Error).message).toContain('0001_initial.sql not applied): run `npm run migrate` first');
  });

  test('a write on one instance is read on another; a parent with children is not deleted (409)', async () => {
    const url = await newDatabase();
    expect((await migrate({ DATABASE_URL: url })).code).toBe(0);
    const [one, two] = await Promise.all([startService(bookshop, { ...SERVICE_ENV, DATABASE_URL: url }), startService(bookshop, { ...SERVICE_ENV, DATABASE_URL: url })]);
    try {
      const author = await request(one.baseUrl, '/authors', { method: 'POST', body: JSON.stringify({ name: 'Ursula', country: 'US' }) });
      expect(author.status).toBe(201);
      const id = author.body.data!.id!;
      expect((await request(two.baseUrl, `/authors/${id}`)).status).toBe(200);
      const book = await request(two.baseUrl, `/authors/${id}/books`, { method: 'POST', body: JSON.stringify({ title: 'Lathe', isbn: '9780000000001', genre: 'fiction', pages: 184, in_print: true }) });
      expect(book.status).toBe(201);
      const deleted = await request(one.baseUrl, `/authors/${id}`, { method: 'DELETE' });
      expect([deleted.status, (deleted.body.error as { code?: string } | undefined)?.code]).toEqual([409, 'CONFLICT']);
    } finally {
      await Promise.all([one.stop(), two.stop()]);
    }
  });

  test('a filtered, sorted cursor page of 100,000 rows reads an index', async () => {
    const url = await newDatabase();
    expect((await migrate({ DATABASE_URL: url })).code).toBe(0);
    await withDatabase(async (client) => {
      await client.query(
        `insert into authors (id, name, country, created_at) select gen_random_uuid(), 'author ' || n, (array['NO','SE','DK','FI'])[1 + n % 4], now() - n * interval '1 minute' from generate_series(1, 100000) as n`,
      );
      await client.query('analyze authors');
      // The store's query for `?country=NO&sort=-created_at&limit=20` after a first page.
      const plan = await client.query(
        `explain select * from "authors" where "country" = $1 and (("created_at" < $2 or "created_at" is null) or ("created_at" = $2 and "_seq" > $3)) order by "created_at" desc nulls last, "_seq" asc limit 21`,
        ['NO', new Date(Date.now() - 3_600_000).toISOString(), 100],
      );
      const text = plan.rows.map((row: Record<string, string>) => row['QUERY PLAN']).join('\n');
      // Read in the page's order from the descending index, and stopped after 21 rows: no scan, no sort of the table.
      expect(text).toMatch(/Index Scan using authors_created_at_desc_idx on authors/);
      expect(text).not.toMatch(/Seq Scan|Sort/);
    }, url);
  });

  test('v1 → v2 of the spec (a field added, one removed, a resource added) migrates a database holding data, and the suite passes', async () => {
    const spec = join(scratch.dir, 'spec');
    const project = join(scratch.dir, 'evolving');
    cpSync(join(ROOT, 'examples/bookshop'), spec, { recursive: true, filter: (path) => !path.includes('generated') });
    await generateService(join(spec, 'openapi.yaml'), project);
    linkDependencies(project);
    expect(await compile(project)).toBe('');
    const url = await newDatabase();
    expect((await migrate({ DATABASE_URL: url }, project)).code).toBe(0);
    const v1 = await startService(project, { ...SERVICE_ENV, DATABASE_URL: url });
    const author = await request(v1.baseUrl, '/authors', { method: 'POST', body: JSON.stringify({ name: 'Ursula', country: 'US', bio: 'Wrote of Earthsea.' }) });
    await v1.stop();
    expect(author.status).toBe(201);

    evolve(spec);
    const output = await generateService(join(spec, 'openapi.yaml'), project);
    expect(output).toContain('authors.bio is no longer in the spec');
    const migration = readFileSync(join(project, 'migrations/0002_changes.sql'), 'utf8');
    expect(migration).toContain('add column "website"');
    expect(migration).toContain('-- alter table "authors" drop column "bio";');
    expect(migration).toContain('create table "labels"');
    expect(await compile(project)).toBe('');
    expect((await migrate({ DATABASE_URL: url }, project)).output.trim()).toBe('Applied 0002_changes.sql.');
    // The removed field's data is still there, until the user uncomments its drop.
    const kept = await withDatabase((client) => client.query('select bio from authors where id = $1', [author.body.data!.id]), url);
    expect(kept.rows).toEqual([{ bio: 'Wrote of Earthsea.' }]);
    const v2 = await startService(project, { ...SERVICE_ENV, DATABASE_URL: url });
    try {
      const read = await request(v2.baseUrl, `/authors/${author.body.data!.id}`);
      expect([read.status, nameOf(read.body.data)]).toEqual([200, 'Ursula']);
      expect((await request(v2.baseUrl, '/labels', { method: 'POST', body: JSON.stringify({ name: 'Ace' }) })).status).toBe(201);
    } finally {
      await v2.stop();
    }
    const report = await runSuite(project, { CONFORMANCE_DATABASE_URL: url });
    expect(failures(report)).toEqual([]);
    expect(report.passed).toBeGreaterThan(200);
  }, 300_000);

  test("the petstore's generated suite passes against its service on PostgreSQL", async () => {
    const project = join(scratch.dir, 'petstore');
    await generateService(join(ROOT, 'examples/petstore/openapi.json'), project);
    linkDependencies(project);
    const url = await newDatabase();
    await applyMigrationFiles(project, url);
    const report = await runSuite(project, { CONFORMANCE_DATABASE_URL: url });
    expect(failures(report)).toEqual([]);
    expect(report.broken).toBe(0);
    expect(report.passed).toBeGreaterThan(50);
  });

  test("the generated suite passes against the service on PostgreSQL", async () => {
    const url = await newDatabase();
    expect((await migrate({ DATABASE_URL: url })).code).toBe(0);
    const report = await runSuite(bookshop, { CONFORMANCE_DATABASE_URL: url });
    expect(failures(report)).toEqual([]);
    expect(report.broken).toBe(0);
    expect(report.passed).toBeGreaterThan(200);
  });
});

postgres.describe('with Redis', () => redis.describe('two instances sharing PostgreSQL and Redis', () => {
  const prefix = `specforge-e2e:${randomUUID()}:`;
  const running: RunningService[] = [];

  /** Two instances of the bookshop on a database of their own, one Redis and one cursor secret. */
  async function twoInstances(): Promise<[RunningService, RunningService]> {
    const url = await newDatabase();
    expect((await migrate({ DATABASE_URL: url })).code).toBe(0);
    const env = {
      ...SERVICE_ENV,
      DATABASE_URL: url,
      REDIS_URL: redisUrl(),
      REDIS_TIMEOUT_MS: '5000',
      RATE_LIMIT: '100000',
      RATE_LIMIT_KEY_PREFIX: prefix,
      CURSOR_SECRET: 'shared-by-both',
    };
    const pair = await Promise.all([startService(bookshop, env), startService(bookshop, env)]);
    running.push(...pair);
    return pair;
  }

  const createAuthor = async (base: string, name: string) => {
    const created = await request(base, '/authors', { method: 'POST', body: JSON.stringify({ name, country: 'GB' }) });
    expect(created.status).toBe(201);
    return created.body.data!.id!;
  };

  /** A walk of `/authors?sort=name` in pages of `limit`, each page from the next instance in turn: the ids and names seen. */
  async function walk(instances: RunningService[], limit: number, onPage: () => Promise<unknown> = async () => {}) {
    const seen: { id: string; name: string }[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 200; page++) {
      const query: URLSearchParams = new URLSearchParams({ sort: 'name', limit: String(limit), ...(cursor ? { cursor } : {}) });
      const [reply] = await Promise.all([request(instances[page % instances.length]!.baseUrl, `/authors?${query}`), onPage()]);
      expect(reply.status).toBe(200);
      for (const item of reply.body.data as unknown as { id: string }[]) seen.push({ id: item.id, name: nameOf(item)! });
      cursor = (reply.body.pagination as { cursor: string | null }).cursor;
      if (cursor === null) return seen;
    }
    throw new Error('the walk did not end');
  }

  afterAll(async () => {
    await Promise.all(running.map((service) => service.stop()));
    await deleteRedisKeys(prefix);
  });

  test('a cursor walk started on one instance finishes on the other, in order', async () => {
    const [one, two] = await twoInstances();
    const names = Array.from({ length: 12 }, (_, index) => `Author ${String(index).padStart(2, '0')}`);
    for (const [index, name] of [...names].reverse().entries()) await createAuthor(index % 2 ? one.baseUrl : two.baseUrl, name);
    const seen = await walk([one, two], 5);
    expect(seen.map((item) => item.name)).toEqual(names);
  });

  test('a walk while both instances create items sees every earlier item once and no item twice', async () => {
    const [one, two] = await twoInstances();
    const name = (index: number) => `Author ${String(index).padStart(3, '0')}`;
    // Every other name is left free: while each page is read, one item is created near the walk's position and one past the end.
    const earlier = new Set<string>();
    for (let index = 0; index < 40; index += 2) earlier.add(await createAuthor(index % 4 ? one.baseUrl : two.baseUrl, name(index)));
    let page = 0;
    const createTwo = () => Promise.all([createAuthor(one.baseUrl, name(4 * page + 1)), createAuthor(two.baseUrl, name(41 + 2 * page++))]);
    const seen = await walk([two, one], 3, createTwo);
    const ids = seen.map((item) => item.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...earlier].filter((id) => !ids.includes(id))).toEqual([]);
    expect(seen.map((item) => item.name)).toEqual(seen.map((item) => item.name).sort());
    // The items created past the end were reached, and seen.
    expect(ids.length).toBeGreaterThan(earlier.size);
  });

  test('the rate limit counts the requests to both instances as one budget', async () => {
    const [one, two] = await twoInstances();
    const remaining: number[] = [];
    for (const instance of [one, two, one, two]) {
      const response = await fetch(`${instance.baseUrl}/authors`, { headers: { authorization: 'Bearer token-1' } });
      expect(response.status).toBe(200);
      remaining.push(Number(response.headers.get('x-ratelimit-remaining')));
    }
    expect(remaining.slice(1).map((value, index) => remaining[index]! - value)).toEqual([1, 1, 1]);
  });
}));

describe('on the embedded PGlite', () => {
  test('x-specforge.store: unique fields answer 409 CONFLICT naming them, and onParentDelete: cascade deletes a parent with its items', async () => {
    const spec = join(scratch.dir, 'store-settings');
    const project = join(scratch.dir, 'store-settings-service');
    cpSync(join(ROOT, 'examples/bookshop'), spec, { recursive: true, filter: (path) => !path.includes('generated') });
    const path = join(spec, 'openapi.yaml');
    const document = yaml.load(readFileSync(path, 'utf8')) as { paths: Record<string, Record<string, unknown>> };
    document.paths['/authors/{author_id}/books']!['x-specforge'] = { store: { unique: ['isbn'], onParentDelete: 'cascade' } };
    writeFileSync(path, yaml.dump(document));
    await generateService(path, project);
    linkDependencies(project);
    expect(await compile(project)).toBe('');
    expect(readFileSync(join(project, 'migrations/0001_initial.sql'), 'utf8')).toContain(
      'create unique index "authors_books_isbn_unique_idx" on "authors_books" ("author_id", "isbn");',
    );
    const service = await startService(project, SERVICE_ENV);
    try {
      const author = (name: string) => request(service.baseUrl, '/authors', { method: 'POST', body: JSON.stringify({ name, country: 'GB' }) });
      const book = (authorId: string, isbn: string) =>
        request(service.baseUrl, `/authors/${authorId}/books`, { method: 'POST', body: JSON.stringify({ title: 'T', isbn, genre: 'fiction', pages: 10, in_print: true }) });
      const [first, second] = [(await author('First')).body.data!.id!, (await author('Second')).body.data!.id!];
      const kept = await book(first, '9780000000001');
      expect(kept.status).toBe(201);
      const again = await book(first, '9780000000001');
      expect(again.status).toBe(409);
      expect(again.body.error).toMatchObject({ code: 'CONFLICT', message: 'Another item has the same isbn.', details: [{ field: 'body.isbn', code: 'CONFLICT' }] });
      // Unique under one parent: another author's book may carry it.
      expect((await book(second, '9780000000001')).status).toBe(201);
      const other = await book(first, '9780000000002');
      const patched = await request(service.baseUrl, `/authors/${first}/books/${other.body.data!.id}`, { method: 'PATCH', body: JSON.stringify({ isbn: '9780000000001' }) });
      expect([patched.status, (patched.body.error as { code?: string } | undefined)?.code]).toEqual([409, 'CONFLICT']);
      // The parent goes, and its books with it (a foreign key that refuses would answer 409).
      expect((await request(service.baseUrl, `/authors/${first}`, { method: 'DELETE' })).status).toBe(204);
      expect((await request(service.baseUrl, `/authors/${first}/books/${kept.body.data!.id}`)).status).toBe(404);
      expect((await request(service.baseUrl, `/authors/${second}/books`)).body.data).toHaveLength(1);
    } finally {
      await service.stop();
    }
  });

  test('without DATABASE_URL the data lives in DATA_DIR and outlives a restart', async () => {
    const env = { ...SERVICE_ENV, DATABASE_URL: '', DATA_DIR: join(scratch.dir, 'data') };
    expect((await migrate(env)).output.trim()).toBe('Applied 0001_initial.sql.');
    const first = await startService(bookshop, env);
    let id: string;
    try {
      const author = await request(first.baseUrl, '/authors', { method: 'POST', body: JSON.stringify({ name: 'Octavia', country: 'US' }) });
      expect(author.status).toBe(201);
      id = author.body.data!.id!;
    } finally {
      expect(await first.stop()).toBe(0);
    }
    const second = await startService(bookshop, env);
    try {
      const read = await request(second.baseUrl, `/authors/${id}`);
      expect([read.status, nameOf(read.body.data)]).toEqual([200, 'Octavia']);
    } finally {
      await second.stop();
    }
  });
});
