/**
 * One operation, end to end: authorize, read and validate the request, call
 * the handler, and answer in the conventions' shape — the success envelope,
 * paging, sparse fieldsets, included relations and conditional GETs.
 */
import type { Context, ParameterizedContext } from 'koa';
import {
  authorize,
  type Caller,
  type Principal,
  type Realm,
  type SecurityRequirement,
} from './auth.js';
import { NO_BODY, readJsonBody, type BodyBounds, type BodyRule } from './body.js';
import { entityTag, latest, notModified } from './caching.js';
import { ApiError, ERROR_CODES, errors } from './errors.js';
import {
  listQueryOf,
  paginationOf,
  type CursorPage,
  type ListQuery,
  type OffsetPage,
  type PagingRule,
} from './paging.js';
import {
  declaredOnly,
  embed,
  fieldOf,
  namesIn,
  sparse,
  type ResourceShape,
} from './representation.js';
import type { ServiceState } from './state.js';
import { deserializeHeaders, deserializeQuery, type ParameterStyles } from './styles.js';
import { problemsOf, type Validator } from './validation.js';

export type Awaitable<T> = T | Promise<T>;

/** What a handler receives: parameters and body validated, coerced to their types, defaults filled in. */
export interface OperationRequest<Path = NoParameters, Query = NoParameters, Body = undefined> {
  path: Path;
  query: Query;
  body: Body;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  principal: Principal | undefined;
  requestId: string;
}

/** An event stream's request: where the client's last stream stopped, and a signal that aborts when it leaves or the service stops. */
export interface EventStreamRequest<
  Path = NoParameters,
  Query = NoParameters,
  Body = undefined,
> extends OperationRequest<Path, Query, Body> {
  /** `Last-Event-ID`: resume after this event. */
  lastEventId: string | undefined;
  signal: AbortSignal;
}

/** A list operation's request, with the list parameters parsed. */
export interface ListRequest<Path = NoParameters, Query = NoParameters> extends OperationRequest<
  Path,
  Query
> {
  list: ListQuery;
}

export type NoParameters = Record<string, never>;

export type OperationKind = 'list' | 'create' | 'read' | 'replace' | 'update' | 'delete' | 'other';

/** A related resource `include` can embed: read through that resource's own operation. */
export interface Relation {
  name: string;
  operationId: string;
  /** For a child collection: the path parameter that takes the including item's id. */
  itemParam?: string;
}

/** An operation as the route table describes it. */
export interface OperationRoute<Handlers> {
  operationId: string;
  method: string;
  /** In router syntax, `/authors/:author_id`. */
  path: string;
  /** As the spec writes it, `/authors/{author_id}`: logs and spans name the route by it. */
  template: string;
  kind: OperationKind;
  /** The first 2xx status the spec declares. */
  status: number;
  /** The success response carries the envelope (false: an empty body). */
  hasData: boolean;
  security: SecurityRequirement;
  parameters: Validator;
  /** Its parameters that are arrays or objects, read as their style writes them before validation. */
  styles?: ParameterStyles;
  body?: BodyRule & { validate: Validator };
  /** A body that is not JSON (a form, a file): read by its own reader (upload.ts). */
  upload?: UploadRule;
  /** An answer that is not the JSON envelope (a file, an event stream): sent by its own writer. */
  answer?: AnswerRule;
  paging?: PagingRule;
  shape: ResourceShape;
  /** Names `fields` may list. */
  fields: readonly string[];
  /** What a `fields` answer keeps whatever it names: the fields the item's response schema requires. */
  requiredFields?: readonly string[];
  /** A closed answer's fields (`additionalProperties: false`): the only ones it sends. */
  declaredFields?: readonly string[];
  includes: Relation[];
  updatedField?: string;
  cacheControl: string;
  /** Calls the handler that implements it (the request was validated against this operation's schemas). */
  invoke(
    handlers: Handlers,
    request: OperationRequest<unknown, unknown, unknown>,
  ): Awaitable<unknown>;
}

