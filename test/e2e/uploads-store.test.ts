/**
 * The default store keeps uploads (test/fixtures/valid/files.yaml, the
 * generated handlers untouched): upload → list → download, a PUT of bytes
 * replacing the file, the item's fields that describe its file, with each of
 * the stores: memory (STORE=memory), PGlite (`memory:`), and a real
 * PostgreSQL whose migrations create the files table. Then the generated
 * suite's round trip (upload, download, same bytes and type), shown to fail
 * against stores that break it.
 */
import { execFile } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { FIXTURES, scratchDir } from '../helpers.js';
import { compile, generateService, linkDependencies, startService, type RunningService } from '../service.js';
import { acceptsConnections, databaseUrl, requireService, testDatabases } from '../services.js';
import { runSuite } from '../suite-run.js';

const postgres = await requireService('PostgreSQL', acceptsConnections(databaseUrl(), 5432));
const databases = testDatabases();
const scratch = scratchDir();
const project = join(scratch.dir, 'documents');
const TOKEN = 'uploads-token';
const AUTH = { authorization: `Bearer ${TOKEN}` };
const ENV = { API_TOKENS: TOKEN, RATE_LIMIT: '100000', CURSOR_SECRET: 'test' };

beforeAll(async () => {
  await generateService(join(FIXTURES, 'valid/files.yaml'), project);
  linkDependencies(project);
  expect(await compile(project)).toBe('');
});
afterAll(async () => {
  scratch.cleanup();
  await databases.dropAll();
});

/** Every byte value, after PDF's signature: a download must give them back exactly. */
const BYTES = Uint8Array.from([...Buffer.from('%PDF-1.7\n'), ...Array.from({ length: 256 }, (_, index) => 255 - index)]);

