/**
 * What the service writes to its log, and what it never writes: credentials.
 * Errors are logged as text (name, message, code, stack and causes), never
 * as whole objects, whose properties may carry a request's headers; the
 * text itself passes through `redact`, which blanks what follows a
 * credential's header name or auth scheme. Every entry names the request it
 * belongs to, when there is one; with LOG_ASYNC_CONTEXT (the default from
 * Node 24) the request id follows the request's asynchronous work
 * (`requestScope`), so even an error nobody awaited is told.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/** Headers whose values are credentials, whatever the spec adds (lower case). */
const CREDENTIAL_HEADERS = [
  'authorization',
  'proxy-authorization',
  'x-api-key',
  'cookie',
  'set-cookie',
];
const REDACTED = '[redacted]';
/** Headers whose values are lists of `name=value` pairs separated by `;`. */
const COOKIE_HEADERS = ['cookie', 'set-cookie'];
/** Causes are followed this far: a chain is for reading, not for looping on. */
const MAX_CAUSES = 5;

export interface Redaction {
  /** Lower-case header names whose values are never logged. */
  headers: ReadonlySet<string>;
  pattern: RegExp;
}

/** The credential headers, the spec's API key headers and LOG_REDACT_HEADERS (comma-separated). */
export function redactionOf(
  extraHeaders: readonly string[] = [],
  env: NodeJS.ProcessEnv = process.env,
): Redaction {
  const configured = (env.LOG_REDACT_HEADERS ?? '').split(',');
  const headers = new Set(
    [...CREDENTIAL_HEADERS, ...extraHeaders, ...configured]
      .map((name) => name.trim().toLowerCase())
      .filter(Boolean),
  );
  const escaped = (list: string[]) =>
    list.map((name) => name.replace(/[.*+?^$()|[\]\\{}]/g, '\\$&')).join('|');
  const cookies = [...headers].filter((name) => COOKIE_HEADERS.includes(name));
  const others = [...headers].filter((name) => !COOKIE_HEADERS.includes(name));
  // A value is a quoted string (whole, `;` and `,` included), an array of them (repeated headers
  // as JSON or util.inspect print them), or bare text: to the line's end for a cookie, whose
  // pairs `;` separates, else to the next separator.
  const quoted = `"(?:[^"\\\\\\r\\n]|\\\\.)*"|'(?:[^'\\\\\\r\\n]|\\\\.)*'`;
  const value = (bare: string) => `(?:${quoted}|\\[(?:\\s*(?:${quoted})\\s*,?)*\\s*\\]|${bare})`;
  const named = (list: string[], bare: string) =>
    list.length === 0 ? [] : [`(?:${escaped(list)})["']?\\s*[:=]\\s*${value(bare)}`];
  const alternatives = [
    ...named(cookies, `[^\\r\\n]+`),
    ...named(others, `[^"'\\r\\n,;}]+`),
    // `Bearer <token>` / `Basic <credentials>` wherever they appear.
    `\\b(?:Bearer|Basic)\\s+[\\w.~+/=-]+`,
  ];
  return { headers, pattern: new RegExp(alternatives.join('|'), 'gi') };
}

/** Keeps what names the credential (`cookie: `, `Bearer `) and the value's quotes; blanks the value. */
export function redact(text: string, redaction: Redaction): string {
  return text.replace(redaction.pattern, (match) => {
    const prefix = /^(?:(?:Bearer|Basic)\s+|[^:=]*?["']?\s*[:=]\s*)/i.exec(match)?.[0] ?? '';
    const quote = match.charAt(prefix.length);
    if (quote === '"' || quote === "'") return `${prefix}${quote}${REDACTED}${quote}`;
    return `${prefix}${REDACTED}`;
  });
}

/** Headers fit for a log: credential values replaced. */
export function redactHeaders(
  headers: Readonly<Record<string, unknown>>,
  redaction: Redaction,
): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [
      name,
      redaction.headers.has(name.toLowerCase()) ? REDACTED : value,
    ]),
  );
}

/** An error as log text: its stack (or name and message), its `code`, its causes; none of its other properties. */
export function describeError(error: unknown, redaction: Redaction): string {
  const lines: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && current !== null && depth <= MAX_CAUSES; depth++) {
    lines.push(`${depth > 0 ? 'Caused by: ' : ''}${oneError(current)}`);
    current = current instanceof Error ? current.cause : undefined;
  }
  return redact(lines.join('\n'), redaction);
}

function oneError(error: unknown): string {
  if (!(error instanceof Error)) return `${typeof error} thrown: ${String(error).slice(0, 500)}`;
  const code = (error as { code?: unknown }).code;
  const head = error.stack ?? `${error.name}: ${error.message}`;
  return typeof code === 'string' || typeof code === 'number' ? `${head}\n  code: ${code}` : head;
}

/** Which request the running code serves: set around every request by the request conventions. */
export const requestScope = new AsyncLocalStorage<{ requestId: string }>();

/**
 * Whether requests run in `requestScope` (LOG_ASYNC_CONTEXT=true or false),
 * so an error nobody awaited is logged with its request id. Before Node 24,
 * AsyncLocalStorage runs on promise hooks that cost a read by id about a
 * tenth of its throughput: the default is on only from Node 24, whose
 * AsyncContextFrame makes it nearly free.
 */
export function asyncContextFromEnv(
  env: NodeJS.ProcessEnv = process.env,
  nodeVersion: string = process.versions.node,
): boolean {
  const setting = env.LOG_ASYNC_CONTEXT ?? '';
  if (setting === 'true' || setting === 'false') return setting === 'true';
  if (setting !== '') throw new Error(`LOG_ASYNC_CONTEXT=${setting} is neither true nor false.`);
  return Number(nodeVersion.split('.')[0]) >= 24;
}

export function currentRequestId(): string | undefined {
  return requestScope.getStore()?.requestId;
}

export type ErrorLogger = (entry: {
  requestId: string;
  method: string;
  path: string;
  error: unknown;
}) => void;
