/**
 * Files and event streams end to end (test/fixtures/valid/files.yaml): the
 * generated project with handlers a user would write
 * (test/fixtures/files/handlers/, an in-memory Map), compiled with tsc with a
 * program that uses the client in typed ways (test/fixtures/files/client-usage.ts),
 * started as `node dist/main.js`. Then: multipart uploads and their refusals
 * (422, 413, 415, 400), hostile part names and a client that leaves mid-file;
 * downloads with their headers and 304; bytes bodies; URL-encoded forms;
 * server-sent events read from the raw stream (resuming, keep-alive comments,
 * a client that leaves, SIGTERM during a stream); the compiled client in Node,
 * and bundled for a page in Chromium.
 *
 * The handlers print `[fixture] …` lines (what an upload received, that an
 * event stream's iterator was closed) that the tests wait for.
 */
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { FIXTURES, scratchDir } from '../helpers.js';
import { compile, generateService, linkDependencies, startService, type RunningService } from '../service.js';
import { launchChromium, requireChromium } from '../chromium.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- the client is imported from a generated project at run time */
type AnyModule = Record<string, any>;

const scratch = scratchDir();
const project = join(scratch.dir, 'files');
/** The main service's TMPDIR: where it spools uploaded files, so a test can see them come and go. */
const spool = join(scratch.dir, 'spool');
const TOKEN = 'files-token';
const AUTH = { authorization: `Bearer ${TOKEN}` };
const ENV = { API_TOKENS: TOKEN, STORE: 'memory', RATE_LIMIT: '100000', CURSOR_SECRET: 'test' };
/** The document id the fixture's events carry (test/fixtures/files/handlers/root.ts). */
const EVENT_DOCUMENT = '6a1f8a0e-2f0e-4c35-9a4c-3b0c1d2e3f40';

let service: RunningService;
let client: AnyModule;
const extraServices: RunningService[] = [];

beforeAll(async () => {
  await generateService(join(FIXTURES, 'valid/files.yaml'), project);
  linkDependencies(project);
  for (const name of ['documents', 'imports', 'root'])
    copyFileSync(join(FIXTURES, `files/handlers/${name}.ts`), join(project, `src/handlers/${name}.ts`));
  copyFileSync(join(FIXTURES, 'files/client-usage.ts'), join(project, 'src/client-usage.ts'));
  // The client's types are proven here: client-usage.ts's @ts-expect-error lines must each meet an error.
  expect(await compile(project)).toBe('');
  mkdirSync(spool);
  service = await startService(project, { ...ENV, UPLOAD_LIMIT: '1024', SSE_KEEP_ALIVE_MS: '100', TMPDIR: spool });
  client = await import(pathToFileURL(join(project, 'dist/client/index.js')).href);
});
afterAll(async () => {
  await Promise.all([service?.stop(), ...extraServices.map((extra) => extra.stop())]);
  scratch.cleanup();
});

interface Reply {
  status: number;
  headers: Headers;
  bytes: Uint8Array;
  body: any;
}

async function call(method: string, path: string, { body, headers = {} }: { body?: RequestInit['body']; headers?: Record<string, string> } = {}): Promise<Reply> {
  const response = await fetch(`${service.baseUrl}${path}`, { method, headers: { ...AUTH, ...headers }, ...(body === undefined ? {} : { body }) });
  const bytes = new Uint8Array(await response.arrayBuffer());
  const text = Buffer.from(bytes).toString('utf8');
  let parsed: unknown;
  if ((response.headers.get('content-type') ?? '').includes('json')) parsed = JSON.parse(text);
  return { status: response.status, headers: response.headers, bytes, body: parsed };
}

const upload = (form: FormData, headers: Record<string, string> = {}) => call('POST', '/documents', { body: form, headers });

/** A form with the required fields, and whatever `extra` adds. */
function documentForm(extra: (form: FormData) => void = () => {}, { title = 'A title', file = pdf() }: { title?: string | null; file?: Blob | null } = {}): FormData {
  const form = new FormData();
  if (title !== null) form.append('title', title);
  extra(form);
  if (file !== null) form.append('file', file, 'report.pdf');
  return form;
}

