/**
 * What every answer of the conventions must look like: the success envelope
 * (its `data` valid against the operation's response schema), the error
 * envelope, the per-field details of a validation error. Each failure says
 * what was expected and shows what came.
 */
import { readFileSync } from 'node:fs';
import type { Ajv, ValidateFunction } from 'ajv';
import { excerpt, perWorker, type Answer, type OperationPlan } from './harness.js';
import type { SuiteSchemas } from './plan.js';

/** The schemas, and each one's validator once compiled. */
interface Validators {
  schemas: SuiteSchemas;
  ajv: Pick<Ajv, 'compile'>;
  compiled: WeakMap<object, ValidateFunction>;
}

/** Once per jest worker: ajv, too, is imported here only (a static import would load it per file). */
const VALIDATORS = await perWorker('validators', async (): Promise<Validators> => {
  const schemas = JSON.parse(
    readFileSync(new URL('./schemas.json', import.meta.url), 'utf8'),
  ) as SuiteSchemas;
  const options = { strict: false, allErrors: true };
  const ajv =
    schemas.dialect === 'draft-07'
      ? new (await import('ajv')).Ajv(options)
      : new (await import('ajv/dist/2020.js')).Ajv2020(options);
  (await import('ajv-formats')).default.default(ajv);
  ajv.addSchema(schemas.registry);
  ajv.addSchema(schemas.requestRegistry);
  return { schemas, ajv, compiled: new WeakMap() };
});

/** The validator of one of the schemas of schemas.json, compiled on first use. */
export function validatorOf(schema: object): ValidateFunction {
  const { ajv, compiled } = VALIDATORS;
  if (!compiled.has(schema)) compiled.set(schema, ajv.compile(schema));
  return compiled.get(schema)!;
}

/** The success response's schema, compiled on first use. */
function responseValidator(operationId: string): ValidateFunction | undefined {
  const schema = VALIDATORS.schemas.responses[operationId];
  return schema && validatorOf(schema);
}

/** An operation's inputs as the spec describes them: its JSON body and the query parameters the suite can write. */
export const requestInputsOf = (operationId: string): SuiteSchemas['requests'][string] =>
  VALIDATORS.schemas.requests[operationId] ?? {};

/** What a `$ref` of a request schema points to, in the registry of request schemas. */
export function requestSchemaAt(ref: string): unknown {
  const [, pointer = ''] = ref.split('#');
  return pointer
    .split('/')
    .slice(1)
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<any>((node, token) => node?.[token], VALIDATORS.schemas.requestRegistry);
}

export function fail(message: string): never {
  throw new Error(message);
}

export function expectStatus(answer: Answer, status: number, what: string): void {
  if (answer.status !== status) fail(`${what}: expected ${status}, got ${excerpt(answer)}`);
}

/** An ISO 8601 date-time in UTC: `Z`, or an offset of zero. */
const UTC_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]00:?00)$/;

/**
 * Status, JSON, `X-Request-Id`, the envelope with `meta.timestamp`, and the
 * body valid against the spec (a sparse answer, `fields`, too: it keeps the
 * required fields).
 */
export function expectSuccess(answer: Answer, plan: OperationPlan): void {
  const status = plan.status;
  const what = `${plan.method} ${plan.path}`;
  expectStatus(answer, status, what);
  if (!answer.headers.get('x-request-id')) fail(`${what}: no X-Request-Id header.`);
  if (!plan.hasData) return;
  if (!/^application\/([\w.+-]+\+)?json/.test(answer.headers.get('content-type') ?? '')) {
    fail(`${what}: Content-Type ${answer.headers.get('content-type')} is not JSON.`);
  }
  const body = answer.body;
  if (typeof body !== 'object' || body === null || !('data' in body))
    fail(`${what}: no success envelope ({ data, meta }): ${excerpt(answer)}`);
  const timestamp = body.meta?.timestamp;
  if (
    typeof timestamp !== 'string' ||
    !UTC_TIMESTAMP.test(timestamp) ||
    Number.isNaN(Date.parse(timestamp))
  ) {
    fail(`${what}: meta.timestamp ${JSON.stringify(timestamp)} is not an ISO 8601 UTC date-time.`);
  }
  if (plan.paging) expectPagination(body.pagination, plan, what);
  const validate = responseValidator(plan.operationId);
  if (validate && !validate(body)) {
    const errors = (validate.errors ?? [])
      .slice(0, 5)
      .map((error) => `${error.instancePath || '/'} ${error.message}`);
    fail(`${what}: the body does not match the spec's schema: ${errors.join('; ')}`);
  }
}

