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

const accessLoggers = new WeakMap<Logger, Logger>();

/** What writes the access lines (observe.ts): the logger, or its child without redaction where that is safe. */
export function accessLoggerOf(logger: Logger): Logger {
  return accessLoggers.get(logger) ?? logger;
}

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
    // The access line's keys are fixed and name no credential: redacting it costs more than
    // writing it (8 µs a line). Fields LOG_REDACT_FIELDS names may be among them (`principal`).
    if (fields.length === 0) accessLoggers.set(logger, logger.child({}, { redact: [] }));
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
