/** What each path addresses, read from all of a spec's paths at once: paths and answers shaped like the real specs'. */
import { classifyOperation } from '../../src/openapi/classify.js';
import type { HttpMethod, OpenApiDocument, OperationObject } from '../../src/openapi/document.js';
import { pathRolesOf, resourcePathOf } from '../../src/openapi/path-roles.js';

const answering = (schema: object | undefined, status = '200'): OperationObject =>
  ({ responses: { [status]: { description: 'ok', ...(schema ? { content: { 'application/json': { schema } } } : {}) } } }) as OperationObject;
const ITEM = { type: 'object', properties: { id: { type: 'integer' } } };
const LIST = { type: 'array', items: ITEM };

const SPEC: OpenApiDocument = {
  openapi: '3.0.3',
  info: { title: 'Paths', version: '1' },
  paths: {
    '/': { get: answering(ITEM) },
    '/authors': { get: answering(LIST), post: answering(ITEM, '201') },
    '/authors/{author_id}': { get: answering(ITEM), post: answering(ITEM) },
    '/authors/{author_id}/books': { get: answering(LIST) },
    '/settings': { get: answering(ITEM), put: answering(ITEM), delete: answering(undefined, '204') },
    '/preferences': { patch: answering(ITEM) },
    '/repos/{owner}/{repo}': { get: answering(ITEM) },
    '/repos/{owner}/{repo}/pages': { get: answering(ITEM), post: answering(ITEM) },
    '/tasks/{task_id}/close': { post: answering(ITEM) },
    '/tasks/{task_id}': { get: answering(ITEM) },
    '/markdown': { post: answering({ type: 'string' }) },
    '/addresses/cleanse': { post: answering(ITEM) },
    '/notes': { post: answering(ITEM, '201') },
    '/fields/{collection}': { get: answering(LIST), post: answering(ITEM) },
    '/fields/{collection}/{field}': { get: answering(ITEM) },
    '/gists/{gist_id}/{sha}': { get: answering(ITEM) },
    '/things/{thing_id}/archive': { post: answering(undefined, '204') },
    '/compare/{base}...{head}': { get: answering(ITEM) },
    '/user': { get: answering(ITEM) },
    '/user/repos': { get: answering(LIST) },
    '/uploads': { post: { requestBody: { content: { 'multipart/form-data': { schema: { type: 'object' } } } }, responses: { '201': { description: 'ok' } } } },
    '/reports/{report_id}': { get: { responses: { '200': { description: 'pdf', content: { 'application/pdf': {} } } } } },
    '/zen': { get: { responses: { '200': { description: 'text', content: { 'text/plain': { schema: { type: 'string' } } } } } } },
  },
} as OpenApiDocument;

test.each([
  { path: '/authors', want: 'collection' },
  { path: '/authors/{author_id}', want: 'item' },
  { path: '/authors/{author_id}/books', want: 'collection' },
  { path: '/settings', want: 'singleton' },
  { path: '/preferences', want: 'singleton' },
  { path: '/repos/{owner}/{repo}/pages', want: 'singleton' },
  { path: '/tasks/{task_id}/close', want: 'action' },
  { path: '/markdown', want: 'action' },
  { path: '/addresses/cleanse', want: 'action' },
  { path: '/notes', want: 'collection' },
  { path: '/fields/{collection}', want: 'collection' },
  { path: '/fields/{collection}/{field}', want: 'item' },
  { path: '/gists/{gist_id}/{sha}', want: 'item' },
  { path: '/compare/{base}...{head}', want: 'item' },
  { path: '/user', want: 'singleton' },
  { path: '/user/repos', want: 'collection' },
  { path: '/zen', want: 'action' },
  { path: '/', want: 'action' },
])('$path is a $want', ({ path, want }) => {
  expect(pathRolesOf(SPEC).get(path)).toBe(want);
});

test.each([
  { path: '/tasks/{task_id}/close', want: '/tasks/{task_id}' },
  { path: '/things/{thing_id}/archive', want: '/things/{thing_id}' },
  { path: '/markdown', want: undefined },
  { path: '/addresses/cleanse', want: undefined },
  { path: '/authors/{author_id}', want: '/authors/{author_id}' },
  { path: '/settings', want: '/settings' },
])('an operation at $path acts on the resource at $want', ({ path, want }) => {
  expect(resourcePathOf(SPEC, path)).toBe(want);
});

test.each<{ method: HttpMethod; path: string; want: string }>([
  { method: 'post', path: '/authors', want: 'create' },
  { method: 'post', path: '/notes', want: 'create' },
  { method: 'post', path: '/markdown', want: 'other' },
  { method: 'post', path: '/addresses/cleanse', want: 'other' },
  { method: 'post', path: '/authors/{author_id}', want: 'other' },
  { method: 'post', path: '/repos/{owner}/{repo}/pages', want: 'other' },
  { method: 'get', path: '/settings', want: 'read' },
  { method: 'put', path: '/settings', want: 'replace' },
  { method: 'delete', path: '/settings', want: 'delete' },
  { method: 'patch', path: '/preferences', want: 'update' },
  { method: 'get', path: '/fields/{collection}', want: 'list' },
  { method: 'post', path: '/fields/{collection}', want: 'create' },
  { method: 'get', path: '/gists/{gist_id}/{sha}', want: 'read' },
  // Files and streams: recognised, answered 501 until written (never a create that drops the upload).
  { method: 'post', path: '/uploads', want: 'other' },
  { method: 'get', path: '/reports/{report_id}', want: 'other' },
])('$method $path is a $want', ({ method, path, want }) => {
  expect(classifyOperation(SPEC, path, method, SPEC.paths![path]![method] as OperationObject)).toBe(want);
});

// Before: GitHub's `/gists/{gist_id}/{sha}` was a second item path of gists, and the suite read a created gist through it.
describe('a path that adds ids to an item path', () => {
  const GISTS: OpenApiDocument = {
    openapi: '3.0.3',
    info: { title: 'Gists', version: '1' },
    paths: {
      '/gists': { get: answering(LIST), post: answering(ITEM, '201') },
      '/gists/{gist_id}': { get: answering(ITEM), patch: answering(ITEM), delete: answering(undefined, '204') },
      '/gists/{gist_id}/{sha}': { get: answering(ITEM) },
      '/fields/{collection}': { get: answering(LIST) },
      '/fields/{collection}/{field}': { get: answering(ITEM) },
    },
  } as OpenApiDocument;

  test('names something of that item, not the item again', () => {
    expect(pathRolesOf(GISTS).get('/gists/{gist_id}')).toBe('item');
    expect(pathRolesOf(GISTS).get('/gists/{gist_id}/{sha}')).toBe('action');
    expect(resourcePathOf(GISTS, '/gists/{gist_id}/{sha}')).toBe('/gists/{gist_id}');
    expect(classifyOperation(GISTS, '/gists/{gist_id}/{sha}', 'get', GISTS.paths!['/gists/{gist_id}/{sha}']!.get as OperationObject)).toBe('other');
  });

  test('below a collection named by an id (Directus), the deeper path is still the item', () => {
    expect(pathRolesOf(GISTS).get('/fields/{collection}/{field}')).toBe('item');
  });
});
