/**
 * The checks, the same for every API: each takes an operation of the plan
 * (and the data its test line gives) and calls the service through the
 * harness. The test files only name which check applies to which operation.
 */
import { expectDetail, expectError, expectStatus, expectSuccess, fail } from './assertions.js';
import type { Violation } from './plan.js';
import {
  API,
  createsItems,
  fillPath,
  flatten,
  itemIdOf,
  itemKeyOf,
  itemOf,
  operation,
  resourceOf,
  uploadedBytes,
  uploadOf,
  whyNoCreate,
  type Answer,
  type Check,
  type Item,
  type Json,
  type JsonObject,
  type OperationPlan,
  type Suite,
} from './harness.js';

type Path = Record<string, string | number>;

// ── what a check acts on ────────────────────────────────────────────────────

const isOnItem = (plan: OperationPlan) => {
  const { idParam } = resourceOf(plan);
  return idParam !== undefined && plan.path.includes(`{${idParam}}`);
};

const canCreate = (plan: OperationPlan) => createsItems(resourceOf(plan));

/**
 * Whether a collection's path names none of its parents (`GET /notifications`
 * beside `/repos/{owner}/{repo}/notifications`) and the suite creates no items
 * of it: the list is tried as it is, with no parent to find.
 */
const needsNoParent = (plan: OperationPlan) =>
  !canCreate(plan) &&
  !isOnItem(plan) &&
  !resourceOf(plan).parentParams.some((name) => plan.path.includes(`{${name}}`));

/** The path parameters of the operation's collection: a parent's, where its path names one or items are created. */
export const collectionScope = (suite: Suite, plan: OperationPlan): Promise<Path> =>
  needsNoParent(plan) ? Promise.resolve({}) : suite.scopeFor(plan.resource!);

/** An item to act on: a new one, or one the service already had where the API cannot create any. */
async function existingItem(suite: Suite, plan: OperationPlan): Promise<Item> {
  if (canCreate(plan)) return suite.create(plan.resource!);
  return suite.found[plan.resource!]?.[0] ?? fail(`No ${plan.resource} item to use.`);
}

/** The path parameters of an operation on a real item (or its collection), and that item. */
export async function subjectOf(
  suite: Suite,
  plan: OperationPlan,
): Promise<{ path: Path; item?: Item }> {
  if (plan.resource === undefined) return { path: {} };
  if (isOnItem(plan)) {
    const item = await existingItem(suite, plan);
    return { path: item.path, item };
  }
  return { path: await collectionScope(suite, plan) };
}

/** Path parameters that address no item: every id one no item has; none where a parameter has no such id (a pattern the suite cannot follow). */
function unknownPath(plan: OperationPlan): Path | undefined {
  const resource = resourceOf(plan);
  const path: Path = {
    ...resource.unknownParents,
    ...(resource.idParam && resource.unknownId !== undefined
      ? { [resource.idParam]: resource.unknownId }
      : {}),
  };
  const names = [...plan.path.matchAll(/\{([^}]+)\}/g)].map(([, name]) => name!);
  return names.every((name) => path[name] !== undefined) ? path : undefined;
}

const NO_UNKNOWN_IDS = 'no id is known to be unknown';

/** What defeated the sampler, where the plan says; else what would help. */
const because = (defeat: string | undefined) => (defeat ? `: ${defeat}` : ' (give it an example)');

/** Skips a check that needs an item (or a parent item) the suite cannot have. */
function needsItem(suite: Suite, plan: OperationPlan): string | undefined {
  if (plan.resource === undefined)
    return plan.path.includes('{') ? 'it acts on no resource the suite can create' : undefined;
  const resource = resourceOf(plan);
  if (isOnItem(plan) || resource.unbuilt) return suite.unavailable(plan.resource);
  return resource.parent && !needsNoParent(plan)
    ? suite.unavailable(resource.parent)
    : resource.scope && !suite.inProcess
      ? suite.unavailable(plan.resource)
      : undefined;
}

/** Why the suite cannot send the operation a request that passes validation: a required input it cannot build. */
function unbuiltInput(plan: OperationPlan): string | undefined {
  return plan.unbuilt
    ? `the suite cannot build a valid ${plan.unbuilt.join(' or ')} from the schema${because(plan.defeat)}`
    : undefined;
}

/** Skips a check that needs the service past validation, on an item (or a parent item) the suite can have. */
export const needsValidRequest = (suite: Suite, plan: OperationPlan): string | undefined =>
  unbuiltInput(plan) ?? needsItem(suite, plan);

/** Why the suite cannot create items of the operation's resource. */
function cannotCreate(plan: OperationPlan): string {
  return whyNoCreate(resourceOf(plan), plan.resource!);
}

/** Skips a check that creates items of the operation's resource. */
export function needsCreate(suite: Suite, plan: OperationPlan): string | undefined {
  return (
    unbuiltInput(plan) ?? (canCreate(plan) ? suite.unavailable(plan.resource!) : cannotCreate(plan))
  );
}

