/**
 * Starts Enveloped Notes API. specforge created this file once; it is yours to change.
 *
 * Environment: PORT (default 3000), HOST (default 127.0.0.1), API_TOKENS and API_KEYS (see
 * ./auth.ts), RATE_LIMIT and RATE_LIMIT_WINDOW, CURSOR_SECRET (shared by all instances),
 * BODY_MAX_DEPTH and BODY_MAX_MEMBERS, HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS,
 * KEEP_ALIVE_TIMEOUT_MS and SHUTDOWN_GRACE_MS, LOG_REDACT_HEADERS, and TRUST_PROXY with
 * PROXY_HOPS (only behind a proxy you run). The project's README says what each does.
 */
import { authenticate } from './auth.js';
import { createApp } from './generated/app.js';
import { integerFromEnv, serve } from './generated/conventions/serve.js';
import { SERVICE } from './generated/service.js';

try {
  const port = integerFromEnv('PORT', 3000);
  const host = process.env.HOST ?? '127.0.0.1';
  const server = await serve(createApp({ authenticate }), { port, host });
  const address = server.address();
  const listening = typeof address === 'object' && address ? address.port : port;
  console.log(`${SERVICE.title} listening on http://${host}:${listening}${SERVICE.basePath}`);
} catch (error) {
  // A configuration mistake (or a port in use): one line that says which, not a stack.
  console.error(`${SERVICE.title} did not start: ${(error as Error).message}`);
  process.exit(1);
}
