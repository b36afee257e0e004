/**
 * The service's log: pino's JSON lines on stdout, at LOG_LEVEL (default
 * `info`), one access line per request (observe.ts) and an error line with
 * its stack for what a request did not expect. `npm run dev` prints them
 * pretty. Credentials never reach it: objects lose the credential headers'
 * fields and those LOG_REDACT_FIELDS names (pino's redaction), and text
 * passes through `redact` (logging.ts).
 */
import { pino, type DestinationStream, type Logger } from 'pino';
import { stdoutLines } from './log-batch.js';
import { describeError, redact, type ErrorLogger, type Redaction } from './logging.js';

export type { Logger } from 'pino';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** LOG_LEVEL: one of LOG_LEVELS; `info` when unset. */
export function logLevelFromEnv(env: NodeJS.ProcessEnv = process.env): string {
  const level = env.LOG_LEVEL || 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(level))
    throw new Error(`LOG_LEVEL=${level} is not one of ${LOG_LEVELS.join(', ')}.`);
  return level;
}

/** LOG_REDACT_FIELDS: more fields never logged, comma-separated pino paths (`user.password`, `*.token`). */
export function redactedFieldsFromEnv(env: NodeJS.ProcessEnv = process.env): string[] {
  return (env.LOG_REDACT_FIELDS ?? '')
    .split(',')
    .map((path) => path.trim())
    .filter(Boolean);
}

/**
 * A credential header's field wherever an object puts it: top level, or one
 * or two levels down (`req.headers`). Only names of HTTP's token characters,
 * the only ones a header can have, become paths.
 */
function credentialPaths(redaction: Redaction): string[] {
  return [...redaction.headers]
    .filter((name) => /^[\w!#$%&'*+.^`|~-]+$/.test(name))
    .flatMap((name) => {
      const key = /^[A-Za-z_$][\w$]*$/.test(name) ? name : `["${name}"]`;
      const below = key.startsWith('[') ? key : `.${key}`;
      return [key, `*${below}`, `*.*${below}`];
    });
}

export interface LoggerOptions {
  env?: NodeJS.ProcessEnv;
  /** Where the lines go; default stdout, in batches (log-batch.ts). */
  destination?: DestinationStream;
}

/** An access line's fields (observe.ts), in the order the line holds them. */
export interface AccessLine {
  requestId: string;
  method: string;
  route: string;
  status: number;
  durationMs: number;
  principal?: string;
  traceId?: string;
}

/** Writes one access line at `info`, with the message `request`. */
export type AccessWriter = (line: AccessLine) => void;

const accessWriters = new WeakMap<Logger, AccessWriter>();

/** What writes the access lines: pino's `info`, or, for a logger createLogger made, the same line written directly. */
export function accessWriterOf(logger: Logger): AccessWriter {
  return accessWriters.get(logger) ?? ((line) => logger.info(line, 'request'));
}

/**
 * The access line as pino writes it, from the logger's own parts (its level
 * prefix, time, bindings and end: pino's public `symbols`), each field quoted
 * as pino 10 quotes a string on Node 25 and later (JSON.stringify; on older
 * Node pino leaves a lone surrogate unescaped, this escapes it), straight to
 * the logger's destination. Why: pino's general path (the message hook,
 * the loop over keys, each value's type asked) cost a GET by id about a
 * tenth of its CPU under load. Only for a logger whose line nothing else
 * changes: no redaction of these keys, no serializers, no mixin, a
 * destination that takes text (logger.test.ts holds it to pino's line).
 */
function directAccessWriter(logger: Logger): AccessWriter | undefined {
  const parts = logger as unknown as Record<symbol, unknown>;
  const { lsCacheSym, timeSym, chindingsSym, endSym, streamSym, needsMetadataGsym } = pino.symbols;
  const destination = parts[streamSym] as DestinationStream & Record<symbol, unknown>;
  if (destination[needsMetadataGsym] === true) return undefined;
  const head = (parts[lsCacheSym] as Record<number, string>)[logger.levels.values.info!];
  const time = parts[timeSym] as () => string;
  const end = `,"msg":"request"${parts[endSym] as string}`;
  if (typeof head !== 'string' || typeof time !== 'function') return undefined;
  return (line) => {
    let text = `${head}${time()}${parts[chindingsSym] as string},"requestId":${jsonString(line.requestId)},"method":${jsonString(line.method)},"route":${jsonString(line.route)},"status":${jsonNumber(line.status)},"durationMs":${jsonNumber(line.durationMs)}`;
    if (line.principal !== undefined) text += `,"principal":${jsonString(line.principal)}`;
    if (line.traceId !== undefined) text += `,"traceId":${jsonString(line.traceId)}`;
    destination.write(text + end);
  };
}

/** Printable ASCII but `"` and `\\`: such a text is its own JSON string, quoted. */
const PLAIN_TEXT = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** A text as JSON.stringify writes it; the access line's are almost always plain, which a test tells faster than JSON.stringify runs. */
const jsonString = (text: string) => (PLAIN_TEXT.test(text) ? `"${text}"` : JSON.stringify(text));

/** A number as pino writes it: null when not finite. */
const jsonNumber = (value: number) => (Number.isFinite(value) ? String(value) : 'null');

/** The service's logger; a bad LOG_LEVEL or LOG_REDACT_FIELDS path stops the start with a clear message. */
export function createLogger(redaction: Redaction, options: LoggerOptions = {}): Logger {
  const env = options.env ?? process.env;
  const fields = redactedFieldsFromEnv(env);
  // Most lines carry the same message (every access line's is `request`): its text is redacted once.
  let last = { text: '', redacted: '' };
  const redacted = (text: string) => {
    if (text !== last.text) last = { text, redacted: redact(text, redaction) };
    return last.redacted;
  };
  try {
    const logger = pino(
      {
        level: logLevelFromEnv(env),
        redact: { paths: [...credentialPaths(redaction), ...fields], censor: '[redacted]' },
        hooks: {
          // Messages are text a caller wrote: a token pasted into one is blanked too.
          logMethod(args, write) {
            write.apply(
              this,
              args.map((arg) => (typeof arg === 'string' ? redacted(arg) : arg)) as [string],
            );
          },
        },
      },
      options.destination ?? stdoutLines(),
    );
    // The access line's keys are fixed and name no credential. Fields LOG_REDACT_FIELDS names
    // may be among them (`principal`): then it takes pino's path, redaction and all.
    const direct = fields.length === 0 ? directAccessWriter(logger) : undefined;
    if (direct) accessWriters.set(logger, direct);
    return logger;
  } catch (error) {
    if (fields.length > 0 && /redaction path/i.test((error as Error).message))
      throw new Error(
        `LOG_REDACT_FIELDS=${env.LOG_REDACT_FIELDS} is not a list of field paths such as user.password,*.token.`,
      );
    throw error;
  }
}

/** A request's unexpected error: one line at `error`, its stack and causes as text, its path redacted. */
export function errorLoggerFor(logger: Logger, redaction: Redaction): ErrorLogger {
  return ({ requestId, method, path, error }) =>
    logger.error(
      { requestId, method, path: redact(path, redaction), error: describeError(error, redaction) },
      'request failed',
    );
}
