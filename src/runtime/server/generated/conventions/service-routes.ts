/**
 * The service's own addresses, beside the API and outside it: liveness
 * (`/healthz`: the process answers), readiness (`/readyz`: what it depends
 * on answers), the merged spec (`/openapi.json`, `/openapi.yaml`) and its
 * reference page (`/docs`: swagger-ui from the installed `swagger-ui-dist`,
 * no CDN). Answered after the request id and inside the error envelope, but
 * before identity and the rate limit: a probe needs no credential and spends
 * no client's window.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { ParameterizedContext } from 'koa';
import { ApiError, ERROR_CODES } from './errors.js';
import type { ServiceState } from './state.js';

export interface ServiceRoutesOptions {
  /** Resolves when the service can serve; rejects saying what cannot (the database, the rate-limit store). */
  ready: () => Promise<void>;
  /** The merged spec as YAML, read on first use. */
  spec: () => Promise<string>;
  /** Where the reference page is (`/docs`); undefined: none. */
  docsPath: string | undefined;
  /** Called before the spec or the docs are answered: throws to refuse (DOCS_AUTH). Health is never refused. */
  guard?: (ctx: ParameterizedContext<ServiceState>) => Promise<void>;
  /** How long readiness may take before it counts as not ready. */
  readyTimeoutMs?: number;
}

/** DOCS_PATH: where the reference page is (`/docs`), or `off`; a path of plain segments, as it goes into the page's HTML. */
export function docsPathFromEnv(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const path = env.DOCS_PATH ?? '/docs';
  if (path === 'off') return undefined;
  if (!/^(\/[A-Za-z0-9._~-]+)+$/.test(path))
    throw new Error(
      `DOCS_PATH=${path} is neither off nor a path such as /docs (letters, digits, . _ ~ -).`,
    );
  return path;
}

/** DOCS_AUTH=true: the spec and its reference page only for a caller with a valid credential. */
export function docsAuthFromEnv(env: NodeJS.ProcessEnv = process.env): boolean {
  const setting = env.DOCS_AUTH ?? '';
  if (setting !== '' && setting !== 'true' && setting !== 'false')
    throw new Error(`DOCS_AUTH=${setting} is neither true nor false.`);
  return setting === 'true';
}

/**
 * Answers the request where it is one of the service's own addresses: true
 * when it did. Any other request is told so at once, without a promise.
 */
export type ServiceRoutes = (ctx: ParameterizedContext<ServiceState>) => boolean | Promise<boolean>;

/** swagger-ui's files the page loads, the only ones served from its package. */
const DOCS_ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
};

export function serviceRoutes(options: ServiceRoutesOptions): ServiceRoutes {
  const spec = lazySpec(options.spec);
  const docs = options.docsPath;
  const guard = options.guard ?? (async () => undefined);
  const answers = async (ctx: ParameterizedContext<ServiceState>): Promise<boolean> => {
    switch (ctx.path) {
      case '/healthz':
        answer(ctx, 'application/json', JSON.stringify({ status: 'ok' }));
        return true;
      case '/readyz':
        await checkReady(options);
        answer(ctx, 'application/json', JSON.stringify({ status: 'ready' }));
        return true;
    }
    if (!isDocument(ctx.path, docs)) return false;
    await guard(ctx);
    switch (ctx.path) {
      case '/openapi.yaml':
        answer(ctx, 'application/yaml; charset=utf-8', await spec.yaml(), 'public, max-age=60');
        return true;
      case '/openapi.json':
        answer(ctx, 'application/json', await spec.json(), 'public, max-age=60');
        return true;
    }
    if (ctx.path === docs) {
      answer(ctx, 'text/html; charset=utf-8', docsPage(docs), 'no-cache');
      ctx.set('Content-Security-Policy', DOCS_POLICY);
      return true;
    }
    const asset = ctx.path.slice(`${docs}/`.length);
    if (asset === 'init.js') {
      answer(ctx, 'text/javascript; charset=utf-8', docsInit(), 'no-cache');
      return true;
    }
    const type = Object.hasOwn(DOCS_ASSETS, asset) ? DOCS_ASSETS[asset] : undefined;
    if (type === undefined) return false;
    answer(ctx, type, await readFile(join(swaggerUiFolder(), asset)), 'public, max-age=86400');
    return true;
  };
  return (ctx) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return false;
    const path = ctx.path;
    return path === '/healthz' || path === '/readyz' || isDocument(path, docs)
      ? answers(ctx)
      : false;
  };
}

/** The spec, or the reference page and its files. */
function isDocument(path: string, docs: string | undefined): boolean {
  if (path === '/openapi.yaml' || path === '/openapi.json') return true;
  return docs !== undefined && (path === docs || path.startsWith(`${docs}/`));
}

function answer(
  ctx: ParameterizedContext,
  type: string,
  body: string | Buffer,
  cacheControl = 'no-store',
): void {
  ctx.status = 200;
  ctx.type = type;
  ctx.set('Cache-Control', cacheControl);
  ctx.body = body;
}

async function checkReady(options: ServiceRoutesOptions): Promise<void> {
  const timeoutMs = options.readyTimeoutMs ?? 2_000;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    await Promise.race([options.ready(), late]);
  } catch (error) {
    throw new ApiError(ERROR_CODES.unavailable, `Not ready: ${(error as Error).message}`, {
      headers: { 'Retry-After': '1' },
    });
  } finally {
    clearTimeout(timer);
  }
}

/** The spec read once, and its JSON made once (YAML parsed only where JSON is asked for). */
function lazySpec(read: () => Promise<string>): {
  yaml(): Promise<string>;
  json(): Promise<string>;
} {
  let yaml: Promise<string> | undefined;
  let json: Promise<string> | undefined;
  const text = () => (yaml ??= read());
  return {
    yaml: text,
    json: () =>
      (json ??= text().then(async (source) => {
        const { parse } = await import('yaml');
        return JSON.stringify(parse(source, { maxAliasCount: -1 }));
      })),
  };
}

let swaggerUi: string | undefined;

/** The installed swagger-ui-dist's folder. */
function swaggerUiFolder(): string {
  swaggerUi ??= dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  return swaggerUi;
}

/** Scripts and styles only from the service itself: swagger-ui needs inline styles and `data:` images. */
const DOCS_POLICY =
  "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; frame-ancestors 'none'";

function docsPage(docs: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference</title>
<link rel="stylesheet" href="${docs}/swagger-ui.css">
</head>
<body>
<div id="docs"></div>
<script src="${docs}/swagger-ui-bundle.js"></script>
<script src="${docs}/init.js"></script>
</body>
</html>
`;
}

function docsInit(): string {
  return `window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#docs', deepLinking: true, validatorUrl: null });\n`;
}
