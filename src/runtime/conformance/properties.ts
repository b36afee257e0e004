/**
 * The property-based layer, on top of the example-based checks: seeded,
 * reproducible random requests (fast-check). Random valid requests never
 * answer 5xx and answer what the merged spec says; random single-rule
 * violations answer the validation error; random sequences of create, read,
 * update, replace, list and delete on a resource keep its invariants. A
 * failure shows the shrunk counterexample and the command that replays it.
 */
import { expect } from '@jest/globals';
import type { Arbitrary } from 'fast-check';
import { fc, validValuesOf } from './arbitraries.js';
import { expectError, expectSuccess, fail, requestInputsOf, validatorOf } from './assertions.js';
import {
  collectionScope,
  echoedOf,
  expectFields,
  needsCreate,
  needsValidRequest,
  recentOnly,
  sameValue,
  subjectOf,
} from './checks.js';
import {
  API,
  excerpt,
  flatten,
  itemIdOf,
  itemKeyOf,
  itemOf,
  operation,
  resourceOf,
  type Answer,
  type Check,
  type Item,
  type Json,
  type JsonObject,
  type OperationPlan,
  type Suite,
} from './harness.js';
import type { QueryValue } from './plan.js';
import { violationsOf } from './violations.js';

// ── the runner ──────────────────────────────────────────────────────────────

const whole = (text: string | undefined) =>
  text !== undefined && /^-?\d+$/.test(text) ? Number(text) : undefined;

/** CONFORMANCE_RUNS, CONFORMANCE_SEED, CONFORMANCE_PATH: how many runs each property makes, and which. */
const SETTINGS = {
  runs: Math.max(1, whole(process.env.CONFORMANCE_RUNS) ?? 25),
  seed: whole(process.env.CONFORMANCE_SEED),
  path: process.env.CONFORMANCE_PATH || undefined,
  /** Steps in a random sequence, at most. */
  steps: Math.max(1, whole(process.env.CONFORMANCE_STEPS) ?? 12),
  /** Past this, a property stops drawing new runs (and passes with those it made): within jest's test timeout. */
  timeLimitMs: process.env.BASE_URL ? 120_000 : 15_000,
};

/**
 * Runs the property; on failure, fails with what went wrong, the shrunk
 * counterexample and the command that replays it.
 */
async function holds<T>(
  arbitrary: Arbitrary<T>,
  predicate: (value: T) => Promise<void>,
  show: (value: T) => string,
  runs = SETTINGS.runs,
): Promise<void> {
  const details = await fc.check(
    fc.asyncProperty(arbitrary, async (value) => {
      await predicate(value);
    }),
    {
      numRuns: runs,
      interruptAfterTimeLimit: SETTINGS.timeLimitMs,
      markInterruptAsFailure: false,
      ...(SETTINGS.seed !== undefined ? { seed: SETTINGS.seed } : {}),
      ...(SETTINGS.path !== undefined ? { path: SETTINGS.path } : {}),
    },
  );
  if (!details.failed) return;
  const error =
    details.errorInstance instanceof Error
      ? details.errorInstance.message
      : String(details.errorInstance);
  const counterexample = details.counterexample ? show(details.counterexample[0]) : '(none)';
  fail(
    [
      error,
      `Counterexample (shrunk, after ${details.numRuns} run(s)): ${counterexample}`,
      `Replay: ${replayCommand(details.seed, details.counterexamplePath)}`,
    ].join('\n'),
  );
}

