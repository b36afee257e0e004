/**
 * Listening, with timeouts from the environment, and stopping gracefully.
 *
 * On SIGTERM or SIGINT the service stops accepting connections, answers the
 * requests in flight with `Connection: close` (so no client sends another
 * request on a connection about to go), closes idle keep-alive connections,
 * releases what the app holds open (`app.context.release`, set by createApp:
 * the rate limit's Redis connection) and exits 0 once every connection is
 * gone; after SHUTDOWN_GRACE_MS it closes what is left and exits 1.
 *
 * Faults outside any request's error handling: an unhandled promise rejection
 * is logged (with the request id when a request set it off) and the service
 * keeps serving: the rejected promise's work is lost, but nothing else is
 * left half-done. An uncaught exception is logged and the service stops as
 * on SIGTERM, exiting 1: a synchronous throw that escaped may have left any
 * state half-changed, so Node's advice is not to carry on (a supervisor
 * starts a fresh process); requests in flight still get their answers.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type Koa from 'koa';
import { createLogger, type Logger } from './logger.js';
import { currentRequestId, describeError, redactionOf, type Redaction } from './logging.js';

/** In milliseconds. */
export interface ServerTimeouts {
  /** To receive a request's headers: a client that sends them slowly is cut off with 408 (slowloris). */
  headersTimeoutMs: number;
  /** To receive a whole request, body included. */
  requestTimeoutMs: number;
  /** How long an idle keep-alive connection is kept open; behind a load balancer, longer than its idle timeout. */
  keepAliveTimeoutMs: number;
  /** How long requests in flight may take to finish once asked to stop. */
  shutdownGraceMs: number;
  /** The most connections open at once (0: no cap); past it, a new one is closed at once. */
  maxConnections: number;
}

export interface ServeOptions {
  port: number;
  host: string;
  /** Default: HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS, KEEP_ALIVE_TIMEOUT_MS, SHUTDOWN_GRACE_MS (see `timeoutsFromEnv`). */
  timeouts?: Partial<ServerTimeouts>;
  /** What faults outside requests may not log. Default: the app's own (`app.context.redaction`, set by createApp), else the credential headers. */
  redaction?: Redaction;
  /** Where stopping and faults are told. Default: the app's (`app.context.logger`), else pino on stdout. */
  logger?: Logger;
  /** Closes what the service holds open (its database) after the last request, before the process exits. */
  onClose?: () => Promise<void>;
}

/** The environment's timeouts, or defaults stricter than Node's own (60 s for headers, 5 min per request). */
export function timeoutsFromEnv(): ServerTimeouts {
  const timeouts = {
    headersTimeoutMs: integerFromEnv('HEADERS_TIMEOUT_MS', 10_000, { min: 1 }),
    requestTimeoutMs: integerFromEnv('REQUEST_TIMEOUT_MS', 30_000, { min: 1 }),
    keepAliveTimeoutMs: integerFromEnv('KEEP_ALIVE_TIMEOUT_MS', 5_000, { min: 1 }),
    shutdownGraceMs: integerFromEnv('SHUTDOWN_GRACE_MS', 10_000, { min: 0 }),
    maxConnections: integerFromEnv('MAX_CONNECTIONS', 0, { min: 0 }),
  };
  if (timeouts.headersTimeoutMs > timeouts.requestTimeoutMs) {
    throw new Error(
      `HEADERS_TIMEOUT_MS (${timeouts.headersTimeoutMs}) must not exceed REQUEST_TIMEOUT_MS (${timeouts.requestTimeoutMs}): the headers are part of the request.`,
    );
  }
  return timeouts;
}

/** What serving needs of a Koa application, whatever its state and context types. */
export type Servable = Pick<Koa, 'callback'> & { context: object };

export function serve(
  app: Servable,
  {
    port,
    host,
    timeouts: given = {},
    redaction = appRedaction(app),
    logger,
    onClose,
  }: ServeOptions,
): Promise<Server> {
  const log = logger ?? appLogger(app) ?? createLogger(redaction);
  const timeouts = { ...timeoutsFromEnv(), ...given };
  const server = createServer(
    {
      headersTimeout: timeouts.headersTimeoutMs,
      requestTimeout: timeouts.requestTimeoutMs,
      // Node checks the two timeouts above only this often (30 s by default).
      connectionsCheckingInterval: Math.min(1_000, timeouts.headersTimeoutMs),
    },
    app.callback(),
  );
  server.keepAliveTimeout = timeouts.keepAliveTimeoutMs;
  if (timeouts.maxConnections > 0) server.maxConnections = timeouts.maxConnections;
  const shutdown = shutdownOf(
    server,
    timeouts.shutdownGraceMs,
    releaseOf(app, onClose),
    appStop(app),
    log,
  );
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      // Kept for a second signal too: the drain is bounded by its grace period, not cut short by an impatient supervisor.
      process.on('SIGTERM', () => shutdown.stop('SIGTERM', 0));
      process.on('SIGINT', () => shutdown.stop('SIGINT', 0));
      watchFaults(shutdown, redaction, log);
      resolve(server);
    });
  });
}

