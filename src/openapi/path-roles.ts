/**
 * What each path of a spec addresses, read from all of its operations and
 * from the paths around it, not from its own shape alone (conventions §4
 * "Path shapes", extended to what real specs do):
 *
 * - `collection`: items of one kind. A GET answers an array, a POST answers
 *   201 Created, or an item path lies below it (`/authors`, and the scoped
 *   `/fields/{collection}` whose GET answers an array).
 * - `item`: one member of a collection, named by the parameters it ends in
 *   (`/authors/{author_id}`, `/repos/{owner}/{repo}`), by the fewest of them
 *   where two paths could name it: below `/gists/{gist_id}`,
 *   `/gists/{gist_id}/{sha}` (a revision of the gist) is no item but
 *   something of that gist's, as an action is.
 * - `singleton`: one object with no id of its own (`/settings`, `/user`,
 *   `/repos/{owner}/{repo}/pages`): a GET answers an object, or it is only
 *   ever replaced or updated.
 * - `action`: a procedure on what the path above it addresses
 *   (`POST /tasks/{task_id}/close`, the RPC-style `POST /markdown`).
 */
import { dataSchemaOf, isArraySchema, jsonSchemaOf, successResponse } from './classify.js';
import { isObject, type OpenApiDocument, type OperationObject, type PathItemObject } from './document.js';

export type PathRole = 'collection' | 'item' | 'singleton' | 'action';

/** A segment that names something by a parameter, whole (`{id}`) or in part (`{base}...{head}`, `{name}.json`). */
export function isParameterSegment(segment: string): boolean {
  return segment.includes('{');
}

const roles = new WeakMap<OpenApiDocument, ReadonlyMap<string, PathRole>>();

/** Every path's role; computed once per document (a document is not changed in ways that move them). */
export function pathRolesOf(document: OpenApiDocument): ReadonlyMap<string, PathRole> {
  let found = roles.get(document);
  if (!found) roles.set(document, (found = computeRoles(document)));
  return found;
}

/** The role of `path`; a path the document does not list is read from the one operation given. */
export function pathRoleOf(document: OpenApiDocument, path: string, alone?: { method: string; operation: OperationObject }): PathRole {
  const known = pathRolesOf(document).get(path);
  if (known !== undefined) return known;
  return roleOf(document, path, alone ? ({ [alone.method]: alone.operation } as PathItemObject) : undefined, []);
}

/**
 * The path whose resource an operation at `path` belongs to: its own, or for
 * an action the nearest path above it that is no action (`/tasks/{task_id}`
 * for `/tasks/{task_id}/close`); undefined for an action on the API itself.
 */
export function resourcePathOf(document: OpenApiDocument, path: string): string | undefined {
  const roles = pathRolesOf(document);
  const implied = impliedCollectionsOf(document);
  // A path the spec does not list is what its shape says: an item where it ends in a parameter.
  const roleOfAny = (candidate: string): PathRole =>
    roles.get(candidate) ?? (isParameterSegment(candidate.slice(candidate.lastIndexOf('/') + 1)) ? 'item' : implied.has(candidate) ? 'collection' : 'action');
  let current = path;
  while (roleOfAny(current) === 'action') {
    const cut = current.lastIndexOf('/');
    if (cut <= 0) return undefined;
    current = current.slice(0, cut);
  }
  return current;
}

const implied = new WeakMap<OpenApiDocument, ReadonlySet<string>>();

/** Paths that a parameter segment continues, listed or not: `/authors` for `/authors/{id}`, an item path below a collection. */
function impliedCollectionsOf(document: OpenApiDocument): ReadonlySet<string> {
  let found = implied.get(document);
  if (!found) implied.set(document, (found = new Set(Object.keys(document.paths ?? {}).flatMap(parentsBeforeParameters))));
  return found;
}

function computeRoles(document: OpenApiDocument): Map<string, PathRole> {
  const paths = Object.keys(document.paths ?? {});
  const continued = impliedCollectionsOf(document);
  const found = new Map(
    paths.map((path) => {
      const pathItem = document.paths?.[path];
      return [path, roleOf(document, path, isObject(pathItem) ? (pathItem as PathItemObject) : undefined, continued.has(path) ? [path] : [])];
    }),
  );
  // An item has one path, the one with the fewest ids: a deeper one names something of that item's (a gist's revision).
  for (const [path, role] of found) {
    if (role === 'item' && itemPathsAbove(path).some((above) => found.get(above) === 'item')) found.set(path, 'action');
  }
  return found;
}

/** The shorter paths a run of trailing parameter segments leaves: `/gists/{gist_id}` for `/gists/{gist_id}/{sha}`. */
function itemPathsAbove(path: string): string[] {
  const segments = path.split('/');
  const above: string[] = [];
  for (let end = segments.length - 1; end > 1 && isParameterSegment(segments[end - 1]!); end--) above.push(segments.slice(0, end).join('/'));
  return above;
}

/** The prefixes of a path that a parameter segment follows: `/a/{x}/b/{y}` → `/a`, `/a/{x}/b`. */
function parentsBeforeParameters(path: string): string[] {
  const segments = path.split('/');
  return segments.flatMap((segment, index) => (index > 1 && isParameterSegment(segment) && !isParameterSegment(segments[index - 1]!) ? [segments.slice(0, index).join('/')] : []));
}

function roleOf(document: OpenApiDocument, path: string, pathItem: PathItemObject | undefined, itemsBelow: string[]): PathRole {
  const last = path.split('/').filter(Boolean).at(-1);
  // The API's root (`/`): what it answers is the API's own (an index, a welcome), no resource.
  if (last === undefined) return 'action';
  const get = operation(pathItem, 'get');
  const answer = get ? answerOf(document, get) : 'none';
  if (last !== undefined && isParameterSegment(last)) return answer === 'array' ? 'collection' : 'item';
  if (answer === 'array' || itemsBelow.length > 0 || createsItems(pathItem)) return 'collection';
  if (answer === 'object') return 'singleton';
  const writes = operation(pathItem, 'put') ?? operation(pathItem, 'patch');
  if (!get && writes && !operation(pathItem, 'post')) return 'singleton';
  return 'action';
}

function operation(pathItem: PathItemObject | undefined, method: 'get' | 'post' | 'put' | 'patch'): OperationObject | undefined {
  const found = pathItem?.[method];
  return isObject(found) ? (found as OperationObject) : undefined;
}

/** A POST that answers 201 Created adds an item to what the path addresses. */
function createsItems(pathItem: PathItemObject | undefined): boolean {
  const post = operation(pathItem, 'post');
  return post !== undefined && Object.keys(post.responses ?? {}).includes('201');
}

/** What a GET's success answers as its data: an array, a JSON object or scalar, or no JSON at all. */
function answerOf(document: OpenApiDocument, get: OperationObject): 'array' | 'object' | 'none' {
  const success = successResponse(document, get);
  const schema = success && jsonSchemaOf(success.response);
  if (schema === undefined) return 'none';
  return isArraySchema(document, dataSchemaOf(document, schema)) ? 'array' : 'object';
}
