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

interface Node<Target> {
  /** Literal segments. */
  literals: Map<string, Node<Target>>;
  /** Segments mixing text and parameters (`{base}...{head}`, `{name}.json`), by their pattern. */
  patterns: Map<string, { pattern: RegExp; node: Node<Target> }>;
  /** A `{param}` segment (each route names it as it likes: the names live with the route). */
  param?: Node<Target>;
  /** What the paths that end here lead to, by upper-case method. */
  methods: Map<string, { target: Target; params: string[] }>;
}

const newNode = <Target,>(): Node<Target> => ({
  literals: new Map(),
  patterns: new Map(),
  methods: new Map(),
});

/** A path's match: the route with its parameters, or the methods the path has when the one asked for is not. */
export type RouteMatch<Target> =
  { target: Target; params: Record<string, string> } | { allow: string[] };

export interface RouteTree<Target> {
  /**
   * Route paths use `:name` for a parameter that is a whole segment
   * (`/authors/:author_id`) and `{name}` within a segment of text (`/compare/{base}...{head}`).
   */
  add(path: string, method: string, target: Target): void;
  /** Undefined when no route has the path; HEAD is answered by GET. */
  match(path: string, method: string): RouteMatch<Target> | undefined;
}

export function routeTree<Target>(): RouteTree<Target> {
  const root = newNode<Target>();
  return {
    add: (path, method, target) => add(root, path, method.toUpperCase(), target),
    match(path, method) {
      const values: string[] = [];
      const node = find(root, segmentsOf(path), 0, values);
      if (!node) return undefined;
      const route =
        node.methods.get(method) ?? (method === 'HEAD' ? node.methods.get('GET') : undefined);
      if (!route) return { allow: allowed(node) };
      const params: Record<string, string> = {};
      for (let index = 0; index < route.params.length; index++)
        params[route.params[index]!] = values[index]!;
      return { target: route.target, params };
    },
  };
}

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
  const tree = routeTree<{ answer: OperationHandler; template: string }>();
  for (const route of routes)
    tree.add(route.path, route.method, {
      answer: operation(route, context),
      template: `${options.basePath}${route.template}`,
    });
  const unmatched = unmatchedBy(options);
  // Not async: it hands on the operation's promise rather than wrap it in one more (koa-compose turns a throw into a rejection).
  return (ctx) => {
    const path = within(ctx.path, options.basePath);
    const match = path === undefined ? undefined : tree.match(path, ctx.method);
    if (!match) throw unmatched(ctx.path);
    if ('allow' in match) throw errors.methodNotAllowed(match.allow);
    ctx.state.route = match.target.template;
    return match.target.answer(ctx, match.params);
  };
}

/** The path below the base path, on a segment boundary (`/api/v1authors` is not under `/api/v1`). */
export function within(path: string, basePath: string): string | undefined {
  if (basePath === '' || path === basePath) return path.slice(basePath.length);
  return path.startsWith(`${basePath}/`) ? path.slice(basePath.length) : undefined;
}

/** 404; or 406 for the path of another version (`/api/v2/…` where `/api/v1` is served). */
export function unmatchedBy({ basePath, version }: RoutingOptions): (path: string) => Error {
  const escaped = basePath.replace(/[.*+?^$()|[\]\\{}]/g, '\\$&');
  // The version segment is in the base path, or (where the spec's paths carry it) after it, behind an optional /api.
  const otherVersion =
    version === undefined
      ? undefined
      : basePath.includes(`/v${version}`)
        ? new RegExp(`^${escaped.replace(`/v${version}`, '/v(\\d+)')}(/|$)`)
        : new RegExp(`^${escaped}(?:/api)?/v(\\d+)(/|$)`);
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

function add<Target>(root: Node<Target>, path: string, method: string, target: Target): void {
  let node = root;
  const params: string[] = [];
  for (const segment of segmentsOf(path)) {
    if (segment.startsWith(':')) {
      params.push(segment.slice(1));
      node = node.param ??= newNode<Target>();
    } else if (segment.includes('{')) {
      params.push(...[...segment.matchAll(/\{([^}]+)\}/g)].map((found) => found[1]!));
      let next = node.patterns.get(segment);
      if (!next)
        node.patterns.set(segment, (next = { pattern: patternOf(segment), node: newNode() }));
      node = next.node;
    } else {
      let next = node.literals.get(segment);
      if (!next) node.literals.set(segment, (next = newNode<Target>()));
      node = next;
    }
  }
  node.methods.set(method, { target, params });
}

/** `{base}...{head}` → `^(.+?)\.\.\.(.+?)$`: each parameter at least one character. */
function patternOf(segment: string): RegExp {
  const parts = segment
    .split(/\{[^}]+\}/)
    .map((text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('(.+?)')}$`);
}

/**
 * Literal segments are tried before segments mixing text and parameters, and
 * those before a parameter (OpenAPI §4.8.8.2: concrete paths first); a
 * parameter still matches where the others lead nowhere. The parameters'
 * values are pushed on `values` as they match, and taken off again where a
 * branch leads nowhere.
 */
function find<Target>(
  node: Node<Target>,
  segments: string[],
  index: number,
  values: string[],
): Node<Target> | undefined {
  if (index === segments.length) return node.methods.size > 0 ? node : undefined;
  const segment = segments[index]!;
  // Where a parameter stands alone, no id is hashed to look for a literal segment.
  const literal = node.literals.size === 0 ? undefined : node.literals.get(segment);
  const viaLiteral = literal && find(literal, segments, index + 1, values);
  if (viaLiteral) return viaLiteral;
  const depth = values.length;
  for (const { pattern, node: next } of node.patterns.values()) {
    const parts = pattern.exec(segment)?.slice(1);
    if (!parts) continue;
    values.push(...parts.map(decode));
    const viaPattern = find(next, segments, index + 1, values);
    if (viaPattern) return viaPattern;
    values.length = depth;
  }
  if (!node.param || segment === '') return undefined;
  values.push(decode(segment));
  const viaParam = find(node.param, segments, index + 1, values);
  if (!viaParam) values.length = depth;
  return viaParam;
}

function segmentsOf(path: string): string[] {
  // The usual path (`/authors/1`) has one slash in front and none behind: no expression to run.
  const usual =
    path.charCodeAt(0) === SLASH &&
    path.charCodeAt(1) !== SLASH &&
    path.charCodeAt(path.length - 1) !== SLASH;
  if (!usual) {
    const trimmed = path.replace(/^\/+|\/+$/g, '');
    return trimmed === '' ? [] : trimmed.split('/');
  }
  // Cut at each slash: no copy of the path without its first one for `split` to read.
  const segments: string[] = [];
  let start = 1;
  for (let end = path.indexOf('/', start); end >= 0; end = path.indexOf('/', start)) {
    segments.push(path.slice(start, end));
    start = end + 1;
  }
  if (start < path.length) segments.push(path.slice(start));
  return segments;
}

const SLASH = 47;

function decode(segment: string): string {
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    throw errors.badRequest(`The path segment "${segment}" is not valid percent-encoding.`);
  }
}

function allowed<Target>(node: Node<Target>): string[] {
  const methods = [...node.methods.keys()];
  return methods.includes('GET') ? ['HEAD', ...methods] : methods;
}
