/** Request bodies by encoding, read back as a server would read them (a `Response` over the same body). */
import { encodeBody } from '../../../src/runtime/client/bodies.js';

/** The body as it travels: what fetch would send, with the content type encodeBody chose (or fetch's own). */
function received(encoded: ReturnType<typeof encodeBody>): Response {
  return new Response(encoded.body as RequestInit['body'], encoded.contentType ? { headers: { 'content-type': encoded.contentType } } : {});
}

describe('json', () => {
  test('JSON text as application/json, byte for byte what JSON.stringify writes', async () => {
    const encoded = encodeBody({ title: 'Dune', tags: ['sf'], skipped: undefined }, 'json');
    expect(encoded).toEqual({ body: '{"title":"Dune","tags":["sf"]}', contentType: 'application/json' });
  });

  test("the operation's JSON media type where it names one", () => {
    expect(encodeBody({ title: null }, 'json', 'application/merge-patch+json').contentType).toBe('application/merge-patch+json');
  });
});

describe('multipart', () => {
  test('fields as text, arrays repeated, objects as JSON, null and undefined left out', async () => {
    const when = new Date('2024-05-01T12:00:00Z');
    const encoded = encodeBody(
      { title: 'Dune', pages: 412, draft: false, tags: ['sf', 'classic', null], meta: { a: [1] }, when, none: null, gone: undefined },
      'multipart',
    );
    expect(encoded.contentType).toBeUndefined(); // fetch writes it, with the boundary
    const response = received(encoded);
    expect(response.headers.get('content-type')).toMatch(/^multipart\/form-data; boundary=/);
    const form = await response.formData();
    expect([...form.keys()]).toEqual(['title', 'pages', 'draft', 'tags', 'tags', 'meta', 'when']);
    expect(form.get('pages')).toBe('412');
    expect(form.get('draft')).toBe('false');
    expect(form.getAll('tags')).toEqual(['sf', 'classic']);
    expect(form.get('meta')).toBe('{"a":[1]}');
    expect(form.get('when')).toBe('2024-05-01T12:00:00.000Z');
  });

  test('a File keeps its name and type; a bare Blob is named blob; bytes become a file part', async () => {
    const cover = new File([Uint8Array.of(0x89, 0x50, 0x4e, 0x47)], 'cover.png', { type: 'image/png' });
    const notes = new Blob(['some notes'], { type: 'text/plain' });
    const form = await received(
      encodeBody({ cover, notes, raw: Uint8Array.of(1, 2, 3), pages: [new Blob(['p1']), new Blob(['p2'])] }, 'multipart'),
    ).formData();
    const file = form.get('cover') as File;
    expect(file.name).toBe('cover.png');
    expect(file.type).toBe('image/png');
    expect([...new Uint8Array(await file.arrayBuffer())]).toEqual([0x89, 0x50, 0x4e, 0x47]);
    const blob = form.get('notes') as File;
    expect(blob.name).toBe('blob');
    expect(blob.type).toBe('text/plain');
    expect(await blob.text()).toBe('some notes');
    expect([...new Uint8Array(await (form.get('raw') as File).arrayBuffer())]).toEqual([1, 2, 3]);
    expect(await Promise.all(form.getAll('pages').map((page) => (page as File).text()))).toEqual(['p1', 'p2']);
  });

  test("a caller's FormData is sent as it is", () => {
    const form = new FormData();
    expect(encodeBody(form, 'multipart').body).toBe(form);
  });

  test('what is not an object of fields is a TypeError', () => {
    expect(() => encodeBody('title=Dune', 'multipart')).toThrow(new TypeError('A multipart body is an object of fields, not a string.'));
    expect(() => encodeBody([1], 'multipart')).toThrow(TypeError);
    expect(() => encodeBody({ file: new Blob(['x']).stream() }, 'multipart')).toThrow(/cannot be a stream/);
  });
});

describe('urlencoded', () => {
  test('the same rules as a form, as application/x-www-form-urlencoded', async () => {
    const encoded = encodeBody({ q: 'a b&c', n: 1, tags: ['x', 'y'], filter: { on: true }, none: null }, 'urlencoded');
    expect(encoded.contentType).toBe('application/x-www-form-urlencoded');
    const response = received(encoded);
    expect(await response.clone().text()).toBe('q=a+b%26c&n=1&tags=x&tags=y&filter=%7B%22on%22%3Atrue%7D');
    const form = await response.formData();
    expect(form.get('q')).toBe('a b&c');
    expect(form.getAll('tags')).toEqual(['x', 'y']);
  });

  test("a caller's URLSearchParams is sent as it is", () => {
    const params = new URLSearchParams('a=1');
    expect(encodeBody(params, 'urlencoded').body).toBe(params);
  });

  test('a file is a TypeError: it needs multipart', () => {
    expect(() => encodeBody({ cover: new Blob(['x']) }, 'urlencoded')).toThrow(
      new TypeError('The URL-encoded field cover is a file; a form with files is sent as multipart/form-data.'),
    );
    expect(() => encodeBody(new FormData(), 'urlencoded')).toThrow(/not a FormData/);
  });
});

describe('bytes', () => {
  test('a Blob, an ArrayBuffer, a typed array, a DataView, a stream and a string are sent as they are', () => {
    const blob = new Blob(['x']);
    const buffer = new ArrayBuffer(2);
    const array = Uint8Array.of(1);
    const view = new DataView(buffer);
    const stream = new Blob(['x']).stream();
    for (const body of [blob, buffer, array, view, stream, 'text']) expect(encodeBody(body, 'bytes', 'application/octet-stream').body).toBe(body);
  });

  test("the operation's media type, unless it is a wildcard: then the Blob's type, else application/octet-stream", async () => {
    const png = new Blob([Uint8Array.of(1, 2)], { type: 'image/png' });
    expect(encodeBody(png, 'bytes', 'image/webp').contentType).toBe('image/webp');
    expect(encodeBody(png, 'bytes', 'image/*').contentType).toBe('image/png');
    expect(encodeBody(png, 'bytes', '*/*').contentType).toBe('image/png');
    expect(encodeBody(png, 'bytes').contentType).toBe('image/png');
    expect(encodeBody(new Blob(['x']), 'bytes', 'image/*').contentType).toBe('application/octet-stream');
    expect(encodeBody(Uint8Array.of(1), 'bytes', '*/*').contentType).toBe('application/octet-stream');
    const response = received(encodeBody(png, 'bytes', 'image/*'));
    expect(response.headers.get('content-type')).toBe('image/png');
    expect([...new Uint8Array(await response.arrayBuffer())]).toEqual([1, 2]);
  });

  test('anything else is a TypeError', () => {
    expect(() => encodeBody({ data: [1, 2] }, 'bytes')).toThrow(TypeError);
    expect(() => encodeBody([1, 2], 'bytes')).toThrow(/not an array/);
    expect(() => encodeBody(42, 'bytes')).toThrow(/not a number/);
  });
});
