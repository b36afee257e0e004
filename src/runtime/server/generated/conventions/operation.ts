/**
 * One operation, end to end: authorize, read and validate the request, call
 * the handler, and answer in the conventions' shape — the success envelope,
 * paging, sparse fieldsets, included relations and conditional GETs.
 */
import type { Context, ParameterizedContext } from 'koa';
import {
  authorize,
  isThenable,
  type Caller,
  type Principal,
  type Realm,
  type SecurityRequirement,
} from './auth.js';
import { answerJson, type JsonParts } from './answer-headers.js';
import { NO_BODY, readJsonBody, type BodyBounds, type BodyRule } from './body.js';
import { entityTag, latest, notModified } from './caching.js';
import { handlerDeadline } from './deadline.js';
import { errors } from './errors.js';
import {
  listQueryOf,
  paginationOf,
  paginationText,
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
  noteRenderings,
  renderedJson,
  renderingOf,
  sparse,
  type Noted,
  type Rendering,
  type ResourceShape,
} from './representation.js';
import type { ServiceState } from './state.js';
import { deserializeHeaders, deserializeQuery, queryOf, type ParameterStyles } from './styles.js';
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

/**
 * The route table's way to name a handler: `handler('authors', 'getAuthor')`
 * is the `invoke` that calls `handlers.authors.getAuthor(request)`, so a route
 * names its handler in data, checked against `Handlers`, whatever the names.
 */