function pdf(size = 64): Blob {
  const bytes = new Uint8Array(size);
  bytes.set(Buffer.from('%PDF-1.4\n'));
  for (let index = 9; index < size; index++) bytes[index] = (index * 31) % 256;
  return new Blob([bytes], { type: 'application/pdf' });
}

/** Every byte value, after PNG's signature: a download must give them back exactly. */
const PIXELS = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...Array.from({ length: 256 }, (_, index) => 255 - index)]);

/** Waits until the service has printed something matching `pattern`. */
function printed(running: RunningService, pattern: string | RegExp, timeoutMs = 5000): Promise<string> {
  const find = () => {
    const output = running.output();
    if (typeof pattern !== 'string') return pattern.exec(output)?.[0];
    return output.includes(pattern) ? pattern : undefined;
  };
  const found = find();
  if (found !== undefined) return Promise.resolve(found);
  const streams = [running.process.stdout!, running.process.stderr!];
  return new Promise((resolve, reject) => {
    const check = () => {
      const match = find();
      if (match === undefined) return;
      finish();
      resolve(match);
    };
    const timer = setTimeout(() => {
      finish();
      reject(new Error(`the service did not print ${pattern} within ${timeoutMs} ms; it printed:\n${running.output()}`));
    }, timeoutMs);
    const finish = () => {
      clearTimeout(timer);
      for (const stream of streams) stream.off('data', check);
    };
    for (const stream of streams) stream.on('data', check);
  });
}

/** What the upload handler printed for the document `id`. */
async function uploadLog(id: string): Promise<any> {
  const line = await printed(service, new RegExp(`\\[fixture\\] upload (\\{"id":"${id}".*)`));
  return JSON.parse(line.slice('[fixture] upload '.length));
}

/** The upload-* files in the main service's spool. */
const spooled = () => readdirSync(spool).filter((name) => name.startsWith('upload-'));

/** Polls `condition` (something on disk: no event to wait for) every 20 ms until it holds. */
async function eventually(condition: () => boolean, what: string, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

interface RawEvent {
  id?: string;
  event?: string;
  data: string;
}

/** An event stream read from the raw bytes, as they come. */
class RawStream {
  text = '';
  ended = false;
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly decoder = new TextDecoder();

  constructor(
    readonly response: Response,
    private readonly controller: AbortController,
  ) {
    this.reader = response.body!.getReader();
  }

  /** Reads until `done(text)` holds (or the stream ends), within `timeoutMs`. */
  async until(done: (text: string) => boolean, timeoutMs = 5000): Promise<string> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`the stream did not get there within ${timeoutMs} ms; it sent:\n${this.text}`)), timeoutMs);
    });
    try {
      while (!done(this.text) && !this.ended) {
        const chunk = await Promise.race([this.reader.read(), timeout]);
        if (chunk.done) this.ended = true;
        else this.text += this.decoder.decode(chunk.value, { stream: true });
      }
      return this.text;
    } finally {
      clearTimeout(timer);
    }
  }

  events(): RawEvent[] {
    return parseRawEvents(this.text);
  }

  /** Leaves, as a browser tab that closes. */
  abort(): void {
    this.controller.abort();
  }
}

async function openStream(origin: RunningService, path: string, headers: Record<string, string> = {}, { credentials = true } = {}): Promise<RawStream> {
  const controller = new AbortController();
  const response = await fetch(`${origin.baseUrl}${path}`, { headers: { ...(credentials ? AUTH : {}), accept: 'text/event-stream', ...headers }, signal: controller.signal });
  return new RawStream(response, controller);
}

/** The events of complete blocks (comments and fields the tests do not use are left out). */
function parseRawEvents(text: string): RawEvent[] {
  const blocks = text.split('\n\n').slice(0, -1);
  const events: RawEvent[] = [];
  for (const block of blocks) {
    const event: Partial<RawEvent> = {};
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const [field, value] = [line.slice(0, colon), line.slice(colon + 2)];
      if (field === 'data') data.push(value);
      else if (field === 'id' || field === 'event') event[field] = value;
    }
    if (data.length > 0) events.push({ ...event, data: data.join('\n') });
  }
  return events;
}