export interface UploadRule {
  required: boolean;
  /** The body: `NO_BODY`, or a form (its fields to validate, its files) or a file. */
  read(ctx: Context, settings: StreamSettings): Promise<Upload | typeof NO_BODY>;
  /** A form's fields, coerced like parameters, defaults filled in (its files stand as their names). */
  validate?: Validator;
}

/** A body as an upload reader gives it: tagged, so no JSON body is ever taken for one. */
export type Upload =
  | { kind: 'form'; fields: Record<string, unknown>; files: Record<string, unknown> }
  | { kind: 'file'; file: unknown };

export interface AnswerRule {
  /** What the handler gets besides the request (an event stream's `lastEventId` and `signal`: events.ts). */
  extend?(ctx: Context, settings: StreamSettings): object;
  send(ctx: Context, result: unknown, settings: StreamSettings): Promise<void>;
}

/** What uploads and event streams are held to, service-wide. */
export interface StreamSettings {
  /** The largest file, in bytes, and the most parts a form may have. */
  uploads: { fileSize: number; parts: number };
  /** How often an idle event stream gets a comment that keeps proxies from closing it. */
  keepAliveMs: number;
  /** Aborts when the service stops: event streams end. */
  stopping: AbortSignal;
}

export interface OperationContext<Handlers> {
  handlers: Handlers;
  /** Every operation by id, to read included relations. */
  routes: ReadonlyMap<string, OperationRoute<Handlers>>;
  cursorSecret: string;
  validationStatus: number;
  /** What a 401 challenges the client with. */
  realm: Realm;
  bodyBounds: BodyBounds;
  streams: StreamSettings;
  /** The longest a handler may take to answer (0: no limit); past it, 503 while the handler goes on alone. */
  handlerTimeoutMs?: number;
}

type AnyRequest = OperationRequest<Record<string, unknown>, Record<string, unknown>, unknown> & {
  list?: ListQuery;
};

/** Answers a request routed to the operation, given its path parameters. */
export type OperationHandler = (ctx: ServiceContext, path: Record<string, string>) => Promise<void>;

type ServiceContext = ParameterizedContext<ServiceState>;

export function operation<Handlers>(
  route: OperationRoute<Handlers>,
  context: OperationContext<Handlers>,
): OperationHandler {
  const relations = route.includes.map((relation) => relation.name);
  return async (ctx, path) => {
    authorize(route.security, ctx.state, context.realm);
    const body = route.body
      ? await readJsonBody(ctx, route.body, context.bodyBounds)
      : route.upload
        ? await route.upload.read(ctx, context.streams)
        : NO_BODY;
    const request = requestOf(ctx, path, route, context, body);
    // Checked before the handler runs: a request that names an unknown field changes nothing.
    const representation = {
      fields: namesIn(request.query.fields, route.fields, 'fields', context.validationStatus),
      include: namesIn(request.query.include, relations, 'include', context.validationStatus),
    };
    // Included relations may read any field of the item: only without them does the store read
    // fewer (and never fewer than the answer keeps, or Last-Modified reads).
    if (request.list && representation.fields.length > 0 && representation.include.length === 0)
      request.list.fields = [
        ...representation.fields,
        ...(route.requiredFields ?? []),
        ...(route.updatedField ? [route.updatedField] : []),
      ];
    const invoked = route.invoke(context.handlers, request);
    const result = context.handlerTimeoutMs
      ? await withinHandlerTime(invoked, context.handlerTimeoutMs)
      : await invoked;
    if (route.answer) await route.answer.send(ctx, result, context.streams);
    else await answer(ctx, { route, context, request, result, ...representation });
  };
}

