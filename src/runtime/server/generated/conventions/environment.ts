/**
 * The service's configuration, read from the environment (and from `.env`,
 * which main.ts loads first: variables already set win). Every variable is
 * checked at once, by the same functions that later read it, so a start
 * with mistakes names all of them, one line each, rather than the first.
 */
import { existsSync } from 'node:fs';
import { corsOriginsFromEnv } from './cors.js';
import { createLogger } from './logger.js';
import { asyncContextFromEnv, redactionOf } from './logging.js';
import { redisRateLimitFromEnv } from './rate-limit-redis.js';
import { integerFromEnv } from './serve.js';
import { docsAuthFromEnv, docsPathFromEnv } from './service-routes.js';

/**
 * Reads `.env` (or the file ENV_FILE names) into the environment, where it
 * exists; what went wrong, if anything.
 */
export function loadEnvFile(env: NodeJS.ProcessEnv = process.env): {
  file?: string;
  problem?: string;
} {
  const file = env.ENV_FILE || '.env';
  if (!existsSync(file)) return env.ENV_FILE ? { problem: `ENV_FILE=${file}: no such file.` } : {};
  try {
    process.loadEnvFile(file);
    return { file };
  } catch (error) {
    return { problem: `${file} could not be read: ${(error as Error).message}` };
  }
}

/** Read as this module loads: before the modules that read the environment as they load (main.ts imports this one first). */
export const envFile = loadEnvFile();

/** Whole numbers, each with the least value it may take. */
const INTEGERS: [name: string, min: number][] = [
  ['PORT', 0],
  ['RATE_LIMIT', 1],
  ['RATE_LIMIT_WINDOW', 1],
  ['BODY_MAX_DEPTH', 1],
  ['BODY_MAX_MEMBERS', 1],
  ['UPLOAD_LIMIT', 1],
  ['UPLOAD_MAX_PARTS', 1],
  ['SSE_KEEP_ALIVE_MS', 1],
  ['HEADERS_TIMEOUT_MS', 1],
  ['REQUEST_TIMEOUT_MS', 1],
  ['KEEP_ALIVE_TIMEOUT_MS', 1],
  ['SHUTDOWN_GRACE_MS', 0],
  ['HANDLER_TIMEOUT_MS', 0],
  ['MAX_CONNECTIONS', 0],
  ['PROXY_HOPS', 1],
  ['DATABASE_POOL_SIZE', 1],
];

/** One of a few words. */
const CHOICES: [name: string, values: string[]][] = [
  ['STORE', ['sql', 'memory']],
  ['TRUST_PROXY', ['true', 'false']],
];

/** What is wrong with the environment: one line per variable, none when all is well. */
export function environmentProblems(env: NodeJS.ProcessEnv = process.env): string[] {
  const checks: (() => unknown)[] = [
    ...INTEGERS.map(
      ([name, min]) =>
        () =>
          integerFromEnv(name, min, { min }),
    ),
    ...CHOICES.map(([name, values]) => () => {
      const value = env[name] ?? '';
      if (value !== '' && !values.includes(value))
        throw new Error(`${name}=${value} is not one of ${values.join(', ')}.`);
    }),
    () => corsOriginsFromEnv(env),
    () => docsPathFromEnv(env),
    () => docsAuthFromEnv(env),
    // Its level and its redacted fields, by making one that writes nowhere.
    () => createLogger(redactionOf([], env), { env, destination: { write: () => undefined } }),
    () => asyncContextFromEnv(env),
    () => redisRateLimitFromEnv(),
  ];
  return checks.flatMap((check) => {
    try {
      check();
      return [];
    } catch (error) {
      return [(error as Error).message];
    }
  });
}

/**
 * Stops the start, exit 1, when `.env` could not be read or a variable is
 * wrong: every mistake on a line of its own, no stack. `service` names what
 * did not start.
 */
export function stopOnEnvironmentProblems(service: string): void {
  const problems = [...(envFile.problem ? [envFile.problem] : []), ...environmentProblems()];
  if (problems.length === 0) return;
  console.error(
    `${service} did not start, its configuration is wrong:\n${problems.map((problem) => `  ${problem}`).join('\n')}`,
  );
  process.exit(1);
}
