/**
 * Starts Enveloped Notes API. specforge created this file once; it is yours to change.
 *
 * Environment: PORT (default 3000), HOST (default 127.0.0.1), API_TOKENS and API_KEYS (see
 * ./auth.ts), RATE_LIMIT and RATE_LIMIT_WINDOW, REDIS_URL (rate-limit counters shared by all
 * instances) with RATE_LIMIT_FAIL (open or closed while Redis does not answer), REDIS_TIMEOUT_MS
 * and RATE_LIMIT_KEY_PREFIX, CURSOR_SECRET (shared by all instances), BODY_MAX_DEPTH and
 * BODY_MAX_MEMBERS, HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS, KEEP_ALIVE_TIMEOUT_MS and
 * SHUTDOWN_GRACE_MS, LOG_REDACT_HEADERS, LOG_ASYNC_CONTEXT, TRUST_PROXY with PROXY_HOPS (only
 * behind a proxy you run), DATABASE_URL (or DATA_DIR for the embedded database) with
 * DATABASE_POOL_SIZE, STORE (memory: no database, for mocks and tests), CORS_ORIGINS (the browser
 * origins that may call it), DOCS_PATH (the API reference page, or off) and DOCS_AUTH, LOG_LEVEL
 * and LOG_REDACT_FIELDS.
 * The project's README says what each does.
 */
// First: it loads `.env` before the modules below read the environment.
import { stopOnEnvironmentProblems } from './generated/conventions/environment.js';
import { authenticate } from './auth.js';
import { createApp, serviceLogger } from './generated/app.js';
import { integerFromEnv, serve } from './generated/conventions/serve.js';
import { SERVICE } from './generated/service.js';
import { closeDatabase, storeReady } from './store/index.js';

stopOnEnvironmentProblems(SERVICE.title);

// JSON lines on stdout (LOG_LEVEL; `npm run dev` prints them pretty).
const logger = serviceLogger();
try {
  await storeReady();
  const port = integerFromEnv('PORT', 3000);
  const host = process.env.HOST ?? '127.0.0.1';
  const server = await serve(createApp({ authenticate, ready: storeReady, logger }), {
    port,
    host,
    onClose: closeDatabase,
  });
  const address = server.address();
  const boundPort = typeof address === 'object' && address ? address.port : port;
  const url = `http://${host}:${boundPort}${SERVICE.basePath}`;
  logger.info({ url }, `${SERVICE.title} listening on ${url}`);
} catch (error) {
  // A configuration mistake (or a port in use): one line that says which, not a stack.
  logger.fatal(`${SERVICE.title} did not start: ${(error as Error).message}`);
  process.exit(1);
}
