/**
 * The store's files (store/files.ts) in memory and in SQL (PGlite, the table
 * as the migrations create it), and what the default handlers do with
 * uploads (store/uploads.ts): an item created with its files and described
 * by them, downloaded, replaced, deleted with them.
 */
import { sql } from 'kysely';
import type { UploadedFile } from '../../../src/runtime/server/generated/conventions/upload.js';
import { openDatabase, type Database } from '../../../src/runtime/server/store/database.js';
import { MemoryFiles, SqlFiles, type Files } from '../../../src/runtime/server/store/files.js';
import { MemoryCollection } from '../../../src/runtime/server/store/memory.js';
import { createWithFiles, fileOf, replaceFile, takeWithFiles, type FilePlan } from '../../../src/runtime/server/store/uploads.js';

let db: Database;
beforeAll(async () => {
  db = await openDatabase({ url: 'memory:' });
  await sql
    .raw(
      `create table files ("collection" text not null, "item" text not null, "field" text not null, "position" integer not null,
        "media_type" text not null, "filename" text not null, "size" bigint not null, "sha256" text not null, "bytes" bytea not null,
        primary key ("collection", "item", "field", "position"))`,
    )
    .execute(db);
});
afterAll(() => db.destroy());

const stores: [string, () => Files][] = [
  ['memory', () => new MemoryFiles()],
  ['SQL', () => new SqlFiles(async () => db, 'files')],
];

const file = (text: string, mediaType = 'text/plain', filename = 'a.txt') => ({ mediaType, filename, bytes: Buffer.from(text) });

describe.each(stores)('files kept %s', (_name, make) => {
  beforeEach(() => sql`delete from files`.execute(db));

  test('a kept file comes back with its bytes, type, name, size and SHA-256; a slot is per item and field', async () => {
    const files = make();
    const slot = { collection: 'documents', item: 'one', field: 'file' };
    expect(await files.keep(slot, [file('hello')])).toBe(1);
    const sha256 = '2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824';
    const found = await files.find(slot);
    expect(found).toMatchObject({ mediaType: 'text/plain', filename: 'a.txt', size: 5, sha256 });
    expect(await files.describe(slot)).toEqual({ mediaType: 'text/plain', filename: 'a.txt', size: 5, sha256 });
    expect(found!.bytes.toString()).toBe('hello');
    expect(await files.find({ ...slot, item: 'two' })).toBeUndefined();
    expect(await files.find({ ...slot, field: 'other' })).toBeUndefined();
  });

  test("keeping a slot's files replaces what it held; several are kept in order", async () => {
    const files = make();
    const slot = { collection: 'documents', item: 'one', field: 'attachments' };
    await files.keep(slot, [file('a'), file('b'), file('c')]);
    await files.keep(slot, [file('x'), file('y')]);
    expect((await files.find(slot, 1))!.bytes.toString()).toBe('y');
    expect(await files.find(slot, 2)).toBeUndefined();
  });

  test("forgetting an item forgets its files, and only its own, whatever the names' characters", async () => {
    const files = make();
    const odd = { collection: 'documents', item: 'a","b', field: 'file' };
    const near = { collection: 'documents', item: 'a', field: '","b' };
    await files.keep(odd, [file('odd')]);
    await files.keep(near, [file('near')]);
    await files.forget({ collection: 'documents', item: 'a' });
    expect(await files.find(near)).toBeUndefined();
    expect((await files.find(odd))!.bytes.toString()).toBe('odd');
  });
});

/** An uploaded file as upload.ts hands it over: here from memory, not a spooled file. */
function uploaded(text: string, mediaType: string, filename: string): UploadedFile {
  const bytes = Buffer.from(text);
  return { field: 'file', filename, mediaType, size: bytes.length, path: '', stream: () => { throw new Error('not read as a stream'); }, bytes: async () => bytes };
}

const PLAN: FilePlan = {
  collection: 'documents',
  idParam: 'document_id',
  fileFields: ['file', 'attachments'],
  main: 'file',
  describedBy: { size: 'size', mediaType: 'media_type', filename: 'filename', sha256: 'sha256' },
  answers: ['application/pdf', 'image/*', 'text/plain'],
};

