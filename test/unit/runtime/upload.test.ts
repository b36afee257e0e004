/** Reading forms and raw bytes through a real Koa server: files spooled and deleted, 413/415/422/400, and a client that leaves mid-upload. */
import Koa from 'koa';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mediaTypeMatches, NO_BODY } from '../../../src/runtime/server/generated/conventions/body.js';
import { ApiError } from '../../../src/runtime/server/generated/conventions/errors.js';
import {
  readBytes,
  readForm,
  type FormRule,
  type UploadedFile,
} from '../../../src/runtime/server/generated/conventions/upload.js';
import { listen, type Listening } from '../../loopback.js';

const FORM: FormRule = {
  contentTypes: ['multipart/form-data', 'application/x-www-form-urlencoded'],
  files: [
    { name: 'photos', multiple: true, required: true, mediaTypes: ['image/*'] },
    { name: 'avatar', multiple: false, required: false, mediaTypes: [] },
  ],
  required: true,
  limit: 200,
};
const TEXT: FormRule = { contentTypes: ['application/x-www-form-urlencoded'], files: [], required: true, limit: 200 };

/** This test's own folder for spooled files: jest gives tests a copy of process.env, which os.tmpdir() does not read. */
let folder: string;
const limits = () => ({ fileSize: 1024, parts: 8, directory: folder });
let listening: Listening;
let server: Server;
let base: string;
/** What each request's reading ended with, by its `x-test` header. */
const outcomes = new Map<string, unknown>();

const describeFile = async (file: UploadedFile) => ({
  field: file.field,
  filename: file.filename,
  mediaType: file.mediaType,
  size: file.size,
  text: (await file.bytes()).toString('utf8'),
  spooled: file.path.startsWith(join(folder, 'upload-')) && existsSync(file.path),
});

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'specforge-upload-test-'));
  const app = new Koa();
  // Node reports a client that hangs up mid-body as a parse error of its connection, which Koa would log.
  app.on('error', (error: NodeJS.ErrnoException) => {
    if (!error.code?.startsWith('HPE_')) console.error(error);
  });
  app.use(async (ctx, next) => {
    try {
      await next();
      outcomes.set(ctx.get('x-test'), { status: ctx.status });
    } catch (error) {
      const outcome = error instanceof ApiError ? { status: error.status, code: error.code, message: error.message, details: error.details } : { status: 500, message: String(error) };
      outcomes.set(ctx.get('x-test'), outcome);
      ctx.status = outcome.status;
      ctx.body = outcome;
    }
  });
  app.use(async (ctx) => {
    if (ctx.path === '/bytes') {
      const file = await readBytes(ctx, { contentTypes: ['image/png', 'application/octet-stream'], required: true }, limits());
      ctx.body = file === NO_BODY ? { none: true } : await describeFile(file);
      return;
    }
    const body = await readForm(ctx, ctx.path === '/text' ? TEXT : FORM, limits());
    if (body === NO_BODY) {
      ctx.body = { none: true };
      return;
    }
    const files = await Promise.all(
      Object.entries(body.files).map(async ([name, value]) => [name, Array.isArray(value) ? await Promise.all(value.map(describeFile)) : await describeFile(value)]),
    );
    ctx.body = { fields: Object.entries(body.fields), files, prototypes: [Object.getPrototypeOf(body.fields), Object.getPrototypeOf(body.files)] };
  });
  listening = await listen(app);
  ({ server, base } = listening);
});

afterAll(async () => {
  await listening.close();
  await rm(folder, { recursive: true, force: true });
});

const spooled = async () => (await readdir(folder)).filter((name) => name.startsWith('upload-'));

