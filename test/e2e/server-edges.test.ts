/**
 * The generated server on a spec made of edge cases: routes that name the
 * same segment differently, a literal beside a parameter, an API key header
 * of the spec's own, read-only fields reached through `$ref` and `allOf`,
 * an included relation that needs a scope, sort fields some items lack.
 */
import { join } from 'node:path';
import { FIXTURES, scratchDir } from '../helpers.js';
import { compile, generateService, linkDependencies, startService, type RunningService } from '../service.js';

const scratch = scratchDir();
let service: RunningService;

beforeAll(async () => {
  const project = join(scratch.dir, 'edges');
  await generateService(join(FIXTURES, 'server/edges.yaml'), project);
  linkDependencies(project);
  expect(await compile(project)).toBe('');
  service = await startService(project, { API_KEYS: 'plain,reader:secrets:read', RATE_LIMIT: '10000', CURSOR_SECRET: 'test' });
});
afterAll(async () => {
  await service?.stop();
  scratch.cleanup();
});

async function call(method: string, path: string, { key = 'reader', body, headers = {} }: { key?: string | null; body?: unknown; headers?: Record<string, string> } = {}) {
  const response = await fetch(`${service.baseUrl}${path}`, {
    method,
    headers: { ...(key ? { 'X-Token': key } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

describe('routing', () => {
  test('two paths that name the same segment differently each get their own parameter', async () => {
    // Both are routed and validated (a parameter bound under the other route's name would be a 422):
    // the team does not exist, so both are 404.
    for (const path of ['/teams/core/members', '/teams/core']) expect((await call('GET', path)).body.error.code).toBe('RESOURCE_NOT_FOUND');
    // A DELETE whose spec answers the deleted resource: 404 for one that does not exist.
    expect((await call('DELETE', '/teams/core')).body.error.code).toBe('RESOURCE_NOT_FOUND');
  });

  test('a parameter still matches where a literal segment beside it leads nowhere', async () => {
    expect((await call('GET', '/users/me/posts')).status).toBe(200);
    expect((await call('GET', '/users/bob/posts')).status).toBe(200);
    // A singleton (an object at a path with no id): the default store answers a value valid for its schema.
    expect((await call('GET', '/users/me/settings')).status).toBe(200);
  });

  test('HEAD answers like GET, with the caching headers and 304', async () => {
    const head = await fetch(`${service.baseUrl}/owners`, { method: 'HEAD', headers: { 'X-Token': 'reader' } });
    expect(head.status).toBe(200);
    const tag = head.headers.get('etag')!;
    expect(tag).toMatch(/^"[\w-]+"$/);
    const again = await fetch(`${service.baseUrl}/owners`, { method: 'HEAD', headers: { 'X-Token': 'reader', 'If-None-Match': tag } });
    expect(again.status).toBe(304);
  });
});

describe('security', () => {
  test("the API key is read from the header the spec's scheme names, and only there", async () => {
    expect((await call('GET', '/owners', { key: 'plain' })).status).toBe(200);
    const elsewhere = await call('GET', '/owners', { key: null, headers: { 'X-API-Key': 'plain' } });
    expect(elsewhere.status).toBe(401);
  });

  test('include reads a relation with its own permissions: 403 without its scope', async () => {
    const owner = (await call('POST', '/owners', { body: { name: 'Ada' } })).body.data;
    await call('POST', `/owners/${owner.id}/secrets`, { body: { value: 'TOPSECRET' } });
    const denied = await call('GET', `/owners/${owner.id}?include=secrets`, { key: 'plain' });
    expect(denied.status).toBe(403);
    expect(JSON.stringify(denied.body)).not.toContain('TOPSECRET');
    const allowed = await call('GET', `/owners/${owner.id}?include=secrets`);
    expect(allowed.status).toBe(200);
    expect(allowed.body.data.secrets).toEqual([expect.objectContaining({ value: 'TOPSECRET' })]);
  });
});

describe('request bodies', () => {
  test('read-only fields required through $ref and allOf are not asked of a create', async () => {
    const created = await call('POST', '/owners', { body: { name: 'Grace' } });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ name: 'Grace', id: expect.any(Number) });
  });
});

describe('cursor walks', () => {
  let owners: number[];
  beforeAll(async () => {
    owners = [];
    for (const [index, nickname] of [undefined, 'b', undefined, 'a', undefined].entries()) {
      const body = nickname === undefined ? { name: `walk-${index}` } : { name: `walk-${index}`, nickname };
      owners.push((await call('POST', '/owners', { body })).body.data.id);
    }
  });

  async function walk(query: string): Promise<number[]> {
    const seen: number[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 50; page++) {
      const reply = await call('GET', `/owners?limit=1&search=walk-&${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(reply.status).toBe(200);
      seen.push(...reply.body.data.map((owner: { id: number }) => owner.id));
      if (!reply.body.pagination.has_more) return seen;
      cursor = reply.body.pagination.cursor;
    }
    throw new Error(`the walk did not end: ${seen.join(' ')}`);
  }

  test.each(['sort=nickname', 'sort=-nickname'])('%s sees every item once, items without the field last, and ends', async (query) => {
    const seen = await walk(query);
    expect([...seen].sort()).toEqual([...owners].sort());
    const [a, b] = query.startsWith('sort=-') ? [owners[1], owners[3]] : [owners[3], owners[1]];
    expect(seen.slice(0, 2)).toEqual([a, b]);
  });

  test("a cursor from one parent's list is refused on another's (400)", async () => {
    const [first, second] = owners;
    for (const value of ['x', 'y']) await call('POST', `/owners/${first}/secrets`, { body: { value } });
    const page = await call('GET', `/owners/${first}/secrets?limit=1`);
    const reply = await call('GET', `/owners/${second}/secrets?limit=1&cursor=${encodeURIComponent(page.body.pagination.cursor)}`);
    expect(reply.status).toBe(400);
    expect(reply.body.error.code).toBe('BAD_REQUEST');
  });
});

describe('list filters', () => {
  test("a declared filter's default is not applied unless sent; sent, it filters", async () => {
    const plain = (await call('POST', '/owners', { body: { name: 'filter-plain' } })).body.data.id;
    const archived = (await call('POST', '/owners', { body: { name: 'filter-archived', state: 'archived' } })).body.data.id;
    const ids = async (query: string) => (await call('GET', `/owners?search=filter-&${query}`)).body.data.map((owner: { id: number }) => owner.id);
    expect((await ids('')).sort()).toEqual([plain, archived].sort());
    expect(await ids('state=archived')).toEqual([archived]);
    expect(await ids('state=active')).toEqual([]);
  });
});

describe('sorting', () => {
  test('an enum sorts in the order it declares its values, not alphabetically', async () => {
    for (const priority of ['high', 'low', 'medium']) await call('POST', '/owners', { body: { name: `sort-${priority}`, priority } });
    const priorities = async (sort: string) =>
      (await call('GET', `/owners?search=sort-&sort=${sort}`)).body.data.map((owner: { priority: string }) => owner.priority);
    expect(await priorities('priority')).toEqual(['low', 'medium', 'high']);
    expect(await priorities('-priority')).toEqual(['high', 'medium', 'low']);
  });
});