const countEvents = (count: number) => (text: string) => parseRawEvents(text).length >= count;
/** At least `count` keep-alive comments after the last event. */
const commentsAfterEvents = (count: number) => (text: string) => {
  const tail = text.slice(text.lastIndexOf('data: ') + 1);
  return (tail.match(/(?<=^|\n):\n\n/g) ?? []).length >= count;
};

function change(id: string, kind: 'uploaded' | 'replaced') {
  return { id, event: 'change', data: JSON.stringify({ document_id: EVENT_DOCUMENT, change: kind }) };
}
const ALL_EVENTS = [change('1', 'uploaded'), change('2', 'replaced'), change('3', 'replaced')];

let streamTags = 0;
/** A tag of one stream: its handler prints it when its iterator is closed. */
const streamTag = () => `stream-${process.pid}-${++streamTags}`;

describe('multipart uploads', () => {
  test('a valid upload: fields coerced (pages, repeated tags, meta as JSON), files kept with their names and types, attachments in the order sent → 201', async () => {
    const first = `first:${'1'.repeat(900)}`; // larger than the second: written last, still listed first
    const form = documentForm(
      (form) => {
        form.append('pages', '3');
        form.append('tags', 'draft');
        form.append('tags', 'legal');
        form.append('meta', JSON.stringify({ author: 'Ada' }));
        form.append('attachments', new Blob([first], { type: 'text/plain' }), 'first.txt');
        form.append('attachments', new Blob(['second'], { type: 'text/plain' }), 'second.txt');
      },
      { title: 'Quarterly report', file: pdf(100) },
    );
    const reply = await upload(form);
    expect(reply.status).toBe(201);
    expect(reply.body.data).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      title: 'Quarterly report',
      pages: 3,
      tags: ['draft', 'legal'],
      size: 100,
      media_type: 'application/pdf',
      filename: 'report.pdf',
      attachments: 2,
    });
    const received = await uploadLog(reply.body.data.id);
    expect(received).toMatchObject({ pages: 3, tags: ['draft', 'legal'], meta: { author: 'Ada' } });
    expect(received.attachments).toEqual([
      { filename: 'first.txt', mediaType: 'text/plain', text: first },
      { filename: 'second.txt', mediaType: 'text/plain', text: 'second' },
    ]);

    // One value of an array field is still an array; the document is then listed.
    const single = await upload(documentForm((form) => form.append('tags', 'solo')));
    expect(single.body.data.tags).toEqual(['solo']);
    const listed = await call('GET', '/documents');
    expect(listed.body.data.map((document: { id: string }) => document.id)).toEqual(expect.arrayContaining([reply.body.data.id, single.body.data.id]));
  });

  test('a form without the required title → 422 with a detail for body.title', async () => {
    const reply = await upload(documentForm(() => {}, { title: null }));
    expect(reply.status).toBe(422);
    expect(reply.body.error.code).toBe('VALIDATION_ERROR');
    expect(reply.body.error.details).toEqual([expect.objectContaining({ field: 'body.title', code: 'REQUIRED' })]);
  });

  test('a form without the required file → 422 with a detail for body.file', async () => {
    const reply = await upload(documentForm(() => {}, { file: null }));
    expect(reply.status).toBe(422);
    expect(reply.body.error.details).toEqual([expect.objectContaining({ field: 'body.file', code: 'REQUIRED' })]);
  });

  test('a field that does not coerce (pages "three") → 422 for body.pages', async () => {
    const reply = await upload(documentForm((form) => form.append('pages', 'three')));
    expect(reply.status).toBe(422);
    expect(reply.body.error.details.map((detail: { field: string }) => detail.field)).toContain('body.pages');
  });

  test("the schema's bounds hold for file fields too: six attachments where maxItems is 5 → 422 for body.attachments", async () => {
    const reply = await upload(documentForm((form) => {
      for (let n = 0; n < 6; n++) form.append('attachments', new Blob([`note ${n}`], { type: 'text/plain' }), `note-${n}.txt`);
    }));
    expect(reply.status).toBe(422);
    expect(reply.body.error.details).toEqual([expect.objectContaining({ field: 'body.attachments' })]);
  });

  test('a file over UPLOAD_LIMIT (1024 bytes) → 413', async () => {
    const reply = await upload(documentForm(() => {}, { file: pdf(2048) }));
    expect(reply.status).toBe(413);
    expect(reply.body.error).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', message: expect.stringContaining('body.file') });
  });

  test('a file of a media type the field does not declare (image/gif) → 415 naming the field', async () => {
    const reply = await upload(documentForm(() => {}, { file: new Blob(['GIF89a'], { type: 'image/gif' }) }));
    expect(reply.status).toBe(415);
    expect(reply.body.error).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', message: expect.stringContaining('body.file') });
  });

  test('a request media type the operation does not declare (JSON) → 415', async () => {
    const reply = await call('POST', '/documents', { body: JSON.stringify({ title: 'x' }), headers: { 'content-type': 'application/json' } });
    expect(reply.status).toBe(415);
    expect(reply.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  test('a malformed multipart body → 400 (a body without its boundary, a type without one)', async () => {
    const garbage = await call('POST', '/documents', { body: 'this is not a form', headers: { 'content-type': 'multipart/form-data; boundary=nowhere' } });
    expect(garbage.status).toBe(400);
    expect(garbage.body.error.code).toBe('BAD_REQUEST');
    const noBoundary = await call('POST', '/documents', { body: 'x', headers: { 'content-type': 'multipart/form-data' } });
    expect(noBoundary.status).toBe(400);
  });

  test('hostile part names (__proto__, constructor, toString) do not crash the service: as text fields they pass, as files they are refused (422)', async () => {
    const texts = await upload(
      documentForm((form) => {
        for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) form.append(name, `{"polluted":true}`);
      }),
    );
    expect(texts.status).toBe(201);
    const files = await upload(
      documentForm((form) => {
        form.append('__proto__', new Blob(['x'], { type: 'text/plain' }), 'proto.txt');
        form.append('constructor', new Blob(['y'], { type: 'text/plain' }), 'constructor.txt');
      }),
    );
    expect(files.status).toBe(422);
    expect(files.body.error.details).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: 'body.__proto__', code: 'UNEXPECTED_FILE' }),
        expect.objectContaining({ field: 'body.constructor', code: 'UNEXPECTED_FILE' }),
      ]),
    );
    // The service still answers, and an ordinary upload still works.
    expect(service.process.exitCode).toBeNull();
    expect((await call('GET', '/documents')).status).toBe(200);
    expect((await upload(documentForm())).status).toBe(201);
  });

  test('a client that sends half a file and leaves: the service answers afterwards and its temporary file is deleted', async () => {
    const { host, hostname, port, pathname } = new URL(service.baseUrl);
    const boundary = 'specforge-half-a-file';
    const head =
      `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nHalf\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="half.pdf"\r\nContent-Type: application/pdf\r\n\r\n`;
    const file = Buffer.alloc(800, 0x41);
    const tail = `\r\n--${boundary}--\r\n`;
    const length = Buffer.byteLength(head) + file.length + Buffer.byteLength(tail);
    const socket = connect({ host: hostname, port: Number(port) });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    socket.on('error', () => {}); // the destroy below may race an answer
    socket.write(
      `POST ${pathname}/documents HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${TOKEN}\r\n` +
        `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${length}\r\n\r\n`,
    );
    socket.write(head);
    socket.write(file.subarray(0, 400));
    // The service has started spooling the file: then the client goes.
    await eventually(() => spooled().length > 0, 'the half file is spooled');
    socket.destroy();
    await eventually(() => spooled().length === 0, 'the half file is deleted once the client left');
    expect(service.process.exitCode).toBeNull();
    expect((await call('GET', '/documents')).status).toBe(200);
    expect((await upload(documentForm())).status).toBe(201);
    // Nothing the uploads above spooled is left behind either.
    await eventually(() => spooled().length === 0, 'every upload-* file is deleted');
  });
});

