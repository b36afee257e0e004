/**
 * What the service has around its API, the same for every API: middleware
 * of the user's before everything, CORS, the service's own addresses
 * (health, the spec, its docs: service-routes.ts), and the user's middleware
 * between the conventions and the API's routes. createApp (../app.ts) puts
 * each in its place.
 */
import { readFile } from 'node:fs/promises';
import type Koa from 'koa';
import { authorize, identify, type Authenticate, type Realm } from './auth.js';
import { corsFor, corsOriginsFromEnv } from './cors.js';
import { observeRequests, type ObserveOptions } from './observe.js';
import type { RateLimitStore } from './rate-limit.js';
import {
  docsAuthFromEnv,
  docsPathFromEnv,
  serviceRoutes,
  type ServiceRoutes,
  type ServiceRoutesOptions,
} from './service-routes.js';
import type { ServiceState } from './state.js';

/** Koa middleware of the service (Koa's own type answers `any`). */
export type ServiceMiddleware = (
  ctx: Koa.ParameterizedContext<ServiceState, Koa.DefaultContext, unknown>,
  next: Koa.Next,
) => unknown;

export interface EdgeOptions {
  /** Readiness (`/readyz`): resolves when what the service needs answers (main.ts: the database, migrated). The shared rate-limit store is pinged besides. */
  ready?: () => Promise<void>;
  /** Where the API reference page is (default DOCS_PATH, else `/docs`); false: none. */
  docsPath?: string | false;
  /** Whether the spec and `/docs` need a valid credential (default DOCS_AUTH, else public). */
  docsAuth?: boolean;
  /** The browser origins that may call the service (default CORS_ORIGINS): `*`, or a list; none by default. */
  corsOrigins?: string[] | '*';
  /** Run first, before CORS and the conventions: they see every request (timing, tracing), answered or not. */
  before?: ServiceMiddleware[];
  /**
   * Run after the conventions (request id, identity, rate limit, the error
   * envelope around them), before the API's routes: routes outside the spec
   * go here (answer, or call `next()` to let the API answer). `ctx.state.principal`
   * is who called; `throw errors.notFound()` answers in the envelope.
   */
  middleware?: ServiceMiddleware[];
}

/** The merged spec the service serves: the project's, beside `src/` and `dist/`. */
const SPEC_FILE = new URL('../../../openapi.merged.yaml', import.meta.url);

/**
 * Before the conventions: the request's id, scope, span and access line
 * (observe.ts), the user's `before`, then CORS (a preflight carries no
 * credential: it is answered first). Without middleware of the user's, the
 * operations write their answers themselves (answer-headers.ts): an app
 * mounted in another whose middleware changes answers after `next()`
 * (compression, headers) takes that middleware as `before` instead.
 */
export function useFront(
  app: Koa<ServiceState>,
  options: EdgeOptions,
  observe: ObserveOptions,
): void {
  const usersMiddleware = (options.before?.length ?? 0) + (options.middleware?.length ?? 0);
  app.use(observeRequests({ ...observe, gatherHeaders: usersMiddleware === 0 }));
  for (const middleware of options.before ?? []) app.use(middleware);
  const cors = corsFor(options.corsOrigins ?? corsOriginsFromEnv());
  if (cors) app.use(cors);
}

/** Who may read a private spec: any caller with a valid credential. */
export interface DocsAccess {
  authenticate: Authenticate;
  realm: Realm;
}

/** The service's own addresses; ready once `options.ready` resolves and the shared rate-limit store answers. */
export function ownRoutes(
  options: EdgeOptions,
  store: RateLimitStore,
  access: DocsAccess,
): ServiceRoutes {
  const privateDocs = options.docsAuth ?? docsAuthFromEnv();
  return serviceRoutes({
    ...(privateDocs ? { guard: credentialRequired(access) } : {}),
    ready: async () => {
      await options.ready?.();
      await store.ping?.();
    },
    spec: () => readFile(SPEC_FILE, 'utf8'),
    docsPath: options.docsPath === false ? undefined : (options.docsPath ?? docsPathFromEnv()),
  });
}

/** Between the conventions and the API's routes: the user's `middleware`. */
export function useBehind(app: Koa<ServiceState>, options: EdgeOptions): void {
  for (const middleware of options.middleware ?? []) app.use(middleware);
}

type ServiceRoutesGuard = NonNullable<ServiceRoutesOptions['guard']>;

/** 401 with the API's challenge unless the request carries a valid bearer token or API key. */
function credentialRequired({ authenticate, realm }: DocsAccess): ServiceRoutesGuard {
  const anyCredential = {
    public: false,
    alternatives: [
      [{ scheme: 'bearer' as const, scopes: [] }],
      ...(realm.apiKeyHeaders.length > 0 ? [[{ scheme: 'apiKey' as const, scopes: [] }]] : []),
    ],
  };
  return async (ctx) => {
    await identify(ctx, authenticate, realm.apiKeyHeaders);
    authorize(anyCredential, ctx.state, realm);
  };
}