function storeTests(name: string, env: () => Promise<Record<string, string>>, run: (title: string, body: () => void) => void = describe) {
  run(`the default store keeps uploads: ${name}`, () => {
    let service: RunningService;
    const call = async (method: string, path: string, init: { body?: RequestInit['body']; headers?: Record<string, string> } = {}) => {
      const response = await fetch(`${service.baseUrl}${path}`, { method, headers: { ...AUTH, ...init.headers }, ...(init.body === undefined ? {} : { body: init.body }) });
      const bytes = new Uint8Array(await response.arrayBuffer());
      const json = (response.headers.get('content-type') ?? '').includes('json') ? JSON.parse(Buffer.from(bytes).toString('utf8')) : undefined;
      return { status: response.status, headers: response.headers, bytes, json };
    };
    const upload = (file: Blob, filename = 'report.pdf', extra: (form: FormData) => void = () => {}) => {
      const form = new FormData();
      form.append('title', 'Quarterly report');
      form.append('pages', '12');
      form.append('file', file, filename);
      extra(form);
      return call('POST', '/documents', { body: form });
    };

    beforeAll(async () => {
      service = await startService(project, await env());
    });
    afterAll(async () => {
      expect(await service?.stop()).toBe(0);
    });

    test('an upload is created with its fields, and the fields that describe its file', async () => {
      const created = await upload(new Blob([BYTES], { type: 'application/pdf' }));
      expect(created.status).toBe(201);
      expect(created.json.data).toMatchObject({ title: 'Quarterly report', pages: 12, size: BYTES.length, media_type: 'application/pdf', filename: 'report.pdf' });
      const listed = await call('GET', '/documents');
      expect(listed.json.data.map((item: { id: string }) => item.id)).toContain(created.json.data.id);
    });

    test('the download gives back the same bytes, with the declared type, its filename and an ETag (304 when unchanged)', async () => {
      const { json } = await upload(new Blob([BYTES], { type: 'application/pdf' }));
      const download = await call('GET', `/documents/${json.data.id}/content`);
      expect(download.status).toBe(200);
      expect(Buffer.from(download.bytes).equals(Buffer.from(BYTES))).toBe(true);
      expect(download.headers.get('content-type')).toBe('application/pdf');
      expect(download.headers.get('content-disposition')).toContain('filename="report.pdf"');
      const etag = download.headers.get('etag')!;
      expect(etag).toMatch(/^"/);
      const again = await call('GET', `/documents/${json.data.id}/content`, { headers: { 'if-none-match': etag } });
      expect(again.status).toBe(304);
      expect(again.bytes.length).toBe(0);
    });

    test('a PUT of bytes replaces the file and the fields that describe it; untyped bytes keep the type they replace', async () => {
      const { json } = await upload(new Blob([BYTES], { type: 'application/pdf' }));
      const replacement = Buffer.from('plain text now');
      const put = await call('PUT', `/documents/${json.data.id}/content`, { body: replacement, headers: { 'content-type': 'application/octet-stream' } });
      expect(put.status).toBe(204);
      const download = await call('GET', `/documents/${json.data.id}/content`);
      expect(Buffer.from(download.bytes).toString()).toBe('plain text now');
      expect(download.headers.get('content-type')).toBe('application/pdf');
      const read = await call('GET', `/documents/${json.data.id}`);
      expect(read.json.data).toMatchObject({ size: replacement.length, title: 'Quarterly report' });
    });

    test("each upload keeps its own file; an unknown item's download, and an item's PUT, answer 404", async () => {
      const first = await upload(new Blob(['first'], { type: 'text/plain' }), 'one.txt');
      const second = await upload(new Blob(['second'], { type: 'text/plain' }), 'two.txt');
      expect(Buffer.from((await call('GET', `/documents/${first.json.data.id}/content`)).bytes).toString()).toBe('first');
      expect(Buffer.from((await call('GET', `/documents/${second.json.data.id}/content`)).bytes).toString()).toBe('second');
      const unknown = '00000000-0000-4000-8000-000000000000';
      const missing = await call('GET', `/documents/${unknown}/content`);
      expect(missing.status).toBe(404);
      expect(missing.json.error.code).toBe('RESOURCE_NOT_FOUND');
      const put = await call('PUT', `/documents/${unknown}/content`, { body: 'x', headers: { 'content-type': 'application/octet-stream' } });
      expect(put.status).toBe(404);
    });

    test('a refused upload keeps nothing', async () => {
      const before = (await call('GET', '/documents?limit=100')).json.data.length;
      const refused = await upload(new Blob(['x'], { type: 'application/zip' }));
      expect(refused.status).toBe(415);
      expect((await call('GET', '/documents?limit=100')).json.data.length).toBe(before);
    });

    test('a URL-encoded form is kept as the item it creates', async () => {
      const created = await call('POST', '/imports', { body: new URLSearchParams({ source: 's3://bucket/key' }), headers: {} });
      expect(created.status).toBe(201);
      expect(created.json.data).toMatchObject({ source: 's3://bucket/key', dry_run: false });
      expect(created.json.data.id).toMatch(/^[0-9a-f-]{36}$/);
    });
  });
}

storeTests('in memory (STORE=memory)', async () => ({ ...ENV, STORE: 'memory' }));
storeTests('PGlite in memory', async () => ({ ...ENV, DATABASE_URL: 'memory:' }));
storeTests(
  'PostgreSQL, migrated',
  async () => {
    const url = await databases.create();
    // As a user migrates: the project's own `npm run migrate`.
    await promisify(execFile)(process.execPath, ['dist/migrate.js'], { cwd: project, env: { PATH: process.env.PATH, DATABASE_URL: url } });
    return { ...ENV, DATABASE_URL: url };
  },
  postgres.describe,
);

/** Stores that break the round trip, each in one way: the generated suite's check must fail on each. */
const BROKEN_STORES = [
  { name: 'a byte of the download flipped', find: '    body: kept.bytes,', replace: '    body: Buffer.from(kept.bytes.map((byte, index) => (index === 7 ? byte ^ 1 : byte))),' },
  { name: 'the download answered as another declared type', find: '    mediaType: answerable(kept.mediaType, plan.answers),', replace: "    mediaType: plan.answers.find((type) => !type.includes('*') && type !== kept.mediaType) ?? 'text/plain'," },
  { name: 'the files not kept', find: '      await files.keep({ ...item, field }, field === plan.main ? read(rest, main) : read(uploaded));', replace: '      void [field, uploaded, rest];' },
  { name: "every item's file kept in one place", find: '  const id = String(item.id);', replace: "  const id = 'one';" },
];
const ROUND_TRIP = /POST \/documents → 201, then GET \/documents\/\{document_id\}\/content gives back the same bytes/;

describe("the suite's upload round trip", () => {
  test('passes against the generated service', async () => {
    const report = await runSuite(project, {}, ['resources/documents']);
    // Each failure with its message: a count alone does not say which check, or why.
    expect(report.tests.filter((outcome) => outcome.status === 'failed').map(({ name, failure }) => `${name}\n${failure}`)).toEqual([]);
    expect(report.failed).toBe(0);
    expect(report.tests.filter((outcome) => ROUND_TRIP.test(outcome.name)).map((outcome) => outcome.status)).toEqual(['passed']);
  });

  test.each(BROKEN_STORES)('fails against a store with $name', async ({ find, replace }) => {
    const copy = join(scratch.dir, `broken-${BROKEN_STORES.findIndex((broken) => broken.find === find)}`);
    cpSync(project, copy, { recursive: true, verbatimSymlinks: true });
    const file = join(copy, 'src/store/uploads.ts');
    const source = readFileSync(file, 'utf8');
    expect(source.split(find)).toHaveLength(2);
    writeFileSync(file, source.replace(find, replace));
    const report = await runSuite(copy, {}, ['resources/documents']);
    const roundTrip = report.tests.filter((outcome) => ROUND_TRIP.test(outcome.name));
    expect(roundTrip.map((outcome) => outcome.status)).toEqual(['failed']);
  });
});