export function handlerOf<Handlers>() {
  return <Group extends keyof Handlers, Name extends keyof Handlers[Group]>(
      group: Group,
      name: Name,
    ): OperationRoute<Handlers>['invoke'] =>
    (handlers, request) => {
      const owner = handlers[group];
      const method = owner[name] as (request: unknown) => Awaitable<unknown>;
      return method.call(owner, request);
    };
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

/** Answers a request routed to the operation, given its path parameters; a promise where it waits for something. */
export type OperationHandler = (
  ctx: ServiceContext,
  path: Record<string, string>,
) => void | Promise<void>;

type ServiceContext = ParameterizedContext<ServiceState>;

export function operation<Handlers>(
  route: OperationRoute<Handlers>,
  context: OperationContext<Handlers>,
): OperationHandler {
  const relations = route.includes.map((relation) => relation.name);
  // Made once per route: one timer for all its requests (deadline.ts).
  const deadline = context.handlerTimeoutMs ? handlerDeadline(context.handlerTimeoutMs) : undefined;
  const lastTag: LastTag = { data: '', pagination: undefined, tag: '' };
  const lastPage: LastPage = { renderings: [], json: '[]' };
  const cursorKeyOf = cursorKey(context, route);
  /** From the body read on; a promise only where the handler's result or included relations are one. */
  const answerRequest = (
    ctx: ServiceContext,
    path: Record<string, string>,
    body: unknown,
  ): void | Promise<void> => {
    const walk = route.paging ? cursorKeyOf(path) : '';
    const request = requestOf(ctx, path, route, context, body, walk);
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
    const { result: invoked, noted } = noteRenderings(() =>
      route.invoke(context.handlers, request),
    );
    const held = deadline ? deadline(invoked) : invoked;
    const send = (result: unknown): void | Promise<void> =>
      route.answer
        ? route.answer.send(ctx, result, context.streams)
        : answer(ctx, {
            route,
            context,
            request,
            result,
            walk,
            noted,
            lastTag,
            lastPage,
            ...representation,
          });
    // A handler that answers at once (the memory store's do) is answered at once: no promise
    // made, no turn of the event loop's microtasks waited for.
    return isThenable(held) ? Promise.resolve(held).then(send) : send(held);
  };
  return (ctx, path) => {
    authorize(route.security, ctx.state, context.realm);
    if (route.body)
      return readJsonBody(ctx, route.body, context.bodyBounds).then((body) =>
        answerRequest(ctx, path, body),
      );
    if (route.upload)
      return route.upload.read(ctx, context.streams).then((body) => answerRequest(ctx, path, body));
    return answerRequest(ctx, path, NO_BODY);
  };
}

/** The request as its handler receives it, once its parameters and body are valid. */
function requestOf<Handlers>(
  ctx: ServiceContext,
  path: Record<string, string>,
  route: OperationRoute<Handlers>,
  context: OperationContext<Handlers>,
  body: unknown,
  walk: string,
): AnyRequest {
  const search = ctx.querystring;
  const sent = queryOf(search);
  const query = deserializeQuery(sent, route.styles?.query ?? [], search);
  const headers = deserializeHeaders(ctx.headers, route.styles?.header ?? []);
  const parameters = {
    path: path as Record<string, unknown>,
    query: query.values,
    headers: headers.values,
  };
  // A parameter that could not be read is left out: its detail says why, not that it is missing.
  const unread = [...query.problems, ...headers.problems];
  const problems = problemsOf(route.parameters, parameters);
  const details =
    unread.length === 0
      ? problems
      : [
          ...unread,
          ...problems.filter((detail) => !unread.some((problem) => problem.field === detail.field)),
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
      { query: parameters.query, sent: new Set(Object.keys(sent)) },
      walk,
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
): (path: Record<string, unknown>) => string {
  const operation = `${context.cursorSecret}\n${route.operationId}\n`;
  return (path) => operation + JSON.stringify(path);
}

interface Answer<Handlers> {
  route: OperationRoute<Handlers>;
  context: OperationContext<Handlers>;
  request: AnyRequest;
  result: unknown;
  fields: string[];
  include: string[];
  /** What the list's cursors are signed for (`cursorKey`); empty for other operations. */
  walk: string;
  /** The items stores handed out while the handler was called (representation.ts). */
  noted: Noted;
  lastTag: LastTag;
  lastPage: LastPage;
}

/** The route's last ETag and the text it was made from: the same answer asked again is not hashed again. */
interface LastTag {
  data: string;
  pagination: string | undefined;
  tag: string;
}

/** The route's last page of renderings and its JSON text: the same items again are not joined again. */
interface LastPage {
  renderings: readonly Rendering[];
  json: string;
  /** The text in UTF-8, made on first use. */
  bytes?: Buffer | undefined;
}

/** Answers in the envelope; a promise only where included relations are read. */
function answer<Handlers>(ctx: ServiceContext, answering: Answer<Handlers>): void | Promise<void> {
  const { route, result, fields, include, noted, lastPage } = answering;
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
  // Items shown as the store made them, each of a version already answered, need no serializing.
  const asMade =
    fields.length === 0 &&
    include.length === 0 &&
    !(route.declaredFields && route.shape === 'flat');
  const rendered = asMade && noted.length > 0 ? renderingsOf(items, noted) : undefined;
  if (rendered) {
    if (!route.paging) {
      const [rendering] = rendered as [Rendering];
      return send(ctx, answering, items, rendered, renderedJson(rendering));
    }
    const page = pageOf(rendered, lastPage);
    return send(
      ctx,
      answering,
      items,
      rendered,
      page.json,
      (page.bytes ??= Buffer.from(page.json)),
    );
  }
  const fieldset = { named: fields, required: route.requiredFields ?? [] };
  const shown = items.map((item) =>
    sparse(declaredOnly(item, route.declaredFields, route.shape), fieldset, route.shape),
  );
  const json = (values: unknown[]) => JSON.stringify(route.paging ? values : values[0]);
  if (include.length === 0) return send(ctx, answering, items, undefined, json(shown));
  const { context, request } = answering;
  return Promise.all(
    items.map((item) => relatedOf(item, include, { route, context, request }, ctx.state)),
  ).then((related) => {
    const embedded = shown.map((item, index) => embed(item, related[index]!, route.shape));
    send(ctx, answering, items, undefined, json(embedded));
  });
}

/** The envelope around the answer's serialized data, with its paging and caching headers (304 where the client's copy is current). */
function send<Handlers>(
  ctx: ServiceContext,
  { route, request, result, walk, lastTag }: Answer<Handlers>,
  items: unknown[],
  rendered: Rendering[] | undefined,
  data: string,
  bytes?: Buffer,
): void {
  const pagination = route.paging
    ? paginationOf(
        route.paging,
        request.list!,
        result as CursorPage<unknown> | OffsetPage<unknown>,
        walk,
      )
    : undefined;
  // Serialized once: the same text makes the ETag and the body.
  const serialized = {
    data,
    pagination: pagination === undefined ? undefined : paginationText(pagination),
  };
  if (
    (ctx.method === 'GET' || ctx.method === 'HEAD') &&
    conditional(ctx, route, serialized, { items, rendered, lastTag })
  )
    return;
  answerJson(ctx, route.status, envelope(bytes ?? serialized.data, serialized.pagination));
}

/** A page's JSON text, from its items' renderings: the route's last one while its items are the same. */
function pageOf(rendered: Rendering[], last: LastPage): LastPage {
  const same =
    rendered.length === last.renderings.length &&
    rendered.every((rendering, index) => rendering === last.renderings[index]);
  if (!same) {
    last.renderings = rendered;
    last.json = `[${rendered.map(renderedJson).join(',')}]`;
    last.bytes = undefined;
  }
  return last;
}

/** Each item's rendering (representation.ts); undefined unless every item has one. */
function renderingsOf(items: unknown[], noted: Noted): Rendering[] | undefined {
  const found: Rendering[] = [];
  for (let index = 0; index < items.length; index++) {
    const rendering = renderingOf(items[index], noted, index);
    if (!rendering) return undefined;
    found.push(rendering);
  }
  return found;
}

/** `meta.timestamp`: the time of the answer, formatted once per millisecond. */
let clock = { ms: 0, text: '' };
function timestamp(): string {
  const ms = Date.now();
  if (ms !== clock.ms) clock = { ms, text: new Date(ms).toISOString() };
  return clock.text;
}

/**
 * The success envelope, from its serialized parts. Kept in parts: a page's
 * data goes out as the bytes made once for it, not copied into a new text
 * and encoded again (on a page of 20 that was most of what the garbage
 * collector did).
 */
function envelope(data: string | Buffer, pagination: string | undefined): JsonParts {
  const meta = `{"timestamp":"${timestamp()}"}`;
  return [
    '{"data":',
    data,
    `,"meta":${meta}${pagination === undefined ? '' : `,"pagination":${pagination}`}}`,
  ];
}

/** Sets the caching headers; true when the answer is 304. */
function conditional<Handlers>(
  ctx: Context,
  route: OperationRoute<Handlers>,
  serialized: { data: string; pagination: string | undefined },
  {
    items,
    rendered,
    lastTag,
  }: { items: unknown[]; rendered: Rendering[] | undefined; lastTag: LastTag },
): boolean {
  const lastModified = !route.updatedField
    ? undefined
    : rendered
      ? latestRendered(rendered, route.updatedField)
      : latest(items.map((item) => fieldOf(item, route.updatedField!, route.shape)));
  // A single item's tag is its rendering's, made once per version of it.
  const tag =
    rendered && !route.paging
      ? (rendered[0]!.tag ??= entityTag(serialized.data))
      : tagOf(serialized, lastTag);
  if (
    !notModified(ctx, {
      tag,
      cacheControl: route.cacheControl,
      ...(lastModified ? { lastModified } : {}),
    })
  )
    return false;
  answerJson(ctx, 304, undefined);
  return true;
}

/** The answer's ETag: the route's last one where its text is the same. */
function tagOf(
  { data, pagination }: { data: string; pagination: string | undefined },
  last: LastTag,
): string {
  if (data !== last.data || pagination !== last.pagination) {
    last.tag = entityTag(pagination === undefined ? data : `${data}\n${pagination}`);
    last.data = data;
    last.pagination = pagination;
  }
  return last.tag;
}

/** Last-Modified from the renderings' update times, each read once per version of its item. */
function latestRendered(rendered: Rendering[], field: string): string | undefined {
  let best: Rendering['modified'];
  for (const rendering of rendered) {
    let modified = rendering.modified;
    if (modified?.field !== field) {
      const time = latest([fieldOf(rendering.template, field, rendering.shape)]);
      modified = rendering.modified = {
        field,
        time: time?.getTime() ?? NaN,
        text: time?.toUTCString(),
      };
    }
    if (!Number.isNaN(modified.time) && (best === undefined || modified.time > best.time))
      best = modified;
  }
  return best?.text;
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