/** Skips a list check that needs `count` items, where the suite cannot create them and the service has fewer. */
const needsListed =
  (count: number) =>
  (suite: Suite, plan: OperationPlan): string | undefined =>
    needsValidRequest(suite, plan) ??
    (canCreate(plan) || (suite.found[plan.resource!]?.length ?? 0) >= count
      ? undefined
      : `${cannotCreate(plan)}, and the service lists fewer than ${count}`);

const bodyOf = (plan: OperationPlan) => plan.body?.sample;

/** Where the list can filter by creation date: only what was created since the day before `items` were. */
export function recentOnly(plan: OperationPlan, items: Item[]): Record<string, string> {
  const field = resourceOf(plan).createdField;
  const created = items
    .map((item) => Date.parse(String(field && item.fields[field])))
    .filter((time) => !Number.isNaN(time));
  if (!plan.query.includes('created_after') || created.length === 0) return {};
  return { created_after: dayOf(Math.min(...created), -1) };
}

/** A date (as the conventions type the creation range), `days` from the instant. */
const dayOf = (time: number, days: number) =>
  new Date(time + days * 86_400_000).toISOString().slice(0, 10);

/**
 * Items of a list, following every page (cursor or offset) up to a bound;
 * on a real service with much data, narrowed to what the suite created.
 */
async function listAll(
  suite: Suite,
  plan: OperationPlan,
  path: Path,
  query: Record<string, string | number> = {},
  created: Item[] = [],
): Promise<JsonObject[]> {
  query = { ...recentOnly(plan, created), ...query };
  const resource = resourceOf(plan);
  const items: JsonObject[] = [];
  const limit = plan.paging!.maxLimit;
  let cursor: string | undefined;
  for (let page = 1; page <= 200; page++) {
    const paging: Record<string, string | number> =
      plan.paging!.style === 'cursor' ? (cursor ? { cursor } : {}) : { page };
    const answer = await suite.request(plan, { path, query: { ...query, ...paging, limit } });
    expectSuccess(answer, plan);
    items.push(...(answer.body.data as unknown[]).map((data) => flatten(resource, data)));
    const pagination = answer.body.pagination;
    if (plan.paging!.style === 'cursor' ? !pagination.has_more : page >= pagination.total_pages)
      return items;
    cursor = pagination.cursor;
  }
  return fail(`${plan.method} ${plan.path}: more than 200 pages; the suite stops there.`);
}

/** What addresses each listed item: its id, or its key field. */
const idsOf = (plan: OperationPlan, items: JsonObject[]) =>
  items.map((item) => itemKeyOf(resourceOf(plan), item));

// ── success ─────────────────────────────────────────────────────────────────

export const reads: Check = {
  skip: needsValidRequest,
  async run(suite, plan) {
    const { path, item } = await subjectOf(suite, plan);
    const answer = await suite.request(plan, { path });
    expectSuccess(answer, plan);
    const got = itemKeyOf(resourceOf(plan), flatten(resourceOf(plan), answer.body.data));
    if (got !== item!.id) fail(`Asked for ${item!.id}, got ${JSON.stringify(got)}.`);
  },
};

export const lists: Check = {
  skip: needsValidRequest,
  async run(suite, plan) {
    const { path } = await populated(suite, plan, 1);
    const answer = await suite.request(plan, { path });
    expectSuccess(answer, plan);
    if (!Array.isArray(answer.body.data)) fail('A list whose data is not an array.');
  },
};

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T/;