/** The handler's result, or 503 SERVICE_UNAVAILABLE once it has taken `timeoutMs`. */
async function withinHandlerTime<Result>(
  result: Result | Promise<Result>,
  timeoutMs: number,
): Promise<Result> {
  if (!(result instanceof Promise)) return result;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new ApiError(
            ERROR_CODES.unavailable,
            `The operation took longer than ${timeoutMs} ms; retry later.`,
            {
              headers: { 'Retry-After': '1' },
            },
          ),
        ),
      timeoutMs,
    );
  });
  // A handler that fails after the answer is gone is no one's to hear: its rejection is dropped.
  result.catch(() => {});
  try {
    return await Promise.race([result, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The request as its handler receives it, once its parameters and body are valid. */
function requestOf<Handlers>(
  ctx: ServiceContext,
  path: Record<string, string>,
  route: OperationRoute<Handlers>,
  context: OperationContext<Handlers>,
  body: unknown,
): AnyRequest {
  const query = deserializeQuery(ctx.query, route.styles?.query ?? [], ctx.querystring);
  const headers = deserializeHeaders(ctx.headers, route.styles?.header ?? []);
  const parameters = {
    path: path as Record<string, unknown>,
    query: query.values,
    headers: headers.values,
  };
  // A parameter that could not be read is left out: its detail says why, not that it is missing.
  const unread = [...query.problems, ...headers.problems];
  const details = [
    ...unread,
    ...problemsOf(route.parameters, parameters).filter(
      (detail) => !unread.some((problem) => problem.field === detail.field),
    ),
  ];
  const rule = route.body ?? route.upload;
  if (body === NO_BODY) {
    if (rule?.required) details.push({ field: 'body', message: 'is required', code: 'REQUIRED' });
  } else if (route.body) details.push(...problemsOf(route.body.validate, body, 'body'));
  else if (route.upload?.validate) {
    const upload = body as Upload;
    if (upload.kind === 'form')
      details.push(...problemsOf(route.upload.validate, formDocument(upload), 'body'));
  }
  if (details.length > 0) throw errors.validation(details, context.validationStatus);
  const request: AnyRequest = {
    path: parameters.path,
    query: parameters.query,
    body: body === NO_BODY ? undefined : route.upload ? uploadValue(body as Upload) : body,
    headers: ctx.headers,
    principal: ctx.state.principal,
    requestId: ctx.state.requestId,
  };
  if (route.answer?.extend) Object.assign(request, route.answer.extend(ctx, context.streams));
  if (route.paging)
    request.list = listQueryOf(
      route.paging,
      { query: parameters.query, sent: new Set(Object.keys(ctx.query)) },
      cursorKey(context, route, path),
    );
  return request;
}

/** A form as validation reads it: its fields, and each file by its name (so `maxItems`, `required`… of file fields hold). */
function formDocument(form: Upload & { kind: 'form' }): Record<string, unknown> {
  const named = (file: unknown) => (file as { filename: string }).filename;
  const files = Object.entries(form.files).map(([name, file]) => [
    name,
    Array.isArray(file) ? file.map(named) : named(file),
  ]);
  return Object.assign(form.fields, Object.fromEntries(files));
}

/** What the handler receives as `body`: a form's fields and files as one object, a file as itself. */
function uploadValue(upload: Upload): unknown {
  if (upload.kind === 'file') return upload.file;
  return Object.assign(Object.create(null) as object, upload.fields, upload.files);
}

/** Cursors are signed for one list: this operation under these path parameters. */
function cursorKey<Handlers>(
  context: OperationContext<Handlers>,
  route: OperationRoute<Handlers>,
  path: Record<string, unknown>,
): string {
  return `${context.cursorSecret}\n${route.operationId}\n${JSON.stringify(path)}`;
}

interface Answer<Handlers> {
  route: OperationRoute<Handlers>;
  context: OperationContext<Handlers>;
  request: AnyRequest;
  result: unknown;
  fields: string[];
  include: string[];
}

async function answer<Handlers>(
  ctx: ServiceContext,
  { route, context, request, result, fields, include }: Answer<Handlers>,
): Promise<void> {
  if (!route.hasData) {
    if (result === false) throw errors.notFound();
    ctx.status = route.status;
    // Koa turns a null body into 204; a 200 (or 201) the spec declares without content stays what it is, empty.
    ctx.body = route.status === 204 ? null : '';
    ctx.remove('Content-Type');
    return;
  }
  if (result === undefined) throw errors.notFound();
  const items = route.paging
    ? (result as CursorPage<unknown> | OffsetPage<unknown>).items
    : [result];
  const fieldset = { named: fields, required: route.requiredFields ?? [] };
  let shown = items.map((item) =>
    sparse(declaredOnly(item, route.declaredFields, route.shape), fieldset, route.shape),
  );
  if (include.length > 0) {
    const related = await Promise.all(
      items.map((item) => relatedOf(item, include, { route, context, request }, ctx.state)),
    );
    shown = shown.map((item, index) => embed(item, related[index]!, route.shape));
  }
  const data = route.paging ? shown : shown[0];
  const pagination = route.paging
    ? paginationOf(
        route.paging,
        request.list!,
        result as CursorPage<unknown> | OffsetPage<unknown>,
        cursorKey(context, route, request.path),
      )
    : undefined;
  // Serialized once: the same text makes the ETag and the body.
  const serialized = {
    data: JSON.stringify(data),
    pagination: pagination === undefined ? undefined : JSON.stringify(pagination),
  };
  if (
    (ctx.method === 'GET' || ctx.method === 'HEAD') &&
    conditional(ctx, route, serialized, result)
  )
    return;
  ctx.status = route.status;
  ctx.type = 'application/json';
  ctx.body = envelope(serialized.data, serialized.pagination);
}

/** The success envelope, from its serialized parts. */
function envelope(data: string, pagination: string | undefined): string {
  const meta = `{"timestamp":"${new Date().toISOString()}"}`;
  return `{"data":${data},"meta":${meta}${pagination === undefined ? '' : `,"pagination":${pagination}`}}`;
}

/** Sets the caching headers; true when the answer is 304. */
function conditional<Handlers>(
  ctx: Context,
  route: OperationRoute<Handlers>,
  serialized: { data: string; pagination: string | undefined },
  result: unknown,
): boolean {
  const items = route.paging ? (result as { items: unknown[] }).items : [result];
  const lastModified = route.updatedField
    ? latest(items.map((item) => fieldOf(item, route.updatedField!, route.shape)))
    : undefined;
  const tag = entityTag(
    serialized.pagination === undefined
      ? serialized.data
      : `${serialized.data}\n${serialized.pagination}`,
  );
  if (
    !notModified(ctx, {
      tag,
      cacheControl: route.cacheControl,
      ...(lastModified ? { lastModified } : {}),
    })
  )
    return false;
  ctx.status = 304;
  ctx.body = null;
  return true;
}

/** The relations `include` names, each read through its own operation (a missing one is left out). */
async function relatedOf<Handlers>(
  item: unknown,
  names: string[],
  { route, context, request }: Pick<Answer<Handlers>, 'route' | 'context' | 'request'>,
  caller: Caller,
): Promise<Record<string, unknown>> {
  const related: Record<string, unknown> = {};
  for (const relation of route.includes.filter((candidate) => names.includes(candidate.name))) {
    const target = context.routes.get(relation.operationId)!;
    // Included data is read as its own operation would read it: with its permissions.
    authorize(target.security, caller, context.realm);
    const path = relation.itemParam
      ? { ...request.path, [relation.itemParam]: (item as { id?: unknown }).id }
      : request.path;
    const list = target.paging
      ? { list: { limit: target.paging.defaultLimit, sort: [], filters: {} } }
      : {};
    const value = await target.invoke(context.handlers, {
      ...request,
      path,
      query: {},
      body: undefined,
      ...list,
    });
    if (value !== undefined)
      related[relation.name] = target.paging ? (value as { items: unknown[] }).items : value;
  }
  return related;
}