describe('downloads and bytes bodies', () => {
  let id: string;
  beforeAll(async () => {
    const form = documentForm(() => {}, { file: null });
    form.append('file', new Blob([PIXELS], { type: 'image/png' }), 'pixels.png');
    const reply = await upload(form);
    expect(reply.status).toBe(201);
    id = reply.body.data.id;
  });

  test('the bytes as uploaded, with Content-Type, Content-Disposition and an ETag; If-None-Match → 304 with no body', async () => {
    const reply = await call('GET', `/documents/${id}/content`);
    expect(reply.status).toBe(200);
    expect(reply.bytes).toEqual(PIXELS);
    expect(reply.headers.get('content-type')).toBe('image/png');
    expect(reply.headers.get('content-length')).toBe(String(PIXELS.length));
    expect(reply.headers.get('content-disposition')).toBe('attachment; filename="pixels.png"');
    const etag = reply.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await call('GET', `/documents/${id}/content`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.bytes.length).toBe(0);
    expect(again.headers.get('etag')).toBe(etag);
  });

  test('an unknown document → 404 in the error envelope', async () => {
    const reply = await call('GET', '/documents/00000000-0000-4000-8000-000000000000/content');
    expect(reply.status).toBe(404);
    expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
    expect(reply.body.error).toMatchObject({ code: 'RESOURCE_NOT_FOUND', request_id: expect.any(String) });
  });

  test('PUT application/octet-stream replaces the bytes: the download then gives the new ones, under a new ETag', async () => {
    const before = (await call('GET', `/documents/${id}/content`)).headers.get('etag')!;
    const replacement = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3, 254, 255]);
    const put = await call('PUT', `/documents/${id}/content`, { body: replacement, headers: { 'content-type': 'application/octet-stream' } });
    expect(put.status).toBe(204);
    const after = await call('GET', `/documents/${id}/content`, { headers: { 'if-none-match': before } });
    expect(after.status).toBe(200);
    expect(after.bytes).toEqual(replacement);
    expect(after.headers.get('content-type')).toBe('image/png');
    expect(after.headers.get('etag')).not.toBe(before);
    expect((await call('GET', `/documents/${id}`)).body.data.size).toBe(replacement.length);
    // A body of another media type → 415; an unknown document → 404.
    expect((await call('PUT', `/documents/${id}/content`, { body: 'x', headers: { 'content-type': 'application/json' } })).status).toBe(415);
    const missing = await call('PUT', '/documents/00000000-0000-4000-8000-000000000000/content', { body: replacement, headers: { 'content-type': 'application/octet-stream' } });
    expect(missing.status).toBe(404);
  });

  test('a URL-encoded form: dry_run filled with its default, or coerced from text; source required', async () => {
    const defaulted = await call('POST', '/imports', { body: new URLSearchParams({ source: 's3://bucket/key' }) });
    expect(defaulted.status).toBe(201);
    expect(defaulted.body.data).toEqual({ id: expect.any(String), source: 's3://bucket/key', dry_run: false });
    const dry = await call('POST', '/imports', { body: new URLSearchParams({ source: 'x', dry_run: 'true' }) });
    expect(dry.body.data.dry_run).toBe(true);
    const missing = await call('POST', '/imports', { body: new URLSearchParams({ dry_run: 'true' }) });
    expect(missing.status).toBe(422);
    expect(missing.body.error.details).toEqual([expect.objectContaining({ field: 'body.source' })]);
  });
});