/** `app.context` is Koa's place for values every request shares: createApp keeps the service's redaction there. */
function appRedaction(app: Servable): Redaction {
  const kept = (app.context as { redaction?: Redaction }).redaction;
  return kept ?? redactionOf();
}

/** The app's logger: createApp keeps it in `app.context` too. */
function appLogger(app: Servable): Logger | undefined {
  return (app.context as { logger?: Logger }).logger;
}

/** What the app holds open besides its connections; createApp keeps it in `app.context` too. */
function appRelease(app: Servable): () => Promise<void> {
  const kept = (app.context as { release?: () => Promise<void> }).release;
  return kept ?? (async () => {});
}

/** What ends the app's long answers (event streams) when it stops; createApp keeps it in `app.context`. */
function appStop(app: Servable): () => void {
  const kept = (app.context as { stop?: () => void }).stop;
  return kept ?? (() => {});
}

/** The app's release, then the caller's (`onClose`: the database the handlers use). */
function releaseOf(app: Servable, onClose: (() => Promise<void>) | undefined): () => Promise<void> {
  const release = appRelease(app);
  return async () => {
    await release();
    await onClose?.();
  };
}

interface Shutdown {
  /** Stops accepting, drains, exits with `code` (1 when the grace period runs out). */
  stop(reason: string, code: number): void;
  readonly stopping: boolean;
}

function shutdownOf(
  server: Server,
  graceMs: number,
  release: () => Promise<void>,
  stopAnswers: () => void,
  log: Logger,
): Shutdown {
  const inFlight = new Set<ServerResponse>();
  let stopping = false;
  // One listener for every response ('close' comes once): no closure, no `once` wrapper per request.
  function landed(this: ServerResponse) {
    inFlight.delete(this);
  }
  // Ahead of Koa's listener: a request that arrives while stopping is answered with `Connection: close` too.
  server.prependListener('request', (_request: IncomingMessage, response: ServerResponse) => {
    if (stopping) closeAfter(response);
    inFlight.add(response);
    response.on('close', landed);
  });
  return {
    get stopping() {
      return stopping;
    },
    stop(reason, code) {
      if (stopping) return;
      stopping = true;
      log.info(`${reason}: finishing requests in flight, then stopping.`);
      // Out now, not with the next batch: the operator watching the stop sees it begin.
      log.flush();
      server.close(() => {
        // A release that fails is told, but the exit code stays the drain's.
        void release()
          .catch((error: unknown) => log.error(`Releasing failed: ${String(error)}`))
          .finally(() => process.exit(code));
      });
      for (const response of inFlight) closeAfter(response);
      stopAnswers();
      server.closeIdleConnections();
      setTimeout(() => {
        log.error(`Requests still open after ${graceMs} ms; stopping anyway.`);
        server.closeAllConnections();
        process.exit(1);
      }, graceMs).unref();
    },
  };
}

/**
 * The connection closes once this response is sent; the client opens a new
 * one (elsewhere) for its next request. A response already under way (an
 * event stream) has sent its headers: its connection is ended once it finishes.
 */
function closeAfter(response: ServerResponse): void {
  if (!response.headersSent) return void response.setHeader('Connection', 'close');
  // Taken now: Node detaches the socket from the response before our 'finish' listener runs.
  const socket = response.socket;
  response.once('finish', () => socket?.end());
}

function watchFaults(shutdown: Shutdown, redaction: Redaction, logger: Logger): void {
  const log = (kind: string, error: unknown) => {
    const requestId = currentRequestId();
    logger.error(
      { ...(requestId ? { requestId } : {}), error: describeError(error, redaction) },
      kind,
    );
  };
  process.on('unhandledRejection', (reason) =>
    log('Unhandled promise rejection (the service keeps serving)', reason),
  );
  process.on('uncaughtException', (error) => {
    log(
      shutdown.stopping
        ? 'Uncaught exception while stopping'
        : 'Uncaught exception (the service stops)',
      error,
    );
    shutdown.stop('Uncaught exception', 1);
  });
}

/** A whole number from the environment, or the default; anything else stops the start with a clear message. */
export function integerFromEnv(
  name: string,
  fallback: number,
  { min = 0 }: { min?: number } = {},
): number {
  const value = process.env[name];
  if (value === undefined || value === '') return fallback;
  // Digits only: Number() would also take ' ' (0), '0x10' and '1e3'.
  const parsed = /^[0-9]+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(parsed) || parsed < min)
    throw new Error(`${name}=${value} is not a whole number of at least ${min}.`);
  return parsed;
}