/** The same value, date-times compared as instants (`…05.000Z` is `…05Z`). */
export function sameValue(a: Json | undefined, b: Json | undefined): boolean {
  if (
    typeof a === 'string' &&
    typeof b === 'string' &&
    ISO_DATE_TIME.test(a) &&
    ISO_DATE_TIME.test(b)
  )
    return Date.parse(a) === Date.parse(b);
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The scalar fields of a body, as the resource shows them back. A field it
 * does not show (write-only, like a password) is not compared.
 */
export function expectFields(fields: JsonObject, body: Json | undefined, what: string): void {
  for (const [name, value] of Object.entries((body ?? {}) as JsonObject)) {
    if ((value !== null && typeof value === 'object') || !(name in fields)) continue;
    if (!sameValue(fields[name], value))
      fail(
        `${what}: ${name} is ${JSON.stringify(fields[name])}, expected ${JSON.stringify(value)}.`,
      );
  }
}

/** What of a body the resource answers back: all but the fields the service answers values of its own for. */
export function echoedOf(plan: OperationPlan, body: Json | undefined): JsonObject {
  const ignored = new Set(resourceOf(plan).serverFields ?? []);
  return Object.fromEntries(
    Object.entries((body ?? {}) as JsonObject).filter(([name]) => !ignored.has(name)),
  );
}

export const creates: Check = {
  skip: needsValidRequest,
  async run(suite, plan) {
    const path = await suite.scopeFor(plan.resource!);
    const body = suite.sampleBody(plan.resource!);
    const answer = await suite.request(plan, { path, body });
    expectSuccess(answer, plan);
    // Without a body there is no item to follow; with only an id, the GET shows its fields.
    if (!plan.hasData) return;
    const resource = resourceOf(plan);
    // An item no path addresses need not show an id: its answer is all there is to check.
    if (!resource.idParam && itemIdOf(resource, answer.body.data, body) === undefined)
      return expectFields(
        flatten(resource, answer.body.data),
        echoedOf(plan, body),
        'The created resource',
      );
    const item = itemOf(plan.resource!, answer.body.data, path, body);
    suite.track(item);
    if (typeof answer.body.data === 'object')
      expectFields(item.fields, echoedOf(plan, body), 'The created resource');
    const read = resourceOf(plan).operations.read;
    if (!read) return;
    const again = await suite.request(operation(read), { path: item.path });
    expectSuccess(again, operation(read));
    expectFields(
      flatten(resourceOf(plan), again.body.data),
      echoedOf(plan, body),
      'GET after POST',
    );
  },
};

/** GET of an item (or a singleton) at `path`, where the API has one: what it shows now. */
async function readBack(
  suite: Suite,
  plan: OperationPlan,
  path: Path,
): Promise<Answer | undefined> {
  const read = resourceOf(plan).operations.read;
  return read ? suite.request(operation(read), { path }) : undefined;
}

export const deletes: Check = {
  skip: needsCreate,
  async run(suite, plan) {
    const item = await suite.create(plan.resource!);
    const answer = await suite.request(plan, { path: item.path });
    expectSuccess(answer, plan);
    if (plan.status === 204 && answer.text !== '')
      fail(`204 with a body: ${answer.text.slice(0, 200)}`);
    const after = await readBack(suite, plan, item.path);
    if (after) expectError(after, 404, 'RESOURCE_NOT_FOUND');
  },
};

/**
 * Of changes to one field (with what the schema requires beside it), the
 * first that changes the item: one whose value it already holds (a value the
 * server made) would change nothing, and its ETag not at all.
 */
function changing(changes: JsonObject[], fields: JsonObject): JsonObject {
  const effective = changes.find((change) => {
    const [name, value] = Object.entries(change)[0]!;
    return !sameValue(fields[name], value);
  });
  return effective ?? changes[0]!;
}

export const replaces: Check<JsonObject[]> = {
  skip: needsCreate,
  async run(suite, plan, changes) {
    const item = await suite.create(plan.resource!);
    const body = { ...(bodyOf(plan) as JsonObject), ...changing(changes, item.fields) };
    const answer = await suite.request(plan, { path: item.path, body });
    expectSuccess(answer, plan);
    if (plan.hasData)
      expectFields(
        flatten(resourceOf(plan), answer.body.data),
        echoedOf(plan, body),
        'The replaced resource',
      );
    const after = await readBack(suite, plan, item.path);
    if (after)
      expectFields(
        flatten(resourceOf(plan), after.body?.data),
        echoedOf(plan, body),
        'GET after PUT',
      );
  },
};

export const updatesOnlyWhatItNames: Check<JsonObject[]> = {
  skip: needsCreate,
  async run(suite, plan, changes) {
    const item = await suite.create(plan.resource!);
    const change = changing(changes, item.fields);
    const answer = await suite.request(plan, { path: item.path, body: change });
    expectSuccess(answer, plan);
    const stamp = resourceOf(plan).updatedField;
    const shown: [string, JsonObject][] = plan.hasData
      ? [['The PATCH answer', flatten(resourceOf(plan), answer.body.data)]]
      : [];
    const reread = await readBack(suite, plan, item.path);
    if (reread) shown.push(['GET after PATCH', flatten(resourceOf(plan), reread.body?.data)]);
    for (const [what, after] of shown) {
      expectFields(after, change, what);
      for (const [name, before] of Object.entries(item.fields)) {
        if (name in change || name === stamp) continue;
        if (!sameValue(after[name], before))
          fail(
            `${what}: PATCH of ${Object.keys(change).join(', ')} changed ${name} too: ${JSON.stringify(before)} → ${JSON.stringify(after[name])}.`,
          );
      }
    }
  },
};

// ── what the suite cannot address ───────────────────────────────────────────

/** An operation whose path names its item by parameters the suite cannot give (several ids per item): always skipped, with the reason. */
export const addressable: Check<{ params: string[] }> = {
  skip: (_suite, _plan, { params }) =>
    `its path parameters ${params.join(', ')} are neither a parent's nor the item's id: several ids per item are not modelled yet`,
  async run() {},
};

// ── singletons: one object per owner, no id (`/settings`) ──────────────────

export const readsSingleton: Check = {
  skip: needsValidRequest,
  async run(suite, plan) {
    const { path } = await subjectOf(suite, plan);
    expectSuccess(await suite.request(plan, { path }), plan);
  },
};

export const replacesSingleton: Check<JsonObject[]> = {
  skip: needsValidRequest,
  async run(suite, plan, changes) {
    const { path } = await subjectOf(suite, plan);
    // Whatever it held before, the GET shows what the PUT sent.
    const change = changes[0]!;
    const body = { ...(bodyOf(plan) as JsonObject), ...change };
    expectSuccess(await suite.request(plan, { path, body }), plan);
    const after = await readBack(suite, plan, path);
    if (after) {
      expectSuccess(after, operation(resourceOf(plan).operations.read!));
      expectFields(flatten(resourceOf(plan), after.body.data), change, 'GET after PUT');
    }
  },
};

export const updatesSingletonOnlyWhatItNames: Check<JsonObject[]> = {
  skip: needsValidRequest,
  async run(suite, plan, changes) {
    const { path } = await subjectOf(suite, plan);
    const before = await readBack(suite, plan, path);
    const change = changing(changes, flatten(resourceOf(plan), before?.body?.data));
    expectSuccess(await suite.request(plan, { path, body: change }), plan);
    const after = await readBack(suite, plan, path);
    if (!before || !after) return;
    const stamp = resourceOf(plan).updatedField;
    const [old, now] = [before, after].map((answer) =>
      flatten(resourceOf(plan), answer.body?.data),
    );
    expectFields(now!, change, 'GET after PATCH');
    for (const [name, value] of Object.entries(old!)) {
      if (name in change || name === stamp) continue;
      if (!sameValue(now![name], value))
        fail(
          `PATCH of ${Object.keys(change).join(', ')} changed ${name} too: ${JSON.stringify(value)} → ${JSON.stringify(now![name])}.`,
        );
    }
  },
};

const CANNOT_RESTORE =
  'a DELETE would leave the singleton empty for the checks after it, and the API has no PUT to restore it';

/** The PUT that fills a deleted singleton again, where it has one the suite can send. */
function restoring(plan: OperationPlan): OperationPlan | undefined {
  const replace = resourceOf(plan).operations.replace;
  const found = replace === undefined ? undefined : operation(replace);
  return found?.body ? found : undefined;
}

export const deletesSingleton: Check = {
  // Deleting it takes it from the checks after this one, unless a PUT can put it back.
  skip: (suite, plan) =>
    needsValidRequest(suite, plan) ?? (restoring(plan) ? undefined : CANNOT_RESTORE),
  async run(suite, plan) {
    const { path } = await subjectOf(suite, plan);
    const answer = await suite.request(plan, { path });
    expectSuccess(answer, plan);
    if (plan.status === 204 && answer.text !== '')
      fail(`204 with a body: ${answer.text.slice(0, 200)}`);
    const after = await readBack(suite, plan, path);
    if (after) expectError(after, 404, 'RESOURCE_NOT_FOUND');
    const replace = restoring(plan)!;
    expectSuccess(await suite.request(replace, { path, body: bodyOf(replace) }), replace);
  },
};

// ── auth ────────────────────────────────────────────────────────────────────

/** The message the conventions give a refused credential. */
const INVALID_OR_EXPIRED = /invalid|expired/i;

function expectUnauthorized(answer: Answer): void {
  expectError(answer, 401, 'UNAUTHORIZED');
  if (!INVALID_OR_EXPIRED.test(answer.body.error.message))
    fail(
      `401: the message should say the token is invalid or expired: ${answer.body.error.message}`,
    );
}

export const unauthorizedWithoutCredential: Check = {
  skip: needsItem,
  async run(suite, plan) {
    const { path } = await subjectOf(suite, plan);
    expectUnauthorized(await suite.request(plan, { path, body: bodyOf(plan), auth: 'none' }));
  },
};

export const unauthorizedWithInvalidCredential: Check = {
  skip: needsItem,
  async run(suite, plan) {
    const { path } = await subjectOf(suite, plan);
    const auth = plan.security.schemes.includes('bearer') ? 'invalid' : 'invalidApiKey';
    expectUnauthorized(await suite.request(plan, { path, body: bodyOf(plan), auth }));
  },
};

/** A valid credential without scopes that the operation takes: a Bearer token, else an API key. */
function limitedAuth(suite: Suite, plan: OperationPlan): 'limited' | 'limitedApiKey' | undefined {
  if (plan.security.schemes.includes('bearer') && suite.credentials.limitedToken) return 'limited';
  if (plan.security.schemes.includes('apiKey') && suite.credentials.limitedApiKey)
    return 'limitedApiKey';
  return undefined;
}

export const forbiddenWithoutScope: Check = {
  skip(suite, plan) {
    if (limitedAuth(suite, plan)) return needsItem(suite, plan);
    return plan.security.schemes.includes('bearer')
      ? 'set API_TOKEN_LIMITED to a valid token with no scopes'
      : 'set API_KEY_LIMITED to a valid API key with no scopes';
  },
  async run(suite, plan) {
    const { path } = await subjectOf(suite, plan);
    expectError(
      await suite.request(plan, { path, body: bodyOf(plan), auth: limitedAuth(suite, plan)! }),
      403,
      'FORBIDDEN',
    );
  },
};

export const publicWithoutCredential: Check = {
  // A write goes through: only to an item the suite created itself.
  skip: (suite, plan) =>
    ['replace', 'update', 'delete'].includes(plan.kind)
      ? needsCreate(suite, plan)
      : needsValidRequest(suite, plan),
  async run(suite, plan) {
    const { path } = await subjectOf(suite, plan);
    const answer = await suite.request(plan, { path, body: bodyOf(plan), auth: 'none' });
    if (answer.status === 401 || answer.status === 403)
      fail(`A public operation refused a caller without a credential: ${answer.status}.`);
    if (plan.kind !== 'other') expectSuccess(answer, plan);
    if (plan.kind === 'create')
      suite.track(itemOf(plan.resource!, answer.body.data, path, bodyOf(plan)));
  },
};

// ── not found ───────────────────────────────────────────────────────────────

export const notFoundForUnknownId: Check = {
  skip: needsValidRequest,
  async run(suite, plan) {
    const resource = resourceOf(plan);
    const scope = await suite.scopeFor(plan.resource!);
    const answer = await suite.request(plan, {
      path: { ...scope, [resource.idParam!]: resource.unknownId! },
      body: bodyOf(plan),
    });
    expectError(answer, 404, 'RESOURCE_NOT_FOUND');
  },
};

/** Every path parameter an id no item has: the parent's first of all. */
export const notFoundUnderMissingParent: Check = {
  skip: (_suite, plan) => unbuiltInput(plan) ?? (unknownPath(plan) ? undefined : NO_UNKNOWN_IDS),
  async run(suite, plan) {
    expectError(
      await suite.request(plan, { path: unknownPath(plan)!, body: bodyOf(plan) }),
      404,
      'RESOURCE_NOT_FOUND',
    );
  },
};

// ── request bodies ──────────────────────────────────────────────────────────

export const rejectsInvalidBody: Check<Violation> = {
  skip: needsItem,
  async run(suite, plan, violation) {
    const { path } = await subjectOf(suite, plan);
    const answer = await suite.request(plan, { path, body: violation.body });
    expectError(answer, API.validationStatus, 'VALIDATION_ERROR');
    expectDetail(answer, violation.field, violation.code);
  },
};

export const rejectsMalformedJson: Check = {
  skip: needsItem,
  async run(suite, plan) {
    const { path } = await subjectOf(suite, plan);
    expectError(
      await suite.request(plan, {
        path,
        rawBody: '{"unterminated": ',
        contentType: plan.body?.contentType ?? 'application/json',
      }),
      400,
    );
  },
};

export const rejectsOversizedBody: Check = {
  skip: needsItem,
  async run(suite, plan) {
    const { path } = await subjectOf(suite, plan);
    const rawBody = JSON.stringify({ padding: 'x'.repeat(API.bodyLimit + 1024) });
    expectError(await suite.request(plan, { path, rawBody }), 413, 'PAYLOAD_TOO_LARGE');
  },
};

export const rejectsWrongContentType: Check = {
  skip: needsItem,
  async run(suite, plan) {
    const { path } = await subjectOf(suite, plan);
    const answer = await suite.request(plan, {
      path,
      rawBody: JSON.stringify(bodyOf(plan) ?? {}),
      contentType: 'text/plain',
    });
    expectError(answer, 415, 'UNSUPPORTED_MEDIA_TYPE');
  },
};

/** Whether a wrong method goes to ids no item has: on an item, where the suite has none of its own. */
const toUnknownIds = (suite: Suite, plan: OperationPlan) =>
  plan.resource !== undefined &&
  isOnItem(plan) &&
  (!canCreate(plan) || needsItem(suite, plan) !== undefined);

/** Sent to an item the suite created, or to ids no item has: a method the spec does not declare must change nothing real. */
export const methodNotAllowed: Check<string> = {
  skip: (suite, plan) =>
    !toUnknownIds(suite, plan)
      ? needsItem(suite, plan)
      : unknownPath(plan)
        ? undefined
        : (needsItem(suite, plan) ?? NO_UNKNOWN_IDS),
  async run(suite, plan, method) {
    const { path } = toUnknownIds(suite, plan)
      ? { path: unknownPath(plan)! }
      : await subjectOf(suite, plan);
    const answer = await suite.send(method, fillPath(plan.path, path), {
      auth: 'full',
      ...(method === 'GET' ? {} : { body: bodyOf(plan) ?? {} }),
    });
    expectError(answer, 405, 'METHOD_NOT_ALLOWED');
    const allow = (answer.headers.get('allow') ?? '').toUpperCase().split(/\s*,\s*/);
    if (!allow.includes(plan.method))
      fail(`405 whose Allow (${answer.headers.get('allow')}) does not list ${plan.method}.`);
  },
};

// ── lists ───────────────────────────────────────────────────────────────────

export const rejectsLimitAboveMaximum: Check = {
  skip: needsItem,
  async run(suite, plan) {
    const path = await collectionScope(suite, plan);
    const answer = await suite.request(plan, { path, query: { limit: plan.paging!.maxLimit + 1 } });
    expectError(answer, API.validationStatus, 'VALIDATION_ERROR');
    expectDetail(answer, 'query.limit', 'OUT_OF_RANGE');
  },
};

/** A collection with `count` new items in it, where the API can create them. */
async function populated(
  suite: Suite,
  plan: OperationPlan,
  count: number,
  overrides: JsonObject[] = [],
): Promise<{ path: Path; items: Item[] }> {
  const path = await collectionScope(suite, plan);
  const items: Item[] = [];
  if (!canCreate(plan)) return { path, items };
  for (let index = 0; index < count; index++)
    items.push(await suite.create(plan.resource!, overrides[index] ?? {}, path));
  return { path, items };
}

export const walksCursorPages: Check = {
  skip: needsListed(3),
  async run(suite, plan) {
    const { path, items } = await populated(suite, plan, 5);
    const known = items.length > 0 ? items.length : (suite.found[plan.resource!]?.length ?? 0);
    const seen = new Map<unknown, number>();
    let cursor: string | undefined;
    let page = 1;
    for (; ; page++) {
      if (page > 1000) fail('The walk did not end after 1000 pages.');
      const answer = await suite.request(plan, {
        path,
        query: { ...recentOnly(plan, items), limit: 2, ...(cursor ? { cursor } : {}) },
      });
      expectSuccess(answer, plan);
      if (answer.body.data.length > 2)
        fail(`A page of ${answer.body.data.length} items for limit=2.`);
      for (const id of idsOf(
        plan,
        answer.body.data.map((data: unknown) => flatten(resourceOf(plan), data)),
      ))
        seen.set(id, (seen.get(id) ?? 0) + 1);
      if (!answer.body.pagination.has_more) break;
      cursor = answer.body.pagination.cursor;
    }
    if (page < Math.ceil(known / 2))
      fail(
        `The walk ended after ${page} page(s) of 2, but the list holds at least ${known} items.`,
      );
    const twice = [...seen].filter(([, count]) => count > 1).map(([id]) => id);
    if (twice.length > 0) fail(`The walk saw items more than once: ${JSON.stringify(twice)}.`);
    const missed = items.filter((item) => !seen.has(item.id)).map((item) => item.id);
    if (missed.length > 0) fail(`The walk missed created items: ${JSON.stringify(missed)}.`);
  },
};

export const rejectsTamperedCursor: Check = {
  skip: needsListed(2),
  async run(suite, plan) {
    const { path } = await populated(suite, plan, 2);
    const first = await suite.request(plan, { path, query: { limit: 1 } });
    expectSuccess(first, plan);
    const cursor: unknown = first.body.pagination.cursor;
    if (typeof cursor !== 'string' || cursor.length === 0)
      fail('No cursor to tamper with: the list needs two items.');
    const middle = Math.floor(cursor.length / 2);
    const tampered = `${cursor.slice(0, middle)}${cursor[middle] === 'A' ? 'B' : 'A'}${cursor.slice(middle + 1)}`;
    expectError(await suite.request(plan, { path, query: { limit: 1, cursor: tampered } }), 400);
  },
};

export const walksOffsetPages: Check = {
  skip: needsValidRequest,
  async run(suite, plan) {
    const { path, items } = await populated(suite, plan, 3);
    const narrow = recentOnly(plan, items);
    const first = await suite.request(plan, { path, query: { ...narrow, limit: 2, page: 1 } });
    expectSuccess(first, plan);
    const { page, limit, total, total_pages: totalPages } = first.body.pagination;
    if (page !== 1 || limit !== 2) fail(`Asked for page 1 of 2, got page ${page} of ${limit}.`);
    if (totalPages !== Math.ceil(total / limit))
      fail(
        `total_pages is ${totalPages}, but ceil(${total} / ${limit}) is ${Math.ceil(total / limit)}.`,
      );
    const seen: unknown[] = [];
    for (let number = 1; number <= Math.min(totalPages, 500); number++) {
      const answer = await suite.request(plan, {
        path,
        query: { ...narrow, limit: 2, page: number },
      });
      expectSuccess(answer, plan);
      seen.push(
        ...idsOf(
          plan,
          answer.body.data.map((data: unknown) => flatten(resourceOf(plan), data)),
        ),
      );
    }
    if (totalPages <= 500 && seen.length !== total)
      fail(`The pages hold ${seen.length} items, total says ${total}.`);
    if (new Set(seen).size !== seen.length) fail('The pages repeat items.');
    const missed = items.filter((item) => !seen.includes(item.id));
    if (missed.length > 0)
      fail(`The pages miss created items: ${JSON.stringify(missed.map((item) => item.id))}.`);
  },
};

/**
 * Where `a` falls relative to `b` in a list sorted in `direction` (< 0:
 * before): numbers by value, an enum's values by their place in it, other
 * values as text; missing values (undefined or null alike, even where the enum
 * lists null) last in either direction, as the default store sorts them.
 */
export function compareSorted(
  a: Json | undefined,
  b: Json | undefined,
  direction: 1 | -1,
  declared: Json[] = [],
): number {
  const [aMissing, bMissing] = [a === undefined || a === null, b === undefined || b === null];
  if (aMissing || bMissing) return Number(aMissing) - Number(bMissing);
  const [left, right] = [declared.indexOf(a!), declared.indexOf(b!)];
  if (left >= 0 && right >= 0) return (left - right) * direction;
  if (typeof a === 'number' && typeof b === 'number') return (a - b) * direction;
  return (String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0) * direction;
}

interface Ordering {
  field: string;
  direction: 1 | -1;
  how: string;
  /** An enum's values, in the order it declares them. */
  declared?: Json[] | undefined;
}

/** The created items' values, in the order the list gave them, are in order. */
function expectOrder(
  ids: (Json | undefined)[],
  listed: JsonObject[],
  created: Item[],
  { field, direction, how, declared }: Ordering,
): void {
  const ours = new Set<Json | undefined>(created.map((item) => item.id));
  const values = listed.filter((_item, index) => ours.has(ids[index])).map((item) => item[field]);
  if (values.length !== created.length)
    fail(`${how}: the list shows ${values.length} of the ${created.length} items created.`);
  // The conventions name no order of an enum's values: its declared one, or the values' own.
  if (!inOrder(values, direction, declared) && !inOrder(values, direction))
    fail(
      `${how}: ${JSON.stringify(values)} is not in ${direction > 0 ? 'ascending' : 'descending'} order.`,
    );
}

const inOrder = (values: (Json | undefined)[], direction: 1 | -1, declared?: Json[]) =>
  values.every(
    (value, index) =>
      index === 0 || compareSorted(values[index - 1], value, direction, declared) <= 0,
  );

export const sorts: Check<{ field: string; values: Json[] | null; enum?: Json[] }> = {
  skip: needsCreate,
  async run(suite, plan, { field, values, enum: declared }) {
    // Created out of order, so the order of creation is not the sorted one.
    const overrides = values ? [1, 0, 2].map((index) => ({ [field]: values[index]! })) : [];
    const { path, items } = await populated(suite, plan, 3, overrides);
    const walks: { query: Record<string, string>; direction: 1 | -1 }[] = [
      { query: { sort: field }, direction: 1 },
      { query: { sort: `-${field}` }, direction: -1 },
      ...(plan.query.includes('order')
        ? [{ query: { sort: field, order: 'desc' }, direction: -1 as const }]
        : []),
    ];
    for (const { query, direction } of walks) {
      const how = Object.entries(query)
        .map(([name, value]) => `${name}=${value}`)
        .join('&');
      const listed = await listAll(suite, plan, path, query, items);
      expectOrder(idsOf(plan, listed), listed, items, { field, direction, how, declared });
    }
  },
};

/** A read answers one thing: an item, or a singleton (which no path parameter names). */
const answersOne = (plan: OperationPlan) => plan.kind === 'read' || isOnItem(plan);

/**
 * `fields` keeps the field named, `id` and the fields the response schema
 * requires (`required`), and nothing else; the answer stays valid against
 * the one response schema.
 */
export const selectsFields: Check<{ field: string; required: string[] }> = {
  skip: (suite, plan) =>
    answersOne(plan) ? needsValidRequest(suite, plan) : needsListed(1)(suite, plan),
  async run(suite, plan, { field, required }) {
    const { path } = answersOne(plan)
      ? await subjectOf(suite, plan)
      : await populated(suite, plan, 1);
    const full = await suite.request(plan, { path });
    const sparse = await suite.request(plan, { path, query: { fields: field } });
    expectSuccess(full, plan);
    expectSuccess(sparse, plan);
    const shown = (answer: Answer) =>
      ([] as unknown[]).concat(answer.body.data).map((data) => flatten(resourceOf(plan), data));
    const before = shown(full)[0];
    const after = shown(sparse).find((candidate) => candidate.id === before?.id);
    if (!before || !after) fail(`fields=${field}: the item is missing from the answer.`);
    const kept = new Set(['id', field, ...required]);
    const extra = Object.keys(after).filter((name) => !kept.has(name));
    if (extra.length > 0) fail(`fields=${field} still returns ${extra.join(', ')}.`);
    const dropped = required.filter((name) => name in before && !(name in after));
    if (dropped.length > 0)
      fail(`fields=${field} leaves out ${dropped.join(', ')}, which the response schema requires.`);
    for (const name of [field, ...required]) {
      if (name in before && JSON.stringify(after[name]) !== JSON.stringify(before[name]))
        fail(`fields=${field} changed the value of ${name}.`);
    }
  },
};

export const filters: Check<{ field: string; values: Json[] }> = {
  skip: needsCreate,
  async run(suite, plan, { field, values }) {
    const { path, items } = await populated(
      suite,
      plan,
      2,
      values.map((value) => ({ [field]: value })),
    );
    const listed = await listAll(suite, plan, path, { [field]: String(values[0]) }, items);
    const other = listed.find((candidate) => String(candidate[field]) !== String(values[0]));
    if (other)
      fail(
        `${field}=${values[0]} returned an item whose ${field} is ${JSON.stringify(other[field])}.`,
      );
    if (!idsOf(plan, listed).includes(items[0]!.id))
      fail(`${field}=${values[0]} left out an item that matches.`);
  },
};

export const filtersByCreationDate: Check = {
  skip: needsCreate,
  async run(suite, plan) {
    const { path, items } = await populated(suite, plan, 1);
    const item = items[0]!;
    const created = Date.parse(String(item.fields[resourceOf(plan).createdField!]));
    if (Number.isNaN(created))
      fail(`The item has no creation date: ${JSON.stringify(item.fields)}`);
    // Dates two days off: whether a bound includes its own day is the service's choice.
    const cases: [Record<string, string>, boolean][] = [
      [{ created_after: dayOf(created, -2) }, true],
      [{ created_after: dayOf(created, 2) }, false],
      [{ created_before: dayOf(created, 2) }, true],
      [{ created_before: dayOf(created, -2) }, false],
    ];
    for (const [query, included] of cases) {
      const found = idsOf(plan, await listAll(suite, plan, path, query)).includes(item.id);
      if (found !== included)
        fail(
          `${Object.entries(query)[0]!.join('=')} ${included ? 'left out' : 'returned'} an item created at ${new Date(created).toISOString()}.`,
        );
    }
  },
};

let markers = 0;

export const searches: Check<{ field: string }> = {
  skip: needsCreate,
  async run(suite, plan, { field }) {
    const marker = `zq${Date.now().toString(36)}${(markers++).toString(36)}`;
    const { path, items } = await populated(suite, plan, 2, [{ [field]: marker }]);
    const listed = idsOf(plan, await listAll(suite, plan, path, { search: marker }, items));
    if (!listed.includes(items[0]!.id))
      fail(`search=${marker} did not find the item whose ${field} is ${marker}.`);
    if (listed.includes(items[1]!.id)) fail(`search=${marker} also returned an item without it.`);
  },
};

// ── caching ─────────────────────────────────────────────────────────────────

async function etagOf(suite: Suite, plan: OperationPlan, path: Path): Promise<string> {
  const answer = await suite.request(plan, { path });
  expectSuccess(answer, plan);
  const etag = answer.headers.get('etag');
  if (!etag) fail(`${plan.method} ${plan.path}: no ETag.`);
  return etag;
}

export const revalidates: Check = {
  skip: needsValidRequest,
  async run(suite, plan) {
    const { path } = isOnItem(plan)
      ? await subjectOf(suite, plan)
      : await populated(suite, plan, 1);
    const etag = await etagOf(suite, plan, path);
    if (etag.startsWith('W/'))
      fail(`The ETag ${etag} is weak; the conventions ask for a strong one.`);
    const answer = await suite.request(plan, { path, headers: { 'if-none-match': etag } });
    expectStatus(answer, 304, `If-None-Match: ${etag}`);
    if (answer.text !== '') fail(`304 with a body: ${answer.text.slice(0, 200)}`);
  },
};

export const changesETag: Check<{ operationId: string; changes: JsonObject[] }> = {
  skip: needsCreate,
  async run(suite, plan, { operationId, changes }) {
    const item = await suite.create(plan.resource!);
    const etag = await etagOf(suite, plan, item.path);
    const write = operation(operationId);
    const change = changing(changes, item.fields);
    const body =
      write.kind === 'replace' ? { ...(write.body?.sample as JsonObject), ...change } : change;
    expectSuccess(await suite.request(write, { path: item.path, body }), write);
    const answer = await suite.request(plan, {
      path: item.path,
      headers: { 'if-none-match': etag },
    });
    expectSuccess(answer, plan);
    if (answer.headers.get('etag') === etag) fail('The changed resource kept its ETag.');
  },
};

// ── files ───────────────────────────────────────────────────────────────────

/**
 * An upload comes back as it went: two items, each with a main file of every
 * byte value and bytes of its own, in a type both ends declare; the first's
 * download (the resource's `upload` names it) gives back its bytes, not the
 * second's, as that type.
 */
export const keepsUploadedFile: Check = {
  skip: needsCreate,
  async run(suite, plan) {
    const upload = resourceOf(plan).upload!;
    const path = await collectionScope(suite, plan);
    const [first, second] = [uploadedBytes(1), uploadedBytes(2)];
    const items: Item[] = [];
    for (const bytes of [first, second]) {
      const fields = suite.sampleBody(plan.resource!);
      const created = await suite.request(plan, { path, ...uploadOf(upload, fields, bytes) });
      expectSuccess(created, plan);
      items.push(itemOf(plan.resource!, created.body.data, path, fields));
      suite.track(items.at(-1)!);
    }
    const download = operation(upload.download!);
    const answer = await suite.request(download, {
      path: items[0]!.path,
      headers: { accept: '*/*' },
    });
    const what = `${download.method} ${download.path} after the upload`;
    expectStatus(answer, download.status, what);
    const mediaType = essenceOf(upload.files[0]!.mediaType);
    const type = essenceOf(answer.headers.get('content-type') ?? '');
    if (type !== mediaType)
      fail(`${what}: Content-Type ${type || 'missing'}, but the file was uploaded as ${mediaType}`);
    const differs = first.findIndex((byte, index) => answer.bytes[index] !== byte);
    if (answer.bytes.length !== first.length || differs !== -1)
      fail(
        `${what}: ${answer.bytes.length} bytes came back for the ${first.length} uploaded` +
          (differs === -1 ? '' : `, the first different at byte ${differs}`),
      );
  },
};

/** `Text/CSV; charset=utf-8` → `text/csv`. */
const essenceOf = (mediaType: string) => mediaType.split(';')[0]!.trim().toLowerCase();
