/** How a body and an answer travel, read from their media types (openapi/media.ts). */
import { answerMediaOf, bodyMediaOf, essenceOf } from '../../src/openapi/media.js';
import type { MediaTypeObject, OpenApiDocument, SchemaObject } from '../../src/openapi/document.js';

const ATTACHMENT: SchemaObject = { type: 'string', format: 'binary' };

function doc(schemas: Record<string, SchemaObject> = {}): OpenApiDocument {
  return { openapi: '3.1.0', info: { title: 'T', version: '1.0.0' }, paths: {}, components: { schemas: { Attachment: ATTACHMENT, ...schemas } } };
}

const body = (content: Record<string, MediaTypeObject>, document = doc()) => bodyMediaOf(document, content);
const answer = (content: Record<string, MediaTypeObject> | undefined, document = doc()) => answerMediaOf(document, content);

describe('request bodies', () => {
  test('JSON wins where it is one of the choices', () => {
    expect(body({ 'multipart/form-data': { schema: { type: 'object' } }, 'application/merge-patch+json': { schema: { type: 'object' } } })).toEqual({
      kind: 'json',
      mediaType: 'application/merge-patch+json',
    });
  });

  test('a multipart form: its file fields, single and several, required or not, with the types their encoding allows', () => {
    const media = body({
      'multipart/form-data': {
        schema: {
          type: 'object',
          required: ['file', 'title'],
          properties: {
            title: { type: 'string' },
            file: { type: 'string', format: 'binary' },
            pictures: { type: 'array', items: { $ref: '#/components/schemas/Attachment' } },
            avatar: { type: 'string', contentMediaType: 'image/png' },
            encoded: { type: 'string', contentMediaType: 'image/png', contentEncoding: 'base64' },
            meta: { type: 'object', properties: { author: { type: 'string' } } },
            notes: { type: 'array', items: { type: 'object' } },
            tags: { type: 'array', items: { type: 'string' } },
          },
        },
        encoding: { file: { contentType: 'application/pdf, image/*' } },
      },
    });
    expect(media).toEqual({
      kind: 'form',
      mediaTypes: ['multipart/form-data'],
      schemaMediaType: 'multipart/form-data',
      files: [
        { name: 'file', multiple: false, required: true, mediaTypes: ['application/pdf', 'image/*'] },
        { name: 'pictures', multiple: true, required: false, mediaTypes: [] },
        { name: 'avatar', multiple: false, required: false, mediaTypes: ['image/png'] },
      ],
      // base64 text is a field, not a file; scalar arrays are repeated fields, not JSON.
      jsonFields: ['meta', 'notes'],
    });
  });

  test('a urlencoded form carries no files: a binary field there is text', () => {
    const media = body({ 'application/x-www-form-urlencoded': { schema: { type: 'object', properties: { file: ATTACHMENT, name: { type: 'string' } } } } });
    expect(media).toMatchObject({ kind: 'form', mediaTypes: ['application/x-www-form-urlencoded'], files: [], jsonFields: [] });
  });

  test('both form media types: multipart first, and its schema describes the form', () => {
    const media = body({
      'application/x-www-form-urlencoded': { schema: { type: 'object', properties: { name: { type: 'string' } } } },
      'multipart/form-data; charset=utf-8': { schema: { type: 'object', properties: { name: { type: 'string' }, file: ATTACHMENT } } },
    });
    expect(media).toMatchObject({ mediaTypes: ['multipart/form-data; charset=utf-8', 'application/x-www-form-urlencoded'], schemaMediaType: 'multipart/form-data; charset=utf-8', files: [{ name: 'file' }] });
  });

  test.each([
    ['a binary string', { 'application/octet-stream': { schema: ATTACHMENT } }, ['application/octet-stream']],
    ['no schema', { 'image/png': {} }, ['image/png']],
    ['several types, by reference', { 'image/png': { schema: { $ref: '#/components/schemas/Attachment' } }, 'image/jpeg': {} }, ['image/png', 'image/jpeg']],
  ])('bytes: %s', (_name, content, mediaTypes) => {
    expect(body(content as Record<string, MediaTypeObject>)).toEqual({ kind: 'bytes', mediaTypes });
  });

  test('a body the service does not parse (XML with an object schema) is unsupported, naming only that type', () => {
    expect(body({ 'application/xml': { schema: { type: 'object', properties: { id: { type: 'string' } } } }, 'application/octet-stream': {} })).toEqual({
      kind: 'unsupported',
      mediaTypes: ['application/xml'],
    });
  });
});

describe('answers', () => {
  test.each([
    ['no content', undefined, { kind: 'none' }],
    ['JSON among others', { 'application/pdf': {}, 'application/json': { schema: { type: 'object' } } }, { kind: 'json', mediaType: 'application/json' }],
    ['a file in any of its types', { 'application/pdf': { schema: ATTACHMENT }, 'image/png': {} }, { kind: 'file', mediaTypes: ['application/pdf', 'image/png'] }],
    ['events of JSON data', { 'text/event-stream': { schema: { type: 'object', properties: { change: { type: 'string' } } } } }, { kind: 'events', mediaType: 'text/event-stream', enveloped: false, text: false }],
    ['events described whole, JSON data', { 'text/event-stream': { schema: { type: 'object', properties: { id: { type: 'string' }, data: { type: 'object' } } } } }, { kind: 'events', mediaType: 'text/event-stream', enveloped: true, text: false }],
    ['events described whole, text data', { 'text/event-stream': { schema: { type: 'object', properties: { event: { type: 'string' }, data: { type: 'string' } } } } }, { kind: 'events', mediaType: 'text/event-stream', enveloped: true, text: true }],
    ['events of text, or with no schema', { 'text/event-stream; charset=utf-8': {} }, { kind: 'events', mediaType: 'text/event-stream; charset=utf-8', enveloped: false, text: true }],
    // An object with `data` beside fields an event has not is a payload, not an event.
    ['a payload that has a data field', { 'text/event-stream': { schema: { type: 'object', properties: { data: { type: 'string' }, size: { type: 'integer' } } } } }, { kind: 'events', mediaType: 'text/event-stream', enveloped: false, text: false }],
  ])('%s', (_name, content, expected) => {
    expect(answer(content as Record<string, MediaTypeObject> | undefined)).toEqual(expected);
  });
});

test('essences: parameters and case dropped', () => {
  expect(essenceOf(' Multipart/Form-Data; boundary=x')).toBe('multipart/form-data');
});
