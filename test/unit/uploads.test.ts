/**
 * Which operations the default store serves with files
 * (render/targets/uploads.ts) and which LINT_MEDIA_NOT_SERVED names: on
 * each spec shape the two agree, operation by operation; and the roles each
 * shape gets.
 */
import type { OpenApiDocument } from '../../src/openapi/document.js';
import { lintSpec } from '../../src/lint/index.js';
import { resourceUploadsOf } from '../../src/render/targets/uploads.js';
import { loadFragments } from '../../src/resources.js';
import { mergedModel } from '../model.js';

type Json = Record<string, unknown>;

const ITEM = { type: 'object', properties: { id: { type: 'string', readOnly: true }, title: { type: 'string' }, size: { type: 'integer', readOnly: true } } };
const json = (schema: unknown, status = '200') => ({ [status]: { description: 'ok', content: { 'application/json': { schema } } } });
const file = (type = 'application/pdf') => ({ '200': { description: 'the file', content: { [type]: { schema: { type: 'string', format: 'binary' } } } } });
const bytes = (type = 'application/octet-stream') => ({ required: true, content: { [type]: { schema: { type: 'string', format: 'binary' } } } });
const form = (withFile: boolean, type = 'multipart/form-data') => ({
  required: true,
  content: { [type]: { schema: { type: 'object', properties: { title: { type: 'string', maxLength: 10 }, ...(withFile ? { file: { type: 'string', format: 'binary' } } : {}) } } } },
});
const id = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };
const documents = (post: Json | undefined, below: Record<string, Json>): OpenApiDocument =>
  ({
    openapi: '3.0.3',
    info: { title: 'Files', version: '1.0.0' },
    paths: {
      '/documents': { get: { operationId: 'listDocuments', responses: json({ type: 'array', items: ITEM }) }, ...(post ? { post } : {}) },
      '/documents/{id}': { parameters: [id], get: { operationId: 'getDocument', responses: json(ITEM) }, delete: { operationId: 'deleteDocument', responses: { '204': { description: 'gone' } } } },
      ...Object.fromEntries(Object.entries(below).map(([path, item]) => [path, { parameters: [id], ...item }])),
    },
  }) as OpenApiDocument;

const upload = (body: Json) => ({ operationId: 'upload', requestBody: body, responses: json(ITEM, '201') });

/** The operations each side says the store serves with files. */
function servedBy(spec: OpenApiDocument): { generator: string[]; lint: string[] } {
  const { model } = mergedModel(structuredClone(spec));
  const roles = model.resources.flatMap((resource) => [...(resourceUploadsOf(resource, model.operations)?.roles ?? [])]);
  const fileOperations = model.operations.filter((operation) => operation.requestBody?.form || operation.requestBody?.bytes || operation.success.file);
  const generator = fileOperations.filter((operation) => roles.some(([operationId]) => operationId === operation.operationId)).map((operation) => operation.operationId);
  const named = new Set(lintSpec(structuredClone(spec), loadFragments()).filter((finding) => finding.code === 'LINT_MEDIA_NOT_SERVED').map((finding) => finding.pointer));
  const pointerOf = (path: string, method: string) => `#/paths/${path.replace(/~/g, '~0').replace(/\//g, '~1')}/${method}`;
  const lint = fileOperations.filter((operation) => !named.has(pointerOf(operation.path, operation.method))).map((operation) => operation.operationId);
  return { generator: generator.sort(), lint: lint.sort() };
}

const SHAPES: [string, OpenApiDocument, string[]][] = [
  ['a form with a file POSTed to the collection, its file downloaded and replaced below the item', documents(upload(form(true)), { '/documents/{id}/content': { get: { operationId: 'download', responses: file() }, put: { operationId: 'replace', requestBody: bytes(), responses: { '204': { description: 'replaced' } } } } }), ['download', 'replace', 'upload']],
  ['a file POSTed as the body, downloaded at the item itself', { ...documents(upload(bytes('image/png')), {}), paths: { ...documents(upload(bytes('image/png')), {}).paths, '/documents/{id}': { parameters: [id], get: { operationId: 'download', responses: file('image/png') } } } } as OpenApiDocument, ['download', 'upload']],
  ['a URL-encoded form with no file: a create, but no file to download', documents(upload(form(false, 'application/x-www-form-urlencoded')), { '/documents/{id}/content': { get: { operationId: 'download', responses: file() } } }), []],
  ['no upload at all: a download with nothing uploaded to it', documents(undefined, { '/documents/{id}/content': { get: { operationId: 'download', responses: file() } } }), []],
  ['a bytes PUT alone below the item, with its GET: kept without a create', documents(undefined, { '/documents/{id}/raw': { get: { operationId: 'download', responses: file() }, put: { operationId: 'replace', requestBody: bytes(), responses: { '204': { description: 'replaced' } } } } }), ['download', 'replace']],
  ['two file paths, one with GET and PUT: only that one is the file', documents(upload(form(true)), { '/documents/{id}/thumb': { get: { operationId: 'thumb', responses: file('image/png') }, put: { operationId: 'replaceThumb', requestBody: bytes('image/png'), responses: { '204': { description: 'replaced' } } } }, '/documents/{id}/pdf': { get: { operationId: 'pdf', responses: file() } } }), ['replaceThumb', 'thumb', 'upload']],
  ['two file GETs and no PUT: which is the file is not known', documents(upload(form(true)), { '/documents/{id}/a': { get: { operationId: 'a', responses: file() } }, '/documents/{id}/b': { get: { operationId: 'b', responses: file() } } }), ['upload']],
  ['an upload answering no item creates nothing', documents({ operationId: 'upload', requestBody: form(true), responses: { '202': { description: 'queued' } } }, {}), []],
];

describe('the store serves files where the lint says it does', () => {
  test.each(SHAPES)('%s', (_name, spec, served) => {
    const { generator, lint } = servedBy(spec);
    expect(generator).toEqual(served);
    expect(lint).toEqual(served);
  });
});

test("the describing fields are the item's read-only ones; a writable `filename` stays the client's", () => {
  const spec = documents(upload(form(true)), {});
  (spec.paths!['/documents']!.get as Json).responses = json({ type: 'array', items: { ...ITEM, properties: { ...ITEM.properties, filename: { type: 'string' }, media_type: { type: 'string', readOnly: true } } } });
  const { model } = mergedModel(spec);
  const resource = model.resources.find((candidate) => candidate.key === 'documents')!;
  expect(resourceUploadsOf(resource, model.operations)?.describedBy).toEqual({ size: 'size', mediaType: 'media_type' });
});