/** The command that runs this test again with the failing run first. */
function replayCommand(seed: number, path: string | null): string {
  const { currentTestName, testPath } = expect.getState();
  const file = testPath?.slice(testPath.lastIndexOf('test/conformance/')) ?? '';
  const quoted = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
  return [
    `CONFORMANCE_SEED=${seed}`,
    ...(path ? [`CONFORMANCE_PATH=${path}`] : []),
    'npm run test:conformance --',
    file,
    ...(currentTestName ? ['-t', quoted(escapeRegExp(currentTestName))] : []),
  ].join(' ');
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const shown = (value: unknown) => JSON.stringify(value);

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

type Path = Record<string, string | number>;

// ── what an answer may be ───────────────────────────────────────────────────

/** Never a 5xx; a success as the spec says; any other answer in the error envelope. */
function expectConventional(answer: Answer, plan: OperationPlan): void {
  if (answer.status >= 500) fail(`${plan.method} ${plan.path} answered ${excerpt(answer)}`);
  if (answer.status >= 400) return expectError(answer, answer.status);
  expectSuccess(answer, plan);
}

/**
 * A body the schema takes must pass: the planned status, or 409 where two
 * draws gave a unique field the same value.
 */
function expectAccepted(answer: Answer, plan: OperationPlan): void {
  if (answer.status === 409) return expectError(answer, 409);
  if (answer.status !== plan.status)
    fail(`${plan.method} ${plan.path} refused a body valid against the spec: ${excerpt(answer)}`);
  expectSuccess(answer, plan);
}

// ── random bodies ───────────────────────────────────────────────────────────

const BODY_KINDS = new Set(['create', 'replace', 'update']);

/** The operation's body schema, where it takes a JSON body the suite can build. */
function bodySchemaOf(plan: OperationPlan): object | undefined {
  return plan.body === undefined ? undefined : requestInputsOf(plan.operationId).body;
}

/** The fields that address an item never vary: a write that renamed it would move it. */
function keptAddress(plan: OperationPlan, body: Json, item?: Item): Json {
  const resource = resourceOf(plan);
  const key = resource.keyField;
  if (!key || typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const { [key]: _dropped, ...rest } = body;
  if (plan.kind === 'update') return rest;
  const kept = item ? item.fields[key] : undefined;
  return kept === undefined ? body : { ...rest, [key]: kept };
}

/** Random bodies valid against the schema, repaired from the plan's sample where a draw is not. */
const validBodies = (plan: OperationPlan) => validValuesOf(bodySchemaOf(plan)!, plan.body!.sample);

const skipBodies = (suite: Suite, plan: OperationPlan) =>
  !BODY_KINDS.has(plan.kind) || !bodySchemaOf(plan)
    ? 'it takes no JSON body the suite can build'
    : needsValidRequest(suite, plan);

/** Where the operation creates, a fresh key for each draw (a key the schema allows, unique per create). */
function withNewKey(suite: Suite, plan: OperationPlan, body: Json): Json {
  const key = resourceOf(plan).keyField;
  if (plan.kind !== 'create' || !key || typeof body !== 'object' || body === null) return body;
  return { ...body, [key]: suite.sampleBody(plan.resource!)[key] ?? null };
}

/** A replace or update acts on an item the suite created, as the example-based checks do; a create in its collection. */
const acceptsSkip = (suite: Suite, plan: OperationPlan) =>
  skipBodies(suite, plan) ?? (plan.kind === 'create' ? undefined : needsCreate(suite, plan));

async function writtenTo(suite: Suite, plan: OperationPlan): Promise<{ path: Path; item?: Item }> {
  if (plan.kind === 'create') return subjectOf(suite, plan);
  const item = await suite.create(plan.resource!);
  return { path: item.path, item };
}

export const acceptsRandomValidBodies: Check = {
  skip: acceptsSkip,
  async run(suite, plan) {
    const { path, item } = await writtenTo(suite, plan);
    await holds(
      validBodies(plan),
      async (drawn) => {
        fc.pre(drawn !== undefined);
        const body = withNewKey(suite, plan, keptAddress(plan, drawn!, item));
        const answer = await suite.request(plan, { path, body });
        expectAccepted(answer, plan);
        if (plan.kind === 'create' && answer.status === plan.status)
          trackCreated(suite, plan, answer, path, body);
      },
      shown,
    );
  },
};

/** An item a create made, to delete after the file's tests: where its answer shows what addresses it. */
function trackCreated(
  suite: Suite,
  plan: OperationPlan,
  answer: Answer,
  path: Path,
  body: Json,
): void {
  if (plan.hasData && itemIdOf(resourceOf(plan), answer.body?.data, body) !== undefined)
    suite.track(itemOf(plan.resource!, answer.body.data, path, body));
}

/** Valid bodies, each with one rule broken. */
function violatedBodies(plan: OperationPlan) {
  const schema = bodySchemaOf(plan)!;
  const validate = validatorOf(schema);
  return fc.tuple(validBodies(plan), fc.nat()).map(([body, choice]) => {
    if (body === undefined) return undefined;
    const violations = violationsOf(schema, body, validate);
    return violations.length === 0 ? undefined : violations[choice % violations.length];
  });
}

export const rejectsRandomViolations: Check = {
  skip: (suite, plan) => {
    const reason = skipBodies(suite, plan);
    if (reason) return reason;
    const schema = bodySchemaOf(plan)!;
    return violationsOf(schema, plan.body!.sample, validatorOf(schema)).length === 0
      ? 'its body schema has no rule a value can break'
      : undefined;
  },
  async run(suite, plan) {
    const { path, item } = await subjectOf(suite, plan);
    await holds(
      violatedBodies(plan),
      async (violation) => {
        fc.pre(violation !== undefined);
        const body = keptAddress(plan, violation!.body, item);
        if (validatorOf(bodySchemaOf(plan)!)(body)) fc.pre(false);
        const answer = await suite.request(plan, { path, body });
        if (answer.status !== API.validationStatus && answer.status !== 400)
          fail(
            `A body with ${violation!.rule} at ${violation!.pointer || '/'} answered ${excerpt(answer)}`,
          );
        expectError(answer, answer.status);
        if (plan.kind === 'create' && answer.status < 300)
          trackCreated(suite, plan, answer, path, body);
      },
      (violation) =>
        violation
          ? `${violation.rule} at ${violation.pointer || '/'}: ${shown(violation.body)}`
          : '(none)',
    );
  },
};

// ── random queries ──────────────────────────────────────────────────────────

/** A cursor is valid only as the service issued it: its own checks try it. */
const OPAQUE = new Set(['cursor']);

/** Optional parameters a random query names at once: with more, one refused value hides what the others would find. */
const MOST_OPTIONAL = 3;

/** The optional query parameters a random query may name. */
const optionalQueryOf = (plan: OperationPlan) =>
  (requestInputsOf(plan.operationId).query ?? [])
    .filter(({ name, required }) => !required && !OPAQUE.has(name))
    .map(({ name }) => name);

/**
 * Random values for the query parameters the suite can write, each valid for
 * its schema: every required one, and a few optional ones.
 */
function queries(plan: OperationPlan): Arbitrary<Record<string, QueryValue>> {
  const inputs = (requestInputsOf(plan.operationId).query ?? []).filter(
    ({ name }) => !OPAQUE.has(name),
  );
  const values = inputs.map(({ name, schema }) => {
    const validate = validatorOf(schema);
    const value = validValuesOf(schema, undefined).map((drawn) =>
      drawn !== undefined && isQueryValue(drawn) && validate(drawn) ? drawn : undefined,
    );
    return [name, value] as const;
  });
  const optional = optionalQueryOf(plan);
  const required = new Set(inputs.filter((input) => input.required).map(({ name }) => name));
  return fc
    .tuple(
      fc.record(Object.fromEntries(values)),
      fc.subarray(optional, {
        minLength: Math.min(1, optional.length),
        maxLength: Math.min(MOST_OPTIONAL, optional.length),
      }),
    )
    .map(([drawn, named]) =>
      Object.fromEntries(
        Object.entries(drawn).filter(
          (entry): entry is [string, QueryValue] =>
            entry[1] !== undefined && (required.has(entry[0]) || named.includes(entry[0])),
        ),
      ),
    );
}

const isScalar = (value: unknown): value is string | number | boolean =>
  ['string', 'number', 'boolean'].includes(typeof value);
const isQueryValue = (value: unknown): value is QueryValue =>
  isScalar(value) || (Array.isArray(value) && value.every(isScalar));

export const answersRandomQueries: Check = {
  skip: (suite, plan) =>
    (requestInputsOf(plan.operationId).query ?? []).length === 0
      ? 'it takes no query parameter the suite can write'
      : needsValidRequest(suite, plan),
  async run(suite, plan) {
    const { path } = await subjectOf(suite, plan);
    await holds(
      queries(plan),
      async (query) => expectConventional(await suite.request(plan, { path, query }), plan),
      (query) => new URLSearchParams(query as Record<string, string>).toString() || '(no query)',
      // Each run names a few parameters: as many runs for every few of them as a property makes.
      SETTINGS.runs * Math.max(1, Math.ceil(optionalQueryOf(plan).length / MOST_OPTIONAL)),
    );
  },
};

// ── random ids ──────────────────────────────────────────────────────────────

/** Ids a URL path cannot carry as a segment of its own: the empty one, and the dot segments it resolves. */
const UNSENDABLE_IDS = new Set(['', '.', '..']);

/** Random values valid for the id parameter's schema, as a path carries them. */
function ids(plan: OperationPlan): Arbitrary<string | number | undefined> {
  const { idParam } = resourceOf(plan);
  const schema = requestInputsOf(plan.operationId).path?.[idParam!] ?? { type: 'string' };
  const validate = validatorOf(schema);
  return validValuesOf(schema, undefined).map((drawn) =>
    (typeof drawn === 'string' || typeof drawn === 'number') &&
    validate(drawn) &&
    !UNSENDABLE_IDS.has(String(drawn))
      ? drawn
      : undefined,
  );
}

export const answersRandomIds: Check = {
  skip: needsValidRequest,
  async run(suite, plan) {
    const resource = resourceOf(plan);
    const scope = await collectionScope(suite, plan);
    await holds(
      ids(plan),
      async (id) => {
        fc.pre(id !== undefined);
        const answer = await suite.request(plan, { path: { ...scope, [resource.idParam!]: id! } });
        if (answer.status < 300) return expectSuccess(answer, plan);
        expectError(answer, 404, 'RESOURCE_NOT_FOUND');
      },
      shown,
    );
  },
};

// ── random sequences ────────────────────────────────────────────────────────

/** One step of a sequence; `at` picks an item the sequence created (deleted ones too), by position. */
type Step =
  | { kind: 'create'; body: Json | undefined }
  | { kind: 'read'; at: number }
  | { kind: 'update'; at: number; body: Json | undefined }
  | { kind: 'replace'; at: number; body: Json | undefined }
  | { kind: 'delete'; at: number }
  | { kind: 'list'; limit: number }
  | { kind: 'listWhileCreating'; limit: number; body: Json | undefined };

function describeStep(step: Step): string {
  const { kind, ...rest } = step;
  return `${kind} ${JSON.stringify(rest)}`;
}

/** What the sequence knows of an item it created: what it wrote, whether it deleted it, how it last saw it. */
interface Known {
  item: Item;
  written: JsonObject;
  deleted: boolean;
  seen?: { etag: string | null; representation: string };
}

/** The operations of the resource a sequence may call. */
interface Operations {
  create: OperationPlan;
  read?: OperationPlan;
  update?: OperationPlan;
  replace?: OperationPlan;
  delete?: OperationPlan;
  list?: OperationPlan;
}

/** Its operations a sequence can call: those on an item only where a path addresses items. */
function operationsOf(plan: OperationPlan): Operations {
  const { operations: all, idParam } = resourceOf(plan);
  const operations: typeof all = idParam ? all : all.list ? { list: all.list } : {};
  const named = (id: string | undefined) => (id ? operation(id) : undefined);
  const list = named(operations.list);
  return {
    create: plan,
    ...(named(operations.read) ? { read: named(operations.read)! } : {}),
    ...(named(operations.update)?.body ? { update: named(operations.update)! } : {}),
    ...(named(operations.replace)?.body ? { replace: named(operations.replace)! } : {}),
    ...(named(operations.delete) ? { delete: named(operations.delete)! } : {}),
    ...(list?.paging && list.unbuilt === undefined ? { list } : {}),
  };
}

function steps(operations: Operations): Arbitrary<Step[]> {
  const at = fc.nat({ max: 7 });
  const create = validBodies(operations.create);
  const options: Arbitrary<Step>[] = [create.map((body) => ({ kind: 'create' as const, body }))];
  if (operations.read) options.push(at.map((index) => ({ kind: 'read' as const, at: index })));
  if (operations.update)
    options.push(
      fc.record({ kind: fc.constant('update' as const), at, body: validBodies(operations.update) }),
    );
  if (operations.replace)
    options.push(
      fc.record({
        kind: fc.constant('replace' as const),
        at,
        body: validBodies(operations.replace),
      }),
    );
  if (operations.delete) options.push(at.map((index) => ({ kind: 'delete' as const, at: index })));
  if (operations.list) {
    const limit = fc.integer({ min: 1, max: Math.min(operations.list.paging!.maxLimit, 10) });
    options.push(limit.map((count) => ({ kind: 'list' as const, limit: count })));
    if (operations.list.paging!.style === 'cursor')
      options.push(
        fc.record({ kind: fc.constant('listWhileCreating' as const), limit, body: create }),
      );
  }
  // Creates first and more often: most steps need an item.
  return fc
    .tuple(create, fc.array(fc.oneof(...options), { minLength: 1, maxLength: SETTINGS.steps }))
    .map(([first, rest]) => [{ kind: 'create' as const, body: first }, ...rest]);
}

/** What a sequence acts in: a fresh parent item where the resource has one, so its lists hold only what it made. */
interface Sequence {
  suite: Suite;
  operations: Operations;
  scope: Record<string, string | number>;
  known: Known[];
}

export const keepsInvariants: Check = {
  skip: (suite, plan) =>
    plan.kind !== 'create' || !plan.body || !plan.hasData
      ? 'its create answers no item the suite can follow'
      : needsCreate(suite, plan),
  async run(suite, plan) {
    const operations = operationsOf(plan);
    await holds(
      steps(operations),
      async (sequence) => {
        const state: Sequence = {
          suite,
          operations,
          scope: await collectionScope(suite, plan),
          known: [],
        };
        for (const step of sequence) await STEPS[step.kind](state, step as never);
      },
      (sequence) => sequence.map(describeStep).join(' → '),
    );
  },
};

const pick = (state: Sequence, at: number): Known | undefined =>
  state.known.length === 0 ? undefined : state.known[at % state.known.length];

/** The fields of a body the resource keeps as written (a typed body's attributes): not its id, nor the stamps the service sets. */
function writtenFields(plan: OperationPlan, body: Json): JsonObject {
  const fields =
    resourceOf(plan).shape === 'typed'
      ? flatten(resourceOf(plan), (body as JsonObject)?.data ?? body)
      : (body as JsonObject);
  const { createdField, updatedField } = resourceOf(plan);
  const stamps = new Set(['id', createdField, updatedField]);
  // A null may remove a member (merge patch) or leave what an answer requires: what it reads back is the service's.
  return Object.fromEntries(
    Object.entries(echoedOf(plan, fields)).filter(
      ([name, value]) => !stamps.has(name) && value !== null,
    ),
  );
}

const STEPS: {
  [K in Step['kind']]: (state: Sequence, step: Extract<Step, { kind: K }>) => Promise<void>;
} = {
  async create(state, { body }) {
    const { create } = state.operations;
    if (body === undefined) return;
    const sent = withNewKey(state.suite, create, body);
    const answer = await state.suite.request(create, { path: state.scope, body: sent });
    expectAccepted(answer, create);
    // An item whose answer shows nothing that addresses it cannot be followed: its answer is all there is to check.
    if (
      answer.status !== create.status ||
      itemIdOf(resourceOf(create), answer.body.data, sent) === undefined
    )
      return;
    const item = itemOf(create.resource!, answer.body.data, state.scope, sent);
    state.suite.track(item);
    const known: Known = { item, written: writtenFields(create, sent), deleted: false };
    state.known.push(known);
    await see(state, known, 'GET after POST');
  },

  async read(state, { at }) {
    const known = pick(state, at);
    if (known) await see(state, known, 'GET');
  },

  async update(state, { at, body }) {
    await write(state, state.operations.update!, pick(state, at), body);
  },

  async replace(state, { at, body }) {
    await write(state, state.operations.replace!, pick(state, at), body);
  },

  async delete(state, { at }) {
    const known = pick(state, at);
    const remove = state.operations.delete!;
    if (!known) return;
    const answer = await state.suite.request(remove, { path: known.item.path });
    if (known.deleted) return expectError(answer, 404, 'RESOURCE_NOT_FOUND');
    expectSuccess(answer, remove);
    known.deleted = true;
    await see(state, known, 'GET after DELETE');
  },

  async list(state, { limit }) {
    const seen = await walk(state, limit);
    if (seen) expectListed(seen, state.known);
  },

  async listWhileCreating(state, { limit, body }) {
    const before = [...state.known];
    const seen = await walk(state, limit, () => STEPS.create(state, { kind: 'create', body }));
    if (seen) expectListed(seen, before);
  },
};

/**
 * Reads the item back: 404 once deleted; else what was written, and an
 * ETag that changed exactly when the representation did.
 */
async function see(state: Sequence, known: Known, what: string): Promise<void> {
  const read = state.operations.read;
  if (!read) return;
  const answer = await state.suite.request(read, { path: known.item.path });
  if (known.deleted) return expectError(answer, 404, 'RESOURCE_NOT_FOUND');
  expectSuccess(answer, read);
  const fields = flatten(resourceOf(read), answer.body.data);
  expectFields(fields, known.written, what);
  const now = { etag: answer.headers.get('etag'), representation: canonical(answer.body.data) };
  const before = known.seen;
  known.seen = now;
  if (!before || before.etag === null || now.etag === null) return;
  if (before.representation === now.representation && before.etag !== now.etag)
    fail(
      `${what}: the ETag changed from ${before.etag} to ${now.etag}, but the representation did not.`,
    );
  if (before.representation !== now.representation && before.etag === now.etag)
    fail(`${what}: the representation changed, but the ETag stayed ${now.etag}.`);
}

/** A PATCH or PUT: it changes what it names and nothing else; a deleted item is 404. */
async function write(
  state: Sequence,
  plan: OperationPlan,
  known: Known | undefined,
  drawn: Json | undefined,
): Promise<void> {
  if (!known || drawn === undefined) return;
  const body = keptAddress(plan, drawn, known.item);
  const before = known.deleted ? undefined : await readFields(state, known);
  const answer = await state.suite.request(plan, { path: known.item.path, body });
  if (known.deleted) return expectError(answer, 404, 'RESOURCE_NOT_FOUND');
  expectAccepted(answer, plan);
  if (answer.status !== plan.status) return;
  const written = writtenFields(plan, body);
  known.written =
    plan.kind === 'update' ? { ...unnamedBy(known.written, body), ...written } : written;
  await see(state, known, `GET after ${plan.method}`);
  const after = await readFields(state, known);
  if (plan.kind !== 'update' || !before || !after) return;
  const resource = resourceOf(plan);
  const named = isObject(body) ? body : {};
  const unnamed = (name: string) =>
    !(name in named) &&
    name !== resource.updatedField &&
    !(resource.serverFields ?? []).includes(name);
  for (const [name, value] of Object.entries(before))
    if (unnamed(name) && !sameValue(after[name], value))
      fail(
        `PATCH of ${Object.keys(named).join(', ') || 'nothing'} changed ${name} too: ${JSON.stringify(value)} → ${JSON.stringify(after[name])}.`,
      );
}

/** What is known of an item, but the members a patch names (those it sets to null read back as the service says). */
function unnamedBy(fields: JsonObject, patch: Json): JsonObject {
  const named = isObject(patch) ? patch : {};
  return Object.fromEntries(Object.entries(fields).filter(([name]) => !(name in named)));
}

async function readFields(state: Sequence, known: Known): Promise<JsonObject | undefined> {
  const read = state.operations.read;
  if (!read) return undefined;
  const answer = await state.suite.request(read, { path: known.item.path });
  expectSuccess(answer, read);
  return flatten(resourceOf(read), answer.body.data);
}

/** Pages a walk takes at the drawn limit before it starts again at the largest (a list shared with other tests may be long). */
const PAGES_AT_DRAWN_LIMIT = 20;
/** After how many pages a walk stops creating items between them. */
const CREATES_DURING_WALK = 3;
/** Pages a walk takes at most: past them, the list is too long to check in a sequence. */
const MOST_PAGES = 100;

/**
 * Every page of the list in the sequence's scope, `between` run after each
 * of the first pages: how often each item was listed. Undefined where the
 * list is too long to walk.
 */
async function walk(
  state: Sequence,
  drawnLimit: number,
  between?: () => Promise<void>,
): Promise<Map<Json | undefined, JsonObject[]> | undefined> {
  const list = state.operations.list!;
  const resource = resourceOf(list);
  const narrow = recentOnly(
    list,
    state.known.map((known) => known.item),
  );
  const seen = new Map<Json | undefined, JsonObject[]>();
  let limit = drawnLimit;
  let cursor: string | undefined;
  for (let page = 1; page <= MOST_PAGES; page++) {
    const paging: Record<string, string | number> =
      list.paging!.style === 'cursor' ? (cursor ? { cursor } : {}) : { page };
    const answer = await state.suite.request(list, {
      path: state.scope,
      query: { ...narrow, ...paging, limit },
    });
    expectSuccess(answer, list);
    if (answer.body.data.length > limit)
      fail(`A page of ${answer.body.data.length} items for limit=${limit}.`);
    for (const data of answer.body.data as unknown[]) {
      const fields = flatten(resource, data);
      const key = itemKeyOf(resource, fields);
      if (key !== undefined) seen.set(key, [...(seen.get(key) ?? []), fields]);
    }
    const { pagination } = answer.body;
    const more =
      list.paging!.style === 'cursor' ? pagination.has_more : page < pagination.total_pages;
    if (!more) return seen;
    if (page === PAGES_AT_DRAWN_LIMIT && limit < list.paging!.maxLimit)
      return walk(state, list.paging!.maxLimit);
    cursor = pagination.cursor;
    if (page <= CREATES_DURING_WALK) await between?.();
  }
  return undefined;
}

/** No item twice; each of `expected` still there exactly once and as written, each deleted one gone. */
function expectListed(seen: Map<Json | undefined, JsonObject[]>, expected: Known[]): void {
  const twice = [...seen].filter(([, copies]) => copies.length > 1).map(([key]) => key);
  if (twice.length > 0) fail(`The walk listed items more than once: ${JSON.stringify(twice)}.`);
  for (const known of expected) {
    const listed = seen.get(known.item.id);
    if (known.deleted && listed) fail(`The deleted item ${known.item.id} is still listed.`);
    if (!known.deleted && !listed) fail(`The item ${known.item.id} is missing from the list.`);
    if (listed) expectFields(listed[0]!, known.written, `The listed item ${known.item.id}`);
  }
}

/** A representation as text, its members in one order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, member) =>
    member !== null && typeof member === 'object' && !Array.isArray(member)
      ? Object.fromEntries(Object.entries(member).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : member,
  );
}