/** Until no spooled file is left (they go once the answer is sent), or fails after a second. */
async function noneSpooled(): Promise<void> {
  for (let attempt = 0; attempt < 100 && (await spooled()).length > 0; attempt++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(await spooled()).toEqual([]);
}

// Whatever a test spooled is gone soon after its answer: the next test starts with none.
afterEach(noneSpooled);

async function post(path: string, body: FormData | URLSearchParams | Buffer | string, headers: Record<string, string> = {}) {
  const response = await fetch(`${base}${path}`, { method: 'POST', body, headers });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const image = (text: string, type = 'image/png') => new Blob([text], { type });

/** A multipart body written out by hand, for what FormData will not send. */
function multipart(boundary: string, parts: { name: string; filename?: string; type?: string; body: string }[], end = `--${boundary}--\r\n`): Buffer {
  const head = (part: (typeof parts)[number]) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"${part.filename === undefined ? '' : `; filename="${part.filename}"`}\r\n${part.type ? `Content-Type: ${part.type}\r\n` : ''}\r\n`;
  return Buffer.from(parts.map((part) => `${head(part)}${part.body}\r\n`).join('') + end);
}

describe('a valid form', () => {
  test('multipart: files of a multiple field in the order sent, text fields, a repeated field as an array; spooled, then deleted', async () => {
    const form = new FormData();
    form.append('title', 'Holiday');
    form.append('photos', image('x'.repeat(1024)), 'b-second-name.png'); // exactly the file limit
    form.append('tag', 'sea');
    form.append('photos', image('small', 'image/jpeg'), '../../etc/a-first-name.jpg');
    form.append('tag', 'sun');
    form.append('tag', 'sand');
    const { status, body } = await post('/form', form);
    expect(status).toBe(200);
    expect(body.fields).toEqual([
      ['title', 'Holiday'],
      ['tag', ['sea', 'sun', 'sand']],
    ]);
    expect(body.files).toEqual([
      [
        'photos',
        [
          { field: 'photos', filename: 'b-second-name.png', mediaType: 'image/png', size: 1024, text: 'x'.repeat(1024), spooled: true },
          { field: 'photos', filename: 'a-first-name.jpg', mediaType: 'image/jpeg', size: 5, text: 'small', spooled: true },
        ],
      ],
    ]);
    expect(body.prototypes).toEqual([null, null]);
    await noneSpooled();
  });

  test('a single-file field holds the file itself; filename* (RFC 7578) read as UTF-8', async () => {
    const form = new FormData();
    form.append('photos', image('p'), 'p.png');
    form.append('avatar', new Blob(['me'], { type: 'text/plain' }), 'Zoë.txt');
    const { status, body } = await post('/form', form);
    expect(status).toBe(200);
    expect((body.files as unknown[])[1]).toEqual(['avatar', { field: 'avatar', filename: 'Zoë.txt', mediaType: 'text/plain', size: 2, text: 'me', spooled: true }]);
  });

  test('urlencoded: fields, a repeated one as an array', async () => {
    const { status, body } = await post('/text', new URLSearchParams([['q', 'a b'], ['tag', '1'], ['tag', '2']]));
    expect(status).toBe(200);
    expect(body.fields).toEqual([
      ['q', 'a b'],
      ['tag', ['1', '2']],
    ]);
    expect(body.files).toEqual([]);
  });

  test('no body at all is NO_BODY (validation reports it if required)', async () => {
    expect(await post('/form', '', { 'content-type': 'multipart/form-data; boundary=x' })).toEqual({ status: 200, body: { none: true } });
  });

  test('field names that are Object.prototype members are plain keys, nothing polluted', async () => {
    const form = new URLSearchParams([['__proto__', 'p'], ['constructor', 'c'], ['toString', 't'], ['toString', 'u'], ['hasOwnProperty', 'h']]);
    const { status, body } = await post('/text', form);
    expect(status).toBe(200);
    expect(body.fields).toEqual([
      ['__proto__', 'p'],
      ['constructor', 'c'],
      ['toString', ['t', 'u']],
      ['hasOwnProperty', 'h'],
    ]);
    expect(({} as Record<string, unknown>).p).toBeUndefined();
    expect(Object.prototype.toString).toBeInstanceOf(Function);
  });

  test('a file part named like an Object.prototype member is an unexpected file, not a crash', async () => {
    const form = new FormData();
    form.append('photos', image('p'), 'p.png');
    form.append('toString', image('x'), 'x.png');
    form.append('__proto__', image('y'), 'y.png');
    const { status, body } = await post('/form', form);
    expect(status).toBe(422);
    expect(body.details).toEqual([
      { field: 'body.toString', message: 'takes no file', code: 'UNEXPECTED_FILE' },
      { field: 'body.__proto__', message: 'takes no file', code: 'UNEXPECTED_FILE' },
    ]);
  });
});

describe('refusals', () => {
  test('415: a request media type the operation does not take', async () => {
    const json = await post('/form', '{}', { 'content-type': 'application/json' });
    expect(json).toMatchObject({ status: 415, body: { code: 'UNSUPPORTED_MEDIA_TYPE' } });
    const form = new FormData();
    form.append('q', 'x');
    expect(await post('/text', form)).toMatchObject({ status: 415, body: { message: 'The request body must be application/x-www-form-urlencoded.' } });
  });

  test('415: a file whose media type its field does not take, naming the field', async () => {
    const form = new FormData();
    form.append('photos', new Blob(['<html>'], { type: 'text/html' }), 'p.html');
    expect(await post('/form', form)).toMatchObject({ status: 415, body: { message: 'The file in body.photos must be image/*.' } });
    expect(await spooled()).toEqual([]);
  });

  test('413: a file past the file limit, naming the field; its spooled part deleted', async () => {
    const form = new FormData();
    form.append('photos', image('x'.repeat(1025)), 'big.png');
    expect(await post('/form', form)).toMatchObject({ status: 413, body: { code: 'PAYLOAD_TOO_LARGE', message: 'The file in body.photos is larger than 1024 bytes.' } });
    expect(await spooled()).toEqual([]);
  });

  test('413: text fields together past the form limit', async () => {
    const form = new URLSearchParams([['a', 'x'.repeat(100)], ['b', 'y'.repeat(100)]]);
    expect(await post('/text', form)).toMatchObject({ status: 413, body: { message: "The form's text fields together is larger than 200 bytes." } });
    expect(await post('/text', new URLSearchParams([['a', 'x'.repeat(150)]]))).toMatchObject({ status: 200 });
  });

  test('413: more parts than the limit', async () => {
    const form = new FormData();
    form.append('photos', image('p'), 'p.png');
    for (let index = 0; index < 8; index++) form.append(`f${index}`, 'v');
    expect(await post('/form', form)).toMatchObject({ status: 413, body: { message: 'The form has more than 8 parts.' } });
    form.delete('f7');
    expect(await post('/form', form)).toMatchObject({ status: 200 });
  });

  test('413 at once from Content-Length, the body unread and the connection closed', async () => {
    const answer = await raw(`POST /form HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=B\r\nContent-Length: 10000000\r\n\r\n--B\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toMatch(/\r\nConnection: close\r\n/i);
  });

  test('413: a raw body past the file limit', async () => {
    expect(await post('/bytes', Buffer.alloc(1025), { 'content-type': 'image/png' })).toMatchObject({ status: 413 });
    expect(await spooled()).toEqual([]);
  });

  test('422: one detail per problem with the files', async () => {
    const form = new FormData();
    form.append('notes', new Blob(['n']), 'notes.txt'); // not a file field
    form.append('photos', 'not a file');
    form.append('avatar', image('1'), '1.png');
    form.append('avatar', image('2'), '2.png');
    form.append('avatar', image('3'), '3.png');
    const { status, body } = await post('/form', form);
    expect(status).toBe(422);
    expect(body.details).toEqual([
      { field: 'body.notes', message: 'takes no file', code: 'UNEXPECTED_FILE' },
      { field: 'body.photos', message: 'must be a file', code: 'NOT_A_FILE' },
      { field: 'body.avatar', message: 'takes one file', code: 'TOO_MANY_FILES' },
      { field: 'body.photos', message: 'is required', code: 'REQUIRED' },
    ]);
    expect(await spooled()).toEqual([]);
  });

  test('422: a required file missing from an urlencoded form', async () => {
    expect(await post('/form', new URLSearchParams([['title', 't']]))).toMatchObject({ status: 422, body: { details: [{ field: 'body.photos', code: 'REQUIRED' }] } });
  });

  test.each([
    { given: 'a malformed part header', body: '--B\r\nContent-Disposition form-data\r\n\r\nx\r\n--B--\r\n' },
    { given: 'a malformed part header in an unfinished form (busboy errs twice)', body: '--B\r\nContent-Disposition form-data\r\n\r\nx' },
    { given: 'a form cut short', body: '--B\r\nContent-Disposition: form-data; name="photos"; filename="a.png"\r\nContent-Type: image/png\r\n\r\nhalf' },
    { given: 'no closing boundary at all', body: 'just text' },
  ])('400 for $given, and the server still answers after', async ({ body }) => {
    const answer = await post('/form', body, { 'content-type': 'multipart/form-data; boundary=B' });
    expect(answer).toMatchObject({ status: 400, body: { code: 'BAD_REQUEST' } });
    expect((answer.body.message as string).startsWith('The request body is not a valid form')).toBe(true);
    const form = new FormData();
    form.append('photos', image('p'), 'p.png');
    expect((await post('/form', form)).status).toBe(200);
    await noneSpooled();
  });

  test('400 for a multipart type without a boundary', async () => {
    expect(await post('/form', 'x', { 'content-type': 'multipart/form-data' })).toMatchObject({ status: 400 });
  });
});

describe('raw bytes', () => {
  test('the body is the file: field `body`, no filename, its media type', async () => {
    const { status, body } = await post('/bytes', Buffer.from('PNG!'), { 'content-type': 'Image/PNG; x=1' });
    expect(status).toBe(200);
    expect(body).toEqual({ field: 'body', filename: '', mediaType: 'image/png', size: 4, text: 'PNG!', spooled: true });
    await noneSpooled();
  });

  test('415 for a media type the operation does not take', async () => {
    expect(await post('/bytes', 'x', { 'content-type': 'text/plain' })).toMatchObject({ status: 415 });
  });
});

describe('a client that leaves mid-upload', () => {
  test('gets clientGone, and every spooled file is deleted', async () => {
    const boundary = 'B';
    const head = multipart(boundary, [{ name: 'photos', filename: 'a.png', type: 'image/png', body: 'x'.repeat(10) }], '');
    const partial = Buffer.concat([
      head,
      Buffer.from(`--B\r\nContent-Disposition: form-data; name="photos"; filename="b.png"\r\nContent-Type: image/png\r\n\r\n`),
      Buffer.alloc(500, 'y'), // half of what Content-Length announces
    ]);
    const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(`POST /form HTTP/1.1\r\nHost: x\r\nx-test: gone\r\nContent-Type: multipart/form-data; boundary=B\r\nContent-Length: ${partial.length + 500}\r\n\r\n`);
    socket.write(partial);
    // Both files are being spooled before the client leaves.
    for (let attempt = 0; attempt < 200 && (await spooled()).length < 2; attempt++) await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await spooled()).length).toBe(2);
    socket.destroy();
    for (let attempt = 0; attempt < 200 && !outcomes.has('gone'); attempt++) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(outcomes.get('gone')).toMatchObject({ status: 400, message: 'The client closed the connection before the request body arrived.' });
    // Deleted before the reading rejected.
    expect(await spooled()).toEqual([]);
  });
});

describe('mediaTypeMatches', () => {
  test.each([
    ['image/png', ['image/png'], true],
    ['IMAGE/PNG; q=1', ['image/png'], true],
    ['image/png', ['image/*'], true],
    ['image/png', ['*/*'], true],
    ['image/png', ['image/jpeg', 'text/*'], false],
    ['image/png', ['*/png'], false],
    ['text/plain', [], false],
  ])('%s against %j: %s', (mediaType, patterns, matches) => {
    expect(mediaTypeMatches(mediaType, patterns)).toBe(matches);
  });
});

/** Sends `request` on a fresh connection and returns what comes back until the server closes it. */
function raw(request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect((server.address() as AddressInfo).port, '127.0.0.1', () => socket.write(request));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => resolve(answer));
  });
}
