import { describe, expect, it } from '@jest/globals';
import type { OpenApiDocument } from '../../src/openapi/document.js';
import { schemaFits } from '../../src/openapi/schema-fit.js';

const document = {
  openapi: '3.0.3',
  info: { title: 't', version: '1' },
  paths: {},
  components: { schemas: { Owner: { type: 'object', properties: { login: { type: 'string' } } }, Sha: { type: 'string', description: 'a sha' } } },
} as unknown as OpenApiDocument;
const fits = (written: unknown, answered: unknown) => schemaFits(document, written, answered);

describe('schemaFits: every value the written schema allows, the answered one allows', () => {
  it('takes a schema that fits itself, annotations aside, and anything into an empty schema', () => {
    expect(fits({ $ref: '#/components/schemas/Sha' }, { type: 'string', example: 'abc' })).toBe(true);
    expect(fits({ type: 'object' }, {})).toBe(true);
  });

  it('refuses a value written in another shape than it is answered (a sha answered as an object)', () => {
    expect(fits({ type: 'string' }, { $ref: '#/components/schemas/Owner' })).toBe(false);
    expect(fits({ type: 'string', enum: ['opt_in', 'opt_out'] }, { type: 'boolean' })).toBe(false);
    expect(fits({ type: 'array', items: { type: 'string' } }, { type: 'array', items: { $ref: '#/components/schemas/Owner' } })).toBe(false);
  });

  it('refuses a constraint of the answer the written schema does not bind (a uri answered for any string)', () => {
    expect(fits({ type: 'string' }, { type: 'string', format: 'uri' })).toBe(false);
    expect(fits({ type: 'string', format: 'uri' }, { type: 'string', format: 'uri' })).toBe(true);
    expect(fits({ type: 'string', maxLength: 10 }, { type: 'string', maxLength: 20 })).toBe(true);
    expect(fits({ type: 'string', maxLength: 30 }, { type: 'string', maxLength: 20 })).toBe(false);
    expect(fits({ type: 'string', enum: ['a'] }, { type: 'string', enum: ['a', 'b'] })).toBe(true);
    expect(fits({ type: 'string' }, { type: 'string', enum: ['a', 'b'] })).toBe(false);
  });

  it('takes null only where the answer allows it, and integers where numbers are answered', () => {
    expect(fits({ type: 'string', nullable: true }, { type: 'string' })).toBe(false);
    expect(fits({ type: 'string' }, { type: ['string', 'null'] })).toBe(true);
    expect(fits({ type: 'integer' }, { type: 'number' })).toBe(true);
    expect(fits({ type: 'number' }, { type: 'integer' })).toBe(false);
  });

  it('compares objects member by member, and a closed answer takes only what it declares', () => {
    const answered = { type: 'object', required: ['login'], properties: { login: { type: 'string' } } };
    expect(fits({ type: 'object', required: ['login'], properties: { login: { type: 'string' }, extra: { type: 'integer' } } }, answered)).toBe(true);
    expect(fits({ type: 'object', properties: { login: { type: 'string' } } }, answered)).toBe(false);
    expect(fits({ type: 'object', required: ['login'], properties: { login: { type: 'string' }, extra: {} } }, { ...answered, additionalProperties: false })).toBe(false);
  });

  it('fits a choice answered by one of its alternatives, and a choice written by all of them', () => {
    // Directus answers a comment's `collection` as a name or the collection itself.
    expect(fits({ type: 'string' }, { oneOf: [{ type: 'string' }, { $ref: '#/components/schemas/Owner' }] })).toBe(true);
    expect(fits({ anyOf: [{ type: 'string' }, { type: 'integer' }] }, { type: 'number' })).toBe(false);
    expect(fits({ anyOf: [{ type: 'integer' }, { type: 'number' }] }, { type: 'number' })).toBe(true);
  });

  it('says no where it cannot tell: combinators that differ', () => {
    expect(fits({ oneOf: [{ type: 'string' }, { type: 'integer' }] }, { type: 'string' })).toBe(false);
    expect(fits({ oneOf: [{ type: 'string' }] }, { oneOf: [{ type: 'string' }] })).toBe(true);
  });

  // From review: plain specs had ordinary fields dropped (written `integer`, answered `integer, int64`; a `$ref` wrapped in allOf).
  it('reads a lone allOf part, a const, 3.0 boolean bounds, number formats and uniqueItems: false as what they allow', () => {
    expect(fits({ type: 'integer' }, { type: 'integer', format: 'int64' })).toBe(true);
    expect(fits({ $ref: '#/components/schemas/Owner' }, { allOf: [{ $ref: '#/components/schemas/Owner' }], description: 'the owner' })).toBe(true);
    expect(fits({ const: 'a' }, { type: 'string', enum: ['a', 'b'] })).toBe(true);
    expect(fits({ type: 'integer', minimum: 0, exclusiveMinimum: true }, { type: 'integer', minimum: 0, exclusiveMinimum: true })).toBe(true);
    expect(fits({ type: 'integer', minimum: 0 }, { type: 'integer', minimum: 0, exclusiveMinimum: true })).toBe(false);
    expect(fits({ type: 'array', items: { type: 'string' } }, { type: 'array', items: { type: 'string' }, uniqueItems: false })).toBe(true);
  });

  it('refuses an answer nothing fits, one it cannot resolve, a value two alternatives of a oneOf take, and extra members its additionalProperties refuse', () => {
    expect(fits({ type: 'string' }, false)).toBe(false);
    expect(fits({ type: 'string' }, { $ref: '#/components/schemas/Missing' })).toBe(false);
    expect(fits({ type: 'integer' }, { oneOf: [{ type: 'integer' }, { type: 'number' }] })).toBe(false);
    expect(fits({ type: 'object', properties: { x: { type: 'string' } } }, { type: 'object', additionalProperties: { type: 'integer' } })).toBe(false);
  });
});