describe('server-sent events', () => {
  test('GET /events: text/event-stream, three typed events with ids, then the stream stays open', async () => {
    const stream = await openStream(service, '/events');
    try {
      expect(stream.response.status).toBe(200);
      expect(stream.response.headers.get('content-type')).toMatch(/^text\/event-stream/);
      expect(stream.response.headers.get('cache-control')).toBe('no-cache');
      await stream.until(countEvents(3));
      expect(stream.events()).toEqual(ALL_EVENTS);
      // Still open after them: keep-alive comments follow, no other event.
      await stream.until(commentsAfterEvents(2));
      expect(stream.ended).toBe(false);
      expect(stream.events()).toHaveLength(3);
    } finally {
      stream.abort();
    }
  });

  test('Last-Event-ID: 1 → only events 2 and 3', async () => {
    const stream = await openStream(service, '/events', { 'last-event-id': '1' });
    try {
      await stream.until(countEvents(2));
      await stream.until(commentsAfterEvents(2)); // nothing more comes
      expect(stream.events()).toEqual(ALL_EVENTS.slice(1));
    } finally {
      stream.abort();
    }
  });

  test('an idle stream gets a keep-alive comment every SSE_KEEP_ALIVE_MS (100 ms here, 15 s by default)', async () => {
    const stream = await openStream(service, '/events', { 'last-event-id': '3' });
    try {
      const started = Date.now();
      // The first comment opens the stream; the next ones are the keep-alives.
      const text = await stream.until((text) => text.startsWith(':\n\n:\n\n:\n\n'), 3000);
      expect(Date.now() - started).toBeLessThan(3000);
      expect(parseRawEvents(text)).toEqual([]);
    } finally {
      stream.abort();
    }
  });

  test("a client that leaves: the handler's signal aborts and its iterator's finally runs", async () => {
    const tag = streamTag();
    const stream = await openStream(service, '/events', { 'x-test-stream': tag });
    await stream.until(countEvents(3));
    expect(service.output()).not.toContain(`events closed ${tag}`);
    stream.abort();
    await printed(service, `[fixture] events closed ${tag}`);
    expect((await call('GET', '/documents')).status).toBe(200);
  });

  test('GET /ticks (text data, no credentials needed) streams until the client leaves', async () => {
    const stream = await openStream(service, '/ticks', {}, { credentials: false });
    try {
      expect(stream.response.status).toBe(200);
      await stream.until(countEvents(3));
      expect(stream.events().slice(0, 3)).toEqual([{ data: 'tick 1' }, { data: 'tick 2' }, { data: 'tick 3' }]);
    } finally {
      stream.abort();
    }
  });

  test('SIGTERM while a /ticks stream is open: the stream ends at once and the process exits 0, well within SHUTDOWN_GRACE_MS', async () => {
    const stopping = await startService(project, { ...ENV, SHUTDOWN_GRACE_MS: '5000' });
    extraServices.push(stopping);
    const stream = await openStream(stopping, '/ticks');
    await stream.until(countEvents(2));
    const started = Date.now();
    // Read to its end while the service stops: the service ends the stream itself.
    const streamEnded = stream.until(() => false, 4000).then(() => Date.now() - started);
    const code = await stopping.stop();
    const elapsed = Date.now() - started;
    expect(code).toBe(0);
    expect(elapsed).toBeLessThan(4000);
    expect(await streamEnded).toBeLessThan(1000);
    expect(stream.ended).toBe(true);
    expect(stopping.output()).toContain('SIGTERM: finishing requests in flight');
    expect(stopping.output()).not.toMatch(/Requests still open/);
  });

  // A client that keeps its connection (a browser, this raw socket) must not hold the shutdown for
  // the grace period: the connection of a response already under way is ended once it finishes.
  // (fetch drops its idle socket after 3 s by itself, so the test above cannot tell.)
  test('SIGTERM with a stream whose client keeps its connection: the service closes it and exits 0 at once', async () => {
    const holding = await startService(project, { ...ENV, SHUTDOWN_GRACE_MS: '3000', KEEP_ALIVE_TIMEOUT_MS: '60000' });
    extraServices.push(holding);
    const { hostname, port, pathname } = new URL(holding.baseUrl);
    const socket = connect({ host: hostname, port: Number(port) });
    let received = '';
    let closedAfter: number | undefined;
    let started = 0;
    socket.on('data', (chunk) => (received += chunk.toString('utf8')));
    socket.on('end', () => (closedAfter = Date.now() - started));
    socket.on('error', () => {});
    socket.write(`GET ${pathname}/ticks HTTP/1.1\r\nHost: ${hostname}\r\nAccept: text/event-stream\r\n\r\n`);
    try {
      await eventually(() => (received.match(/data: tick/g) ?? []).length >= 2, 'two ticks on the raw socket');
      started = Date.now();
      const code = await holding.stop();
      const elapsed = Date.now() - started;
      expect(received).toMatch(/\r\n0\r\n\r\n$/); // the stream's last chunk did go out
      expect({ code, closedByService: closedAfter !== undefined && closedAfter < 1000 }).toEqual({ code: 0, closedByService: true });
      expect(elapsed).toBeLessThan(1000);
    } finally {
      socket.destroy();
    }
  });
});

