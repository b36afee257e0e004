/**
 * Parameters in every style OpenAPI defines for the query and headers
 * (test/fixtures/valid/styles.yaml): the generated client writes them, the
 * generated service reads them back before validation (a handler that echoes
 * what it was given shows what), and what cannot be read is a 422 with a
 * detail for the parameter, never a 500.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { FIXTURES, scratchDir } from '../helpers.js';
import { compile, generateService, linkDependencies, startService, type RunningService } from '../service.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- the client is imported from a generated project at run time */
type AnyClient = Record<string, any>;

/** The operation answers the query it was handed, validated and coerced. */
const ECHO_HANDLERS = `import type { MixHandlers } from '../generated/handlers.js';

export const mix: MixHandlers = {
  mixColors: (request) => ({ query: request.query }),
};
`;

const TOKEN = 'styles-token';
const scratch = scratchDir();
const project = join(scratch.dir, 'styles');
let service: RunningService;
let api: AnyClient;

beforeAll(async () => {
  await generateService(join(FIXTURES, 'valid/styles.yaml'), project);
  writeFileSync(join(project, 'src/handlers/mix.ts'), ECHO_HANDLERS);
  linkDependencies(project);
  expect(await compile(project)).toBe('');
  service = await startService(project, { API_TOKENS: TOKEN, RATE_LIMIT: '10000' });
  const client = await import(pathToFileURL(join(project, 'dist/client/index.js')).href);
  api = client.createClient({ baseUrl: service.baseUrl, token: TOKEN });
});
afterAll(async () => {
  await service?.stop();
  scratch.cleanup();
});

/** A raw GET, the query written by hand. */
async function get(pathAndQuery: string, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const response = await fetch(`${service.baseUrl}${pathAndQuery}`, { headers: { authorization: `Bearer ${TOKEN}`, ...headers } });
  return { status: response.status, body: await response.json() };
}

describe('the client writes each style, the service reads it back', () => {
  test('delimited arrays, an exploded form object and a deepObject', async () => {
    const query = { tags: ['warm', 'dark'], codes: ['a1', 'b2'], levels: [1, 2], color: { R: 100, G: 200 }, filter: { status: 'open', owner: 'me' } };
    expect(await api.mixColors({ query })).toEqual({ query });
  });

  test('required parameters, unexploded array and object and a deepObject, reach the list operation', async () => {
    await api.createSwatch({ body: { name: 'teal' } });
    const items = await api.listSwatches({ query: { ids: [1, 2], tint: { R: 1, G: 2 }, region: { country: 'NO', city: 'Oslo' } } });
    expect(items.map((item: { name: string }) => item.name)).toEqual(['teal']);
  });
});

describe('the service reads what other clients write', () => {
  test.each([
    ['?tags=warm%20dark&codes=a1|b2', { tags: ['warm', 'dark'], codes: ['a1', 'b2'] }],
    ['?R=1&B=3', { color: { R: 1, B: 3 } }],
    ['?filter[status]=closed', { filter: { status: 'closed' } }],
    ['?filter%5Bowner%5D=me', { filter: { owner: 'me' } }],
  ])('GET /mix%s', async (query, want) => {
    expect(await get(`/mix${query}`)).toMatchObject({ status: 200, body: { data: { query: want } } });
  });

  test.each([
    ['X-Rgb', 'R,100,G,200'],
    ['X-Hsl', 'H=1, S=2,L=3'],
    ['X-Layers', '1, 2,3'],
  ])('the header %s: %s is read and valid', async (name, value) => {
    expect((await get('/mix', { [name]: value })).status).toBe(200);
  });
});

describe('what breaks the schema or cannot be read: 422 with a detail for the field', () => {
  test.each([
    ['/mix?filter[status]=lost', {}, 'query.filter.status', 'INVALID_VALUE'],
    ['/mix?filter[colour]=red', {}, 'query.filter.colour', 'UNKNOWN_FIELD'],
    ['/mix?filter[status][0]=open', {}, 'query.filter', 'INVALID_FORMAT'],
    ['/mix?filter=open', {}, 'query.filter', 'INVALID_FORMAT'],
    ['/mix?R=300', {}, 'query.color.R', 'OUT_OF_RANGE'],
    ['/mix?levels=1&levels=x', {}, 'query.levels[1]', 'INVALID_TYPE'],
    ['/mix', { 'X-Rgb': 'R,100,G' }, 'header.x-rgb', 'INVALID_FORMAT'],
    ['/mix', { 'X-Rgb': 'R,300' }, 'header.x-rgb.R', 'OUT_OF_RANGE'],
    ['/mix', { 'X-Hsl': 'H=1,S' }, 'header.x-hsl', 'INVALID_FORMAT'],
    ['/swatches?ids=1,x&tint=R,1,G,2&region[country]=NO', {}, 'query.ids[1]', 'INVALID_TYPE'],
    ['/swatches?ids=1&tint=R,1,G&region[country]=NO', {}, 'query.tint', 'INVALID_FORMAT'],
    ['/swatches?ids=1&tint=R,1&region[country]=NO', {}, 'query.tint.G', 'REQUIRED'],
    ['/swatches?ids=1&tint=R,1,G,2&region[city]=Oslo', {}, 'query.region.country', 'REQUIRED'],
  ])('GET %s %j → %s %s', async (path, headers, field, code) => {
    const { status, body } = await get(path, headers);
    expect(status).toBe(422);
    expect(body.error.details).toEqual([expect.objectContaining({ field, code })]);
  });
});