const documents = () => new MemoryCollection<Record<string, unknown>>({ type: 'documents', shape: 'flat', idParam: 'document_id', ids: 'uuid' });

describe('the default handlers with uploads', () => {
  test('a create keeps the fields and the files, the item described by its main file', async () => {
    const [items, files] = [documents(), new MemoryFiles()];
    const body = { title: 'T', file: uploaded('%PDF', 'application/pdf', 'r.pdf'), attachments: [uploaded('one', 'text/plain', '1.txt'), uploaded('two', 'text/plain', '2.txt')] };
    const created = await createWithFiles<Record<string, unknown>>(items, files, PLAN, { path: {}, body });
    expect(created).toMatchObject({ title: 'T', size: 4, media_type: 'application/pdf', filename: 'r.pdf', sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(created).not.toHaveProperty('file');
    const download = await fileOf(items, files, PLAN, { path: { document_id: created!.id } });
    expect(download).toMatchObject({ mediaType: 'application/pdf', filename: 'r.pdf', size: 4 });
    expect(String(download!.body)).toBe('%PDF');
    expect((await files.find({ collection: 'documents', item: String(created!.id), field: 'attachments' }, 1))!.bytes.toString()).toBe('two');
  });

  test('a file the client named nothing leaves the filename field alone; no file, no download', async () => {
    const [items, files] = [documents(), new MemoryFiles()];
    const created = await createWithFiles<Record<string, unknown>>(items, files, PLAN, { path: {}, body: { file: uploaded('x', 'text/plain', '') } });
    expect(created).not.toHaveProperty('filename');
    const bare = await createWithFiles<Record<string, unknown>>(items, files, PLAN, { path: {}, body: { title: 'no file' } });
    expect(await fileOf(items, files, PLAN, { path: { document_id: bare!.id } })).toBeUndefined();
    expect(await fileOf(items, files, PLAN, { path: { document_id: 'f7e0b8c2-0000-4000-8000-000000000000' } })).toBeUndefined();
  });

  test("a filename's control characters are kept as `_`: no text column holds a NUL", async () => {
    const [items, files] = [documents(), new SqlFiles(async () => db, 'files')];
    const created = await createWithFiles<Record<string, unknown>>(items, files, PLAN, { path: {}, body: { file: uploaded('x', 'text/plain', 'a\u0000b\nc.txt') } });
    expect(created).toMatchObject({ filename: 'a_b_c.txt' });
    expect((await fileOf(items, files, PLAN, { path: { document_id: created!.id } }))!.filename).toBe('a_b_c.txt');
  });

  test('a body that is the file is kept as the main file', async () => {
    const [items, files] = [documents(), new MemoryFiles()];
    const plan = { ...PLAN, fileFields: [], main: 'content' };
    const created = await createWithFiles<Record<string, unknown>>(items, files, plan, { path: {}, body: uploaded('raw', 'image/png', 'p.png') });
    expect(created).toMatchObject({ size: 3, media_type: 'image/png' });
    expect(String((await fileOf(items, files, plan, { path: { document_id: created!.id } }))!.body)).toBe('raw');
  });

  test('a replace keeps the new bytes and describes them; untyped bytes keep the type they replace', async () => {
    const [items, files] = [documents(), new MemoryFiles()];
    const created = await createWithFiles<Record<string, unknown>>(items, files, PLAN, { path: {}, body: { file: uploaded('%PDF', 'application/pdf', 'r.pdf') } });
    const path = { document_id: created!.id };
    const replaced = await replaceFile<Record<string, unknown>>(items, files, PLAN, { path, body: uploaded('longer bytes', 'application/octet-stream', '') });
    expect(replaced).toMatchObject({ size: 12, media_type: 'application/pdf', filename: 'r.pdf' });
    expect(String((await fileOf(items, files, PLAN, { path }))!.body)).toBe('longer bytes');
    await replaceFile(items, files, PLAN, { path, body: uploaded('png', 'image/png', 'p.png') });
    expect(await fileOf(items, files, PLAN, { path })).toMatchObject({ mediaType: 'image/png', filename: 'p.png' });
    await replaceFile(items, files, PLAN, { path, body: uploaded('unnamed', 'image/png', '') });
    expect(await fileOf(items, files, PLAN, { path })).toMatchObject({ filename: 'p.png', size: 7 });
    expect(await replaceFile(items, files, PLAN, { path: { document_id: 'f7e0b8c2-0000-4000-8000-000000000000' }, body: uploaded('x', 'text/plain', '') })).toBeUndefined();
  });

  test('a file kept under a type the download does not declare is answered as bytes of any kind, or as the one type declared', async () => {
    const [items, files] = [documents(), new MemoryFiles()];
    const created = await createWithFiles<Record<string, unknown>>(items, files, PLAN, { path: {}, body: { file: uploaded('x', 'application/zip', 'x.zip') } });
    const path = { document_id: created!.id };
    expect((await fileOf(items, files, { ...PLAN, answers: ['application/octet-stream', 'image/png'] }, { path }))!.mediaType).toBe('application/octet-stream');
    expect((await fileOf(items, files, { ...PLAN, answers: ['application/pdf'] }, { path }))!.mediaType).toBe('application/pdf');
    expect((await fileOf(items, files, { ...PLAN, answers: ['application/*'] }, { path }))!.mediaType).toBe('application/zip');
  });

  test('items named by a key field under two parents keep two files; the typed shape keys by its id', async () => {
    const assets = new MemoryCollection<Record<string, unknown>>({ type: 'assets', shape: 'flat', idParam: 'name', ids: 'uuid', scope: ['repo_id'], keyField: 'name' });
    const files = new MemoryFiles();
    const plan = { ...PLAN, idParam: 'name', owners: ['repo_id'] };
    for (const repo of [1, 2])
      await createWithFiles(assets, files, plan, { path: { repo_id: repo }, body: { name: 'logo', file: uploaded(`repo ${repo}`, 'text/plain', 'l.txt') } });
    expect(String((await fileOf(assets, files, plan, { path: { repo_id: 1, name: 'logo' } }))!.body)).toBe('repo 1');
    expect(String((await fileOf(assets, files, plan, { path: { repo_id: 2, name: 'logo' } }))!.body)).toBe('repo 2');
    await takeWithFiles(assets, files, plan, { path: { repo_id: 2, name: 'logo' } });
    expect(String((await fileOf(assets, files, plan, { path: { repo_id: 1, name: 'logo' } }))!.body)).toBe('repo 1');
    const typed = new MemoryCollection<Record<string, unknown>>({ type: 'documents', shape: 'typed', idParam: 'document_id', ids: 'integer' });
    const made = await Promise.all(['one', 'two'].map((text) => createWithFiles<{ id: string }>(typed, files, PLAN, { path: {}, body: { file: uploaded(text, 'text/plain', 'x.txt') } })));
    expect(String((await fileOf(typed, files, PLAN, { path: { document_id: Number(made[0]!.id) } }))!.body)).toBe('one');
  });

  test("deleting the item forgets its files", async () => {
    const [items, files] = [documents(), new MemoryFiles()];
    const created = await createWithFiles<Record<string, unknown>>(items, files, PLAN, { path: {}, body: { file: uploaded('%PDF', 'application/pdf', 'r.pdf') } });
    const path = { document_id: created!.id };
    expect(await takeWithFiles(items, files, PLAN, { path })).toMatchObject({ id: created!.id });
    expect(await files.find({ collection: 'documents', item: String(created!.id), field: 'file' })).toBeUndefined();
    expect(await takeWithFiles(items, files, PLAN, { path })).toBeUndefined();
  });

  test('files that cannot be kept leave no item behind', async () => {
    const items = documents();
    const failing: Files = { keep: async () => { throw new Error('disk full'); }, find: async () => undefined, describe: async () => undefined, forget: async () => {} };
    await expect(createWithFiles(items, failing, PLAN, { path: {}, body: { file: uploaded('x', 'text/plain', 'x.txt') } })).rejects.toThrow('disk full');
    expect((await items.list({ path: {}, list: { limit: 10, sort: [], filters: {} } as never }))!.items).toEqual([]);
  });
});