describe('the client in Node (compiled dist/client)', () => {
  const api = (): AnyModule => client.createClient({ baseUrl: service.baseUrl, token: TOKEN, retry: false });
  const bytesOf = async (blob: Blob) => new Uint8Array(await blob.arrayBuffer());

  test('upload with a Blob and fields; download as a Blob (bytes and type) and as a stream; bytes body replaces it', async () => {
    const file = pdf(200);
    const document = await api().uploadDocument({
      body: { title: 'From Node', file, pages: 7, tags: ['x', 'y'], meta: { author: 'Grace' }, attachments: [new Blob(['a']), new Blob(['b'])] },
    });
    expect(document).toMatchObject({ title: 'From Node', pages: 7, tags: ['x', 'y'], size: 200, media_type: 'application/pdf', filename: 'blob', attachments: 2 });
    expect((await uploadLog(document.id)).meta).toEqual({ author: 'Grace' });

    const blob: Blob = await api().downloadDocumentContent({ document_id: document.id });
    expect(blob.type).toBe('application/pdf');
    expect(await bytesOf(blob)).toEqual(await bytesOf(file));

    const stream: ReadableStream<Uint8Array> = await api().downloadDocumentContent({ document_id: document.id, parseAs: 'stream' });
    const chunks: Uint8Array[] = [];
    for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) chunks.push(chunk);
    expect(new Uint8Array(Buffer.concat(chunks))).toEqual(await bytesOf(file));

    const withResponse = await api().downloadDocumentContent.withResponse({ document_id: document.id });
    expect(withResponse.status).toBe(200);
    expect(withResponse.headers.get('content-disposition')).toBe('attachment; filename="blob"');

    await api().replaceDocumentContent({ document_id: document.id, body: new Uint8Array([1, 2, 3]) });
    expect(await bytesOf(await api().downloadDocumentContent({ document_id: document.id }))).toEqual(new Uint8Array([1, 2, 3]));
  });

  test('a 422 is an ApiError with the details', async () => {
    const failing = api().uploadDocument({ body: { file: pdf() } });
    await expect(failing).rejects.toBeInstanceOf(client.ApiError);
    await expect(failing).rejects.toMatchObject({ status: 422, code: 'VALIDATION_ERROR', details: [expect.objectContaining({ field: 'body.title' })] });
    await expect(api().downloadDocumentContent({ document_id: '00000000-0000-4000-8000-000000000000' })).rejects.toMatchObject({ status: 404, code: 'RESOURCE_NOT_FOUND' });
  });

  test('events: three typed events, iterated; `break` closes the connection; resumed after lastEventId', async () => {
    const tag = streamTag();
    const seen: any[] = [];
    for await (const event of api().streamEvents({ headers: { 'x-test-stream': tag } })) {
      seen.push(event);
      if (seen.length === 3) break;
    }
    expect(seen.map((event) => [event.id, event.event, event.data.change])).toEqual([
      ['1', 'change', 'uploaded'],
      ['2', 'change', 'replaced'],
      ['3', 'change', 'replaced'],
    ]);
    expect(seen[0].data).toEqual({ document_id: EVENT_DOCUMENT, change: 'uploaded' });
    await printed(service, `[fixture] events closed ${tag}`);

    const resumed: any[] = [];
    for await (const event of api().streamEvents({ lastEventId: '1' })) {
      resumed.push(event);
      if (event.id === '3') break;
    }
    expect(resumed.map((event) => event.id)).toEqual(['2', '3']);
  });

  test('the typed program (client-usage.ts) that the compile proved also runs', async () => {
    const usage: AnyModule = await import(pathToFileURL(join(project, 'dist/client-usage.js')).href);
    const report = await usage.clientUsage(service.baseUrl, TOKEN);
    const expected = [0x25, 0x50, 0x44, 0x46, 0x2d, 0x31];
    expect(report).toEqual({
      id: expect.any(String),
      size: 6,
      mediaType: 'application/pdf',
      downloaded: expected,
      streamed: expected,
      changes: ['replaced', 'replaced'],
      ticks: ['tick 1', 'tick 2'],
      dryRun: false,
      missingTitle: 422,
    });
  });
});

