/**
 * Routing from the spec's paths, under the base path. The paths are compiled
 * once into a tree of segments, so finding a route costs one step per path
 * segment however many operations the API has (a list of regular expressions,
 * as general-purpose routers keep, costs one test per route: 1,000 of them
 * on a large API). A path the spec does not have is 404; one it has, with
 * another method, is 405 with `Allow` — both in the error envelope.
 */
import type { Middleware } from 'koa';
import { errors } from './errors.js';
import {
  operation,
  type OperationContext,
  type OperationHandler,
  type OperationRoute,
} from './operation.js';
import type { ServiceState } from './state.js';

interface Node {
  /** Literal segments. */
  literals: Map<string, Node>;
  /** A `{param}` segment (each route names it as it likes: the names live with the route). */
  param?: Node;
  /** The operations of the paths that end here, by upper-case method. */
  methods: Map<string, { handle: OperationHandler; params: string[] }>;
}

const newNode = (): Node => ({ literals: new Map(), methods: new Map() });

export interface RoutingOptions {
  basePath: string;
  /** The URL version served, when the version is a path segment: another `/v<N>` answers 406. */
  version?: number;
}

export function routesFor<Handlers>(
  routes: readonly OperationRoute<Handlers>[],
  context: OperationContext<Handlers>,
  options: RoutingOptions,
): Middleware<ServiceState> {
  const root = newNode();
  for (const route of routes)
    add(root, route.path, route.method.toUpperCase(), operation(route, context));
  const unmatched = unmatchedBy(options);
  return async (ctx) => {
    const path = within(ctx.path, options.basePath);
    const found = path === undefined ? undefined : find(root, segmentsOf(path), 0, []);
    if (!found) throw unmatched(ctx.path);
    const method =
      found.node.methods.get(ctx.method) ??
      (ctx.method === 'HEAD' ? found.node.methods.get('GET') : undefined);
    if (!method) throw errors.methodNotAllowed(allowed(found.node));
    const params: Record<string, string> = {};
    method.params.forEach((name, index) => (params[name] = found.values[index]!));
    await method.handle(ctx, params);
  };
}

/** The path below the base path, on a segment boundary (`/api/v1authors` is not under `/api/v1`). */
function within(path: string, basePath: string): string | undefined {
  if (basePath === '' || path === basePath) return path.slice(basePath.length);
  return path.startsWith(`${basePath}/`) ? path.slice(basePath.length) : undefined;
}

/** 404; or 406 for the path of another version (`/api/v2/…` where `/api/v1` is served). */
function unmatchedBy({ basePath, version }: RoutingOptions): (path: string) => Error {
  const escaped = basePath.replace(/[.*+?^$()|[\]\\{}]/g, '\\$&');
  const otherVersion =
    version === undefined
      ? undefined
      : new RegExp(`^${escaped.replace(`/v${version}`, '/v(\\d+)')}(/|$)`);
  return (path) => {
    const requested = otherVersion?.exec(path)?.[1];
    if (requested !== undefined && requested !== String(version)) {
      return errors.notAcceptable(
        `Version ${requested} is not served; this service answers version ${version}.`,
      );
    }
    return errors.notFound(`There is no resource at ${path}.`);
  };
}

/** Route paths use `:name` for parameters (`/authors/:author_id`). */
function add(root: Node, path: string, method: string, handle: OperationHandler): void {
  let node = root;
  const params: string[] = [];
  for (const segment of segmentsOf(path)) {
    if (segment.startsWith(':')) {
      params.push(segment.slice(1));
      node = node.param ??= newNode();
    } else {
      let next = node.literals.get(segment);
      if (!next) node.literals.set(segment, (next = newNode()));
      node = next;
    }
  }
  node.methods.set(method, { handle, params });
}

/**
 * Literal segments are tried before a parameter (OpenAPI §4.8.8.2: concrete
 * paths first), and a parameter still matches where the literal leads nowhere.
 */
function find(
  node: Node,
  segments: string[],
  index: number,
  values: string[],
): { node: Node; values: string[] } | undefined {
  if (index === segments.length) return node.methods.size > 0 ? { node, values } : undefined;
  const segment = segments[index]!;
  const literal = node.literals.get(segment);
  const viaLiteral = literal && find(literal, segments, index + 1, values);
  if (viaLiteral) return viaLiteral;
  return node.param && segment !== ''
    ? find(node.param, segments, index + 1, [...values, decode(segment)])
    : undefined;
}

function segmentsOf(path: string): string[] {
  const trimmed = path.replace(/^\/+|\/+$/g, '');
  return trimmed === '' ? [] : trimmed.split('/');
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw errors.badRequest(`The path segment "${segment}" is not valid percent-encoding.`);
  }
}

function allowed(node: Node): string[] {
  const methods = [...node.methods.keys()];
  return methods.includes('GET') ? ['HEAD', ...methods] : methods;
}
