/**
 * The error envelope (conventions §7) and the errors this service answers
 * with. Handlers throw these; anything else that escapes becomes a 500 that
 * says nothing about its cause.
 */

/** One invalid field of a request: `body.title`, `query.limit`, `path.book_id`. */
export interface ErrorDetail {
  field: string;
  message: string;
  code?: string;
}

export interface ErrorEnvelope {
  error: { code: string; message: string; request_id: string; details?: ErrorDetail[] };
}

/** Statuses and codes of the catalog, as specforge's conventions define them. */
export const ERROR_CODES = {
  badRequest: { status: 400, code: 'BAD_REQUEST' },
  unauthorized: { status: 401, code: 'UNAUTHORIZED' },
  forbidden: { status: 403, code: 'FORBIDDEN' },
  notFound: { status: 404, code: 'RESOURCE_NOT_FOUND' },
  methodNotAllowed: { status: 405, code: 'METHOD_NOT_ALLOWED' },
  notAcceptable: { status: 406, code: 'NOT_ACCEPTABLE' },
  conflict: { status: 409, code: 'CONFLICT' },
  payloadTooLarge: { status: 413, code: 'PAYLOAD_TOO_LARGE' },
  unsupportedMediaType: { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' },
  validation: { status: 422, code: 'VALIDATION_ERROR' },
  rateLimited: { status: 429, code: 'RATE_LIMITED' },
  internal: { status: 500, code: 'INTERNAL_ERROR' },
  unavailable: { status: 503, code: 'SERVICE_UNAVAILABLE' },
} as const;

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: ErrorDetail[] | undefined;
  /** Response headers that belong to the error (`Allow`, `Retry-After`, and on a 401 always `WWW-Authenticate`: RFC 9110 §15.5.2). */
  readonly headers: Readonly<Record<string, string>>;

  constructor(
    kind: { status: number; code: string },
    message: string,
    options: { details?: ErrorDetail[]; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'ApiError';
    this.status = kind.status;
    this.code = kind.code;
    this.details = options.details;
    this.headers =
      kind.status === 401
        ? { 'WWW-Authenticate': 'Bearer', ...options.headers }
        : (options.headers ?? {});
  }

  toEnvelope(requestId: string): ErrorEnvelope {
    return {
      error: {
        code: this.code,
        message: this.message,
        request_id: requestId,
        ...(this.details ? { details: this.details } : {}),
      },
    };
  }
}

/** The errors by name, with the messages clients see. */
export const errors = {
  badRequest: (message: string) => new ApiError(ERROR_CODES.badRequest, message),
  /** `challenge`: the operation's `WWW-Authenticate` (auth.ts); every 401 carries one, `Bearer` by default. */
  unauthorized: (challenge?: string) =>
    new ApiError(
      ERROR_CODES.unauthorized,
      'The access token is invalid or expired.',
      challenge ? { headers: { 'WWW-Authenticate': challenge } } : {},
    ),
  forbidden: (message = 'The credential lacks a permission this operation requires.') =>
    new ApiError(ERROR_CODES.forbidden, message),
  notFound: (message = 'The resource does not exist.') =>
    new ApiError(ERROR_CODES.notFound, message),
  methodNotAllowed: (allowed: string[]) =>
    new ApiError(ERROR_CODES.methodNotAllowed, `This path accepts ${allowed.join(', ')}.`, {
      headers: { Allow: allowed.join(', ') },
    }),
  notAcceptable: (message: string) => new ApiError(ERROR_CODES.notAcceptable, message),
  conflict: (message: string, details?: ErrorDetail[]) =>
    new ApiError(ERROR_CODES.conflict, message, details ? { details } : {}),
  /** `subject`: what is too large when it is not the whole body (`The file in body.avatar`: upload.ts). */
  payloadTooLarge: (limit: number, subject = 'The request body') =>
    new ApiError(ERROR_CODES.payloadTooLarge, `${subject} is larger than ${limit} bytes.`),
  /** A body within the byte limit whose structure is past the service's bounds (body.ts). */
  bodyTooComplex: (message: string) => new ApiError(ERROR_CODES.payloadTooLarge, message),
  /** The client closed the connection before its request arrived: nobody reads this answer, and nothing is logged. */
  clientGone: () =>
    new ApiError(
      ERROR_CODES.badRequest,
      'The client closed the connection before the request body arrived.',
    ),
  unsupportedMediaType: (accepted: string[], subject = 'The request body') =>
    new ApiError(ERROR_CODES.unsupportedMediaType, `${subject} must be ${accepted.join(' or ')}.`),
  validation: (details: ErrorDetail[], status: number = ERROR_CODES.validation.status) =>
    new ApiError(
      { status, code: ERROR_CODES.validation.code },
      'The request is invalid; see details.',
      { details },
    ),
  rateLimited: (retryAfterSeconds: number) =>
    new ApiError(ERROR_CODES.rateLimited, `Too many requests; retry in ${retryAfterSeconds} s.`, {
      headers: { 'Retry-After': String(retryAfterSeconds) },
    }),
  internal: () =>
    new ApiError(
      ERROR_CODES.internal,
      'The service failed to answer; quote the request id when reporting it.',
    ),
  /** A service the request depends on does not answer (rate-limit-redis.ts, RATE_LIMIT_FAIL=closed). */
  unavailable: (retryAfterSeconds: number) =>
    new ApiError(
      ERROR_CODES.unavailable,
      `The service cannot answer right now; retry in ${retryAfterSeconds} s.`,
      { headers: { 'Retry-After': String(retryAfterSeconds) } },
    ),
};

/** Koa's and its middleware's errors (`ctx.throw(404)`) keep their status; their text is not ours to show. */
const BY_STATUS = new Map<number, { status: number; code: string }>(
  Object.values(ERROR_CODES).map((kind) => [kind.status, kind]),
);

export function asApiError(caught: unknown): ApiError {
  if (caught instanceof ApiError) return caught;
  const status = (caught as { status?: unknown } | null)?.status;
  const kind = typeof status === 'number' && status < 500 ? BY_STATUS.get(status) : undefined;
  if (kind && (caught as { expose?: unknown }).expose === true)
    return new ApiError(kind, (caught as Error).message);
  return errors.internal();
}