function expectPagination(pagination: any, plan: OperationPlan, what: string): void {
  if (typeof pagination !== 'object' || pagination === null)
    fail(`${what}: a list without pagination.`);
  if (plan.paging!.style === 'cursor') {
    if (typeof pagination.has_more !== 'boolean')
      fail(`${what}: pagination.has_more is not a boolean: ${JSON.stringify(pagination)}`);
    if (pagination.has_more && typeof pagination.cursor !== 'string')
      fail(`${what}: has_more without a cursor: ${JSON.stringify(pagination)}`);
    return;
  }
  for (const member of ['page', 'limit', 'total', 'total_pages']) {
    if (!Number.isInteger(pagination[member]))
      fail(`${what}: pagination.${member} is not an integer: ${JSON.stringify(pagination)}`);
  }
}

/** Traces of a stack or a source file: what an error must never show the caller. */
const LEAK = /\n\s+at |\(\S+:\d+:\d+\)|node_modules|[\w/.-]+\.[mc]?[jt]s:\d+/;

/** The error envelope: `{ error: { code, message, request_id } }`, the request id the header's, nothing leaked. */
export function expectError(answer: Answer, status: number, code?: string): void {
  expectStatus(answer, status, 'status');
  const error = answer.body?.error;
  if (typeof error !== 'object' || error === null)
    fail(`${status}: no error envelope ({ error: { code, message } }): ${excerpt(answer)}`);
  if (typeof error.code !== 'string' || typeof error.message !== 'string')
    fail(`${status}: error.code and error.message must be strings: ${excerpt(answer)}`);
  if (code !== undefined && error.code !== code)
    fail(`${status}: expected error.code ${code}, got ${error.code}.`);
  const requestId = answer.headers.get('x-request-id');
  if (!requestId) fail(`${status}: no X-Request-Id header.`);
  if (error.request_id !== requestId)
    fail(
      `${status}: error.request_id ${JSON.stringify(error.request_id)} is not the X-Request-Id ${requestId}.`,
    );
  if (LEAK.test(answer.text))
    fail(`${status}: the error shows a stack or source path: ${excerpt(answer)}`);
}

/**
 * A per-field entry of `details` (or `errors`) for the field: named in full
 * (`body.title`) or bare (`title`), with a message. The conventions name one
 * per-field code, `INVALID_FORMAT`: that one is required; other codes are
 * the service's own choice.
 */
export function expectDetail(answer: Answer, field: string, code: string): void {
  const error = answer.body?.error ?? {};
  const details: any[] = Array.isArray(error.details)
    ? error.details
    : Array.isArray(error.errors)
      ? error.errors
      : [];
  const bare = field.slice(field.indexOf('.') + 1);
  const entry = details.find((detail) => detail?.field === field || detail?.field === bare);
  if (!entry) fail(`No per-field detail for ${field}: ${JSON.stringify(details)}`);
  if (typeof entry.message !== 'string')
    fail(`The detail for ${field} has no message: ${JSON.stringify(entry)}`);
  if (code === 'INVALID_FORMAT' && entry.code !== code)
    fail(`The detail for ${field} has code ${entry.code}, expected ${code}.`);
  if (entry.code !== undefined && typeof entry.code !== 'string')
    fail(`The detail for ${field} has a code that is not a string: ${JSON.stringify(entry.code)}`);
}
