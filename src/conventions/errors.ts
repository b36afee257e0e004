/**
 * The error catalog (conventions §7 plus the codes DESIGN.md adds) and the
 * rules for which error responses an operation declares. Later targets (the
 * server, the conformance suite) read the same table through the model.
 */
import type { OperationKind } from '../openapi/classify.js';
import type { HttpMethod } from '../openapi/document.js';

export interface ErrorKind {
  status: number;
  code: string;
  /** Name of the response in `components.responses`. */
  response: string;
  description: string;
}

export const ERRORS = {
  badRequest: { status: 400, code: 'BAD_REQUEST', response: 'BadRequestError', description: 'The request is malformed: unparseable JSON, or a tampered cursor.' },
  unauthorized: { status: 401, code: 'UNAUTHORIZED', response: 'UnauthorizedError', description: 'The credential is missing, invalid or expired.' },
  forbidden: { status: 403, code: 'FORBIDDEN', response: 'ForbiddenError', description: 'The credential is valid but lacks a permission the operation requires.' },
  notFound: { status: 404, code: 'RESOURCE_NOT_FOUND', response: 'NotFoundError', description: 'The addressed resource does not exist.' },
  methodNotAllowed: { status: 405, code: 'METHOD_NOT_ALLOWED', response: 'MethodNotAllowedError', description: 'The path exists, but not with this method.' },
  notAcceptable: { status: 406, code: 'NOT_ACCEPTABLE', response: 'NotAcceptableError', description: 'The requested API version is not served.' },
  conflict: { status: 409, code: 'CONFLICT', response: 'ConflictError', description: 'The request conflicts with the current state of the resource.' },
  payloadTooLarge: { status: 413, code: 'PAYLOAD_TOO_LARGE', response: 'PayloadTooLargeError', description: 'The request body is larger than the service accepts.' },
  unsupportedMediaType: { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', response: 'UnsupportedMediaTypeError', description: 'The request body is not JSON.' },
  validation: { status: 422, code: 'VALIDATION_ERROR', response: 'ValidationError', description: 'The input breaks the schema; `details` has one entry per invalid field.' },
  rateLimited: { status: 429, code: 'RATE_LIMITED', response: 'RateLimitedError', description: 'Too many requests; retry after `Retry-After` seconds.' },
  internal: { status: 500, code: 'INTERNAL_ERROR', response: 'InternalError', description: 'The service failed; the request id identifies the failure in its logs.' },
  unavailable: { status: 503, code: 'SERVICE_UNAVAILABLE', response: 'ServiceUnavailableError', description: 'A service this one depends on does not answer right now; retry after `Retry-After` seconds.' },
} as const satisfies Record<string, ErrorKind>;

export type ErrorName = keyof typeof ERRORS;

/** Error statuses the conventions own: the merge replaces what a spec declares for them. */
export const OWNED_ERROR_STATUSES = new Set(Object.values(ERRORS).map((error) => String(error.status)));

export interface ErrorRuleInput {
  method: HttpMethod;
  kind: OperationKind;
  secured: boolean;
  addressesId: boolean;
  takesBody: boolean;
  takesInput: boolean;
  versioned: boolean;
  /** 400 or 422: where schema violations are reported. */
  validationStatus: 400 | 422;
}

const WRITES: HttpMethod[] = ['post', 'put', 'patch', 'delete'];

/** The error responses that apply to one operation, in status order. */
export function errorsFor(input: ErrorRuleInput): ErrorKind[] {
  const applies: [ErrorName, boolean][] = [
    ['badRequest', true],
    ['unauthorized', input.secured],
    ['forbidden', input.secured],
    ['notFound', input.addressesId],
    ['notAcceptable', input.versioned],
    ['conflict', WRITES.includes(input.method)],
    ['payloadTooLarge', input.takesBody],
    ['unsupportedMediaType', input.takesBody],
    ['validation', input.takesInput && input.validationStatus === 422],
    ['rateLimited', true],
    ['internal', true],
    ['unavailable', true],
  ];
  return applies.filter(([, applicable]) => applicable).map(([name]) => ERRORS[name]);
}