const chromiumAvailable = await requireChromium();

chromiumAvailable.describe('the client in Chromium (bundled with esbuild, served on the service origin)', () => {
  test('a page uploads a File it built, downloads it to a Blob (same bytes and type), and reads the three events', async () => {
    const { build } = await import('esbuild');
    const bundle = await build({
      entryPoints: [join(project, 'dist/client/index.js')],
      bundle: true,
      format: 'iife',
      globalName: 'Documents',
      platform: 'browser',
      target: 'es2022',
      write: false,
      logLevel: 'silent',
    });
    const script = bundle.outputFiles[0]!.text;
    expect(script).not.toMatch(/require\(["']node:/); // nothing of Node's in the browser bundle

    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      // The page and the bundle, on the service's own origin: the API calls are same-origin, no CORS.
      const pageUrl = `${service.origin}/__files-test/index.html`;
      await page.route(pageUrl, (route) =>
        route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: '<!doctype html><meta charset="utf-8"><title>files</title><script src="client.js"></script>' }),
      );
      await page.route(`${service.origin}/__files-test/client.js`, (route) => route.fulfill({ status: 200, contentType: 'text/javascript; charset=utf-8', body: script }));
      await page.goto(pageUrl);

      const result = await page.evaluate(
        async ({ baseUrl, token }) => {
          const { createClient } = (globalThis as any).Documents;
          const api = createClient({ baseUrl, token, retry: false });
          const bytes = Uint8Array.from({ length: 300 }, (_, index) => (index * 7 + 3) % 256);
          const file = new File([bytes], 'page.png', { type: 'image/png' });
          const document = await api.uploadDocument({ body: { title: 'From the page', file, tags: ['browser'] } });
          const downloaded = await api.downloadDocumentContent.withResponse({ document_id: document.id });
          const blob: Blob = downloaded.data;
          const back = new Uint8Array(await blob.arrayBuffer());
          const events: { id?: string; event?: string; data: { change: string } }[] = [];
          for await (const event of api.streamEvents({})) {
            events.push(event);
            if (events.length === 3) break;
          }
          return {
            document,
            sent: [...bytes],
            back: [...back],
            type: blob.type,
            disposition: downloaded.headers.get('content-disposition'),
            events: events.map((event) => [event.id, event.event, event.data.change]),
          };
        },
        { baseUrl: service.baseUrl, token: TOKEN },
      );
      expect(errors).toEqual([]);
      expect(result.document).toMatchObject({ title: 'From the page', tags: ['browser'], size: 300, media_type: 'image/png', filename: 'page.png', attachments: 0 });
      expect(result.back).toEqual(result.sent);
      expect(result.type).toBe('image/png');
      expect(result.disposition).toBe('attachment; filename="page.png"');
      expect(result.events).toEqual([
        ['1', 'change', 'uploaded'],
        ['2', 'change', 'replaced'],
        ['3', 'change', 'replaced'],
      ]);
    } finally {
      await browser.close();
    }
  });
});
