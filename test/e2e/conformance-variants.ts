/**
 * Broken servers: each variant patches the generated bookshop service so that
 * it breaks exactly one REST convention, and names (in `fails`) the test of
 * the generated conformance suite that must catch it. The unpatched service
 * passes the whole suite; every variant must fail at least one test whose
 * full name (describe titles and test title, joined by spaces) matches `fails`.
 */

/** `file` is relative to the generated project's root; `find` occurs exactly once in it. */
export interface Patch {
  file: string;
  find: string;
  replace: string;
}

export interface Variant {
  name: string;
  /** The convention the patch breaks. */
  breaks: string;
  /** Applied in order, each to the file as the previous ones left it. */
  patches: Patch[];
  /** Matches the full name of at least one test that must fail. */
  fails: RegExp;
  /** The generated project it patches: the bookshop, or the fixture with singletons and actions. */
  project?: 'shapes';
  /** Only the property-based checks can catch it: every failing test is one of them. */
  propertiesOnly?: true;
}

const AUTH = 'src/generated/conventions/auth.ts';
const BODY = 'src/generated/conventions/body.ts';
const CACHING = 'src/generated/conventions/caching.ts';
const ERRORS = 'src/generated/conventions/errors.ts';
const OPERATION = 'src/generated/conventions/operation.ts';
const PAGING = 'src/generated/conventions/paging.ts';
const RATE_LIMIT = 'src/generated/conventions/rate-limit.ts';
const REQUEST = 'src/generated/conventions/request.ts';
const REQUEST_ID = 'src/generated/conventions/request-id.ts';
const ROUTER = 'src/generated/conventions/router.ts';
const VALIDATION = 'src/generated/conventions/validation.ts';
const SQL = 'src/store/sql.ts';
const SINGLETON = 'src/store/sql-singleton.ts';
const STORE = 'src/generated/store.ts';

const patch = (file: string, find: string, replace: string): Patch => ({ file, find, replace });

/** Breaks each caught by an example-based check (and by the property-based ones where they reach it). */
const EXAMPLE_VARIANTS: Variant[] = [
  // ── representation ────────────────────────────────────────────────────────
  {
    name: 'envelope-missing',
    breaks: 'success envelope: the resource is answered bare, not under data (with meta)',
    patches: [
      patch(
        OPERATION,
        'answerJson(ctx, route.status, envelope(bytes ?? serialized.data, serialized.pagination));',
        'answerJson(ctx, route.status, [serialized.data]);',
      ),
    ],
    fails: /→ 200 with the (success|list) envelope/,
  },
  {
    name: 'timestamp-missing',
    breaks: 'success envelope: meta.timestamp is missing',
    patches: [
      patch(OPERATION, 'const meta = `{"timestamp":"${timestamp()}"}`;', "const meta = '{}';"),
    ],
    fails: /→ 200 with the (success|list) envelope/,
  },
  {
    name: 'timestamp-not-utc',
    breaks: 'success envelope: meta.timestamp is in a local time zone (+02:00), not UTC',
    patches: [
      patch(
        OPERATION,
        'new Date(ms).toISOString()',
        "new Date(ms + 7_200_000).toISOString().replace('Z', '+02:00')",
      ),
    ],
    fails: /→ 200 with the (success|list) envelope/,
  },
  {
    name: 'fields-ignored',
    breaks: 'sparse fieldsets: fields is accepted but every field is returned',
    patches: [patch(OPERATION, 'fieldset, route.shape),\n  );', '{ ...fieldset, named: [] }, route.shape),\n  );')],
    fails: /returns only the fields named in fields/,
  },
  {
    name: 'fields-drops-required',
    breaks: 'sparse fieldsets: a fields answer leaves out fields the response schema requires',
    patches: [patch(OPERATION, 'required: route.requiredFields ?? []', 'required: []')],
    fails: /returns only the fields named in fields/,
  },

  // ── statuses of writes ────────────────────────────────────────────────────
  {
    name: 'create-answers-200',
    breaks: 'POST that creates answers 201 Created (here 200)',
    patches: [
      patch(
        OPERATION,
        'answerJson(ctx, route.status, envelope(',
        "answerJson(ctx, route.kind === 'create' ? 200 : route.status, envelope(",
      ),
    ],
    fails: /POST \S+ → 201 with the created resource/,
  },
  {
    name: 'delete-answers-200-with-body',
    breaks: 'DELETE answers 204 with an empty body (here 200 with a JSON body)',
    patches: [
      patch(
        OPERATION,
        'if (result === false) throw errors.notFound();',
        "if (result === false) throw errors.notFound();\n    if (ctx.method === 'DELETE') {\n      ctx.status = 200;\n      ctx.body = { deleted: true };\n      return;\n    }",
      ),
    ],
    fails: /DELETE \S+ → 204 with an empty body/,
  },
  {
    name: 'patch-replaces-whole-resource',
    breaks: 'PATCH changes only the fields it names (here it replaces the resource, dropping the others)',
    patches: [patch(SQL, '(item) => ({\n      ...item,\n      ...this.written(request.body),', '(item) => ({\n      ...this.written(request.body),')],
    fails: /PATCH \S+ → 200, changes \w+ and nothing else/,
  },
  {
    name: 'parent-not-checked',
    breaks: 'a nested collection under a missing parent is 404 (here its list is an empty page)',
    patches: [patch(SQL, '    return namesParent && !(await this.parentExists(path));', '    return false;')],
    fails: /→ 404 RESOURCE_NOT_FOUND under a missing authors item/,
  },

  // ── errors ────────────────────────────────────────────────────────────────
  {
    name: 'not-found-code',
    breaks: 'error catalog: 404 has code RESOURCE_NOT_FOUND (here NOT_FOUND)',
    patches: [patch(ERRORS, "code: 'RESOURCE_NOT_FOUND'", "code: 'NOT_FOUND'")],
    fails: /→ 404 RESOURCE_NOT_FOUND for an unknown id/,
  },
  {
    name: 'malformed-json-500-with-stack',
    breaks: 'malformed JSON is a 400, and no error shows a stack (here a 500 whose message is err.stack)',
    patches: [
      patch(BODY, "import { errors } from './errors.js';", "import { ApiError, ERROR_CODES, errors } from './errors.js';"),
      patch(
        BODY,
        'errors.badRequest(`The request body is not valid JSON: ${(error as Error).message}`)',
        'new ApiError(ERROR_CODES.internal, (error as Error).stack ?? String(error))',
      ),
    ],
    fails: /→ 400 for a body that is not JSON/,
  },
  {
    name: 'stack-in-error-message',
    breaks: 'errors never show a stack trace or source path (here the 400 for malformed JSON carries err.stack)',
    patches: [patch(BODY, '${(error as Error).message}', '${(error as Error).stack}')],
    fails: /→ 400 for a body that is not JSON/,
  },
  {
    name: 'error-request-id-differs',
    breaks: 'error.request_id is the X-Request-Id of the response (here an id of its own)',
    patches: [patch(ERRORS, 'request_id: requestId,', 'request_id: `err-${Date.now()}`,')],
    fails: /an unknown path → 404 in the error envelope/,
  },
  {
    name: 'unknown-path-plain-404',
    breaks: 'an unknown path is a 404 in the error envelope (here a plain-text Not Found)',
    patches: [
      patch(
        ROUTER,
        'if (!match) throw unmatched(ctx.path);',
        "if (!match) {\n      const error = unmatched(ctx.path);\n      if ((error as { status?: number }).status !== 404) throw error;\n      ctx.status = 404;\n      ctx.body = 'Not Found';\n      return;\n    }",
      ),
    ],
    fails: /an unknown path → 404 in the error envelope/,
  },
  {
    name: 'method-not-allowed-as-404',
    breaks: 'a known path with another method is 405 METHOD_NOT_ALLOWED with Allow (here 404)',
    patches: [
      patch(
        ROUTER,
        "if ('allow' in match) throw errors.methodNotAllowed(match.allow);",
        "if ('allow' in match) throw errors.notFound(`There is no resource at ${ctx.path}.`);",
      ),
    ],
    fails: /→ 405 METHOD_NOT_ALLOWED with Allow/,
  },

  // ── request bodies ────────────────────────────────────────────────────────
  {
    name: 'validation-details-missing',
    breaks: 'a validation error lists one details[] entry per invalid field (here no details)',
    patches: [patch(ERRORS, '...(this.details ? { details: this.details } : {}),', '')],
    fails: /→ 422 VALIDATION_ERROR \(body\.\w+ [A-Z_]+\)/,
  },
  {
    name: 'body-limit-not-enforced',
    breaks: 'a body above the size limit is 413 PAYLOAD_TOO_LARGE (here read whole)',
    patches: [patch(BODY, 'readText(ctx, rule.limit)', 'readText(ctx, Infinity)')],
    fails: /→ 413 PAYLOAD_TOO_LARGE for a body above the limit/,
  },
  {
    name: 'wrong-content-type-accepted',
    breaks: 'a body of another media type is 415 UNSUPPORTED_MEDIA_TYPE (here text/* is parsed as JSON)',
    patches: [patch(BODY, "ctx.request.is('json', '+json')", "ctx.request.is('json', '+json', 'text/*')")],
    fails: /→ 415 UNSUPPORTED_MEDIA_TYPE for a text\/plain body/,
  },

  // ── auth ──────────────────────────────────────────────────────────────────
  {
    name: 'invalid-token-accepted',
    breaks: 'an invalid credential is 401 UNAUTHORIZED (here any token is a caller without scopes)',
    patches: [
      patch('src/auth.ts', 'return found;', "return found ?? { id: 'guest', scheme: credential.scheme, scopes: [] };"),
    ],
    fails: /→ 401 UNAUTHORIZED with an invalid credential/,
  },
  {
    name: 'scopes-not-enforced',
    breaks: 'a credential lacking the required scope is 403 FORBIDDEN (here allowed)',
    patches: [patch(AUTH, 'if (missing.length === 0) return;', 'return;')],
    fails: /→ 403 FORBIDDEN with a credential lacking/,
  },
  {
    name: 'public-operation-requires-auth',
    breaks: 'an operation with empty security answers without a credential (here 401)',
    patches: [patch(AUTH, 'if (requirement.public) return;', '')],
    fails: /answers without a credential \(public\)/,
  },
  {
    name: 'api-key-ignored',
    breaks: 'the API key header of the spec authenticates (here it is never read)',
    patches: [
      patch(AUTH, "credentialOf(headers.authorization ?? '', apiKey)", "credentialOf(headers.authorization ?? '', '')"),
    ],
    fails: /an API key in its header is accepted/,
  },

  // ── lists ─────────────────────────────────────────────────────────────────
  {
    name: 'limit-maximum-not-enforced',
    breaks: 'limit above the maximum is 422 with query.limit OUT_OF_RANGE (here accepted)',
    patches: [
      patch(
        VALIDATION,
        '(validate.errors ?? []).map(',
        "(validate.errors ?? [])\n      .filter((problem) => !(problem.keyword === 'maximum' && problem.instancePath.endsWith('/query/limit')))\n      .map(",
      ),
    ],
    fails: /→ 422 VALIDATION_ERROR for limit above the maximum/,
  },
  {
    name: 'cursor-does-not-advance',
    breaks: 'the next cursor continues the list (here every cursor answers the first page again)',
    patches: [
      patch(
        PAGING,
        'list.after = decodeCursor(query.cursor, walkOf(list), secret);',
        'decodeCursor(query.cursor, walkOf(list), secret);',
      ),
    ],
    fails: /→ a cursor walk sees every item exactly once/,
  },
  {
    name: 'tampered-cursor-accepted',
    breaks: 'a tampered cursor is 400 (here it is ignored and the first page answered)',
    patches: [
      patch(
        PAGING,
        'list.after = decodeCursor(query.cursor, walkOf(list), secret);',
        '{\n    try {\n      list.after = decodeCursor(query.cursor, walkOf(list), secret);\n    } catch {\n      // an unreadable cursor starts over\n    }\n  }',
      ),
    ],
    fails: /→ 400 for a tampered cursor/,
  },
  {
    name: 'offset-total-counts-one-page',
    breaks: 'offset pagination: total counts the items of every page (here only the current page)',
    patches: [patch(PAGING, 'const total = (page as OffsetPage<unknown>).total;', 'const total = page.items.length;')],
    fails: /→ offset pages add up/,
  },
  {
    name: 'sort-descending-ignored',
    breaks: 'sort=-field (and order=desc) sorts descending (here always ascending)',
    patches: [patch(SQL, '  return key.descending\n', '  return false\n')],
    fails: /→ sorts by \w+ ascending and descending/,
  },
  {
    name: 'equality-filters-ignored',
    breaks: 'a filter parameter keeps only the items whose field equals it (here every item is listed)',
    patches: [
      patch(
        SQL,
        'conditions.push(compared === MISFIT ? sql`false` : sql`${id(column!.column)} = ${compared}`);',
        'void compared;',
      ),
    ],
    fails: /→ filters on \w+/,
  },
  {
    name: 'search-ignored',
    breaks: 'search keeps only the items that contain the text (here every item is listed)',
    patches: [
      patch(PAGING, "if (typeof query.search === 'string' && query.search !== '') list.search = query.search;", ''),
    ],
    fails: /→ search finds an item/,
  },
  {
    name: 'created-after-ignored',
    breaks: 'created_after bounds the creation date (here ignored)',
    patches: [
      patch(PAGING, "if (typeof query.created_after === 'string') list.createdAfter = new Date(query.created_after);", ''),
    ],
    fails: /→ created_after and created_before bound the creation date/,
  },

  // ── caching ───────────────────────────────────────────────────────────────
  {
    name: 'if-none-match-ignored',
    breaks: 'If-None-Match with the current ETag is 304 with no body (here 200)',
    patches: [
      patch(
        CACHING,
        "ifNoneMatch !== undefined && ifNoneMatch !== '' && matchesIfNoneMatch(ifNoneMatch, options.tag)",
        "ifNoneMatch !== undefined && ifNoneMatch.trim() === '*'",
      ),
    ],
    fails: /→ ETag, and 304 with no body for If-None-Match/,
  },
  {
    name: 'weak-etag',
    breaks: 'the ETag is strong (here W/"…")',
    patches: [patch(CACHING, '`"${hash(', '`W/"${hash(')],
    fails: /→ ETag, and 304 with no body for If-None-Match/,
  },
  {
    name: 'etag-ignores-changes',
    breaks: 'the ETag changes with the representation (here it covers only its first 50 characters: the id)',
    patches: [patch(CACHING, "hash('sha1', serialized, 'base64url')", "hash('sha1', serialized.slice(0, 50), 'base64url')")],
    fails: /→ changed by (PUT|PATCH), the resource no longer matches its old ETag/,
  },

  // ── request ids, rate limit, versioning ───────────────────────────────────
  {
    name: 'no-request-id',
    breaks: 'every response carries X-Request-Id (here none)',
    patches: [patch(REQUEST_ID, "setAnswerHeader(ctx, 'X-Request-Id', ctx.state.requestId);", '')],
    fails: /X-Request-Id: the caller's id comes back/,
  },
  {
    name: 'request-id-not-unique',
    breaks: 'a request without X-Request-Id gets a new id (here the same one every time)',
    patches: [patch(REQUEST_ID, ': newRequestId();', ": 'request';")],
    fails: /X-Request-Id: every response gets an id of its own/,
  },
  {
    name: 'rate-limit-headers-missing',
    breaks: 'X-RateLimit-Limit, -Remaining and -Reset on every response (here none)',
    patches: [
      patch(RATE_LIMIT, "setAnswerHeader(ctx, 'X-RateLimit-Limit', limitText(limit));", ''),
      patch(RATE_LIMIT, "setAnswerHeader(ctx, 'X-RateLimit-Remaining', String(Math.max(0, limit - window.count)));", ''),
      patch(RATE_LIMIT, "setAnswerHeader(ctx, 'X-RateLimit-Reset', resetText(Math.ceil(window.resetAt / 1000)));", ''),
    ],
    fails: /X-RateLimit-Limit, -Remaining and -Reset on successes and errors/,
  },
  {
    name: 'rate-limit-remaining-constant',
    breaks: 'X-RateLimit-Remaining counts down within a window (here it always says the full limit)',
    patches: [patch(RATE_LIMIT, 'String(Math.max(0, limit - window.count))', 'String(limit)')],
    fails: /X-RateLimit-Remaining counts down, then 429/,
  },
  {
    name: 'no-retry-after',
    breaks: '429 RATE_LIMITED carries Retry-After (here missing)',
    patches: [patch(ERRORS, "headers: { 'Retry-After': String(retryAfterSeconds) },", 'headers: {},')],
    fails: /then 429 RATE_LIMITED with Retry-After/,
  },
  {
    name: 'rate-limit-not-enforced',
    breaks: 'past the limit a request is 429 RATE_LIMITED (here still answered)',
    patches: [patch(RATE_LIMIT, 'if (window.count > limit)', 'if (window.count < 0)')],
    fails: /then 429 RATE_LIMITED with Retry-After/,
  },
  {
    name: 'header-version-ignored',
    breaks: 'Accept: application/vnd.api+json;version=N of a version not served is 406 NOT_ACCEPTABLE (here ignored)',
    patches: [
      patch(
        REQUEST,
        'if (options.acceptedVersion !== undefined) checkAcceptedVersion(ctx, options.acceptedVersion);',
        '',
      ),
    ],
    fails: /version=99 → 406 NOT_ACCEPTABLE/,
  },
  {
    name: 'patch-not-persisted',
    breaks: 'writes: PATCH answers the changed resource but does not store it',
    patches: [patch(SQL, 'where ${id(SEQ)} = ${row[SEQ]} returning *', 'where false returning *'), patch(SQL, '    return written && this.present<Out>(written);', '    return this.present<Out>({ ...row, ...next });')],
    fails: /PATCH .*changes \w+ and nothing else/,
  },
  // ── singletons (test/fixtures/valid/shapes.yaml: /settings) ───────────────
  {
    name: 'singleton-patch-replaces',
    breaks: 'PATCH of a singleton changes only what it names (here it replaces the whole value)',
    patches: [patch(SINGLETON, ': { ...value, ...keptOf(request.body as Value, this.options) }', ': { ...keptOf(request.body as Value, this.options) }')],
    fails: /PATCH \/settings → 200, changes \w+ and nothing else/,
    project: 'shapes',
  },
  {
    name: 'singleton-delete-keeps',
    breaks: 'after a DELETE of a singleton its GET is 404 (here it still answers the value)',
    patches: [patch(SINGLETON, '    await this.store(owner!, null);', '    void owner;')],
    fails: /DELETE \/settings → 204, then GET → 404/,
    project: 'shapes',
  },
  {
    name: 'singleton-initial-invalid',
    breaks: "a singleton's GET answers data valid against its schema (here the value lacks its required fields)",
    patches: [patch(STORE, "initial: { theme: 'light', page_size: 1 },", 'initial: {},')],
    fails: /GET \/settings → 200 with the success envelope, data valid against the schema/,
    project: 'shapes',
  },
  // ── writes that answer no body, creates that answer an id (shapes.yaml) ──
  {
    name: 'no-body-replace-not-stored',
    breaks: 'a PUT answered 204 replaces the item (here it answers 204 and stores nothing)',
    patches: [patch('src/handlers/tasks.ts', 'replaceTask: async (request) => (await store.tasks.replace(request)) !== undefined,', 'replaceTask: () => true,')],
    fails: /PUT \/tasks\/\{task_id\} → 204, replaces the resource/,
    project: 'shapes',
  },
  {
    name: 'no-body-replace-of-missing-item',
    breaks: 'a PUT of an item that does not exist is 404 (here 204)',
    patches: [patch('src/handlers/tasks.ts', 'replaceTask: async (request) => (await store.tasks.replace(request)) !== undefined,', 'replaceTask: async (request) => void (await store.tasks.replace(request)),')],
    fails: /PUT \/tasks\/\{task_id\} → 404 RESOURCE_NOT_FOUND for an unknown id/,
    project: 'shapes',
  },
  {
    name: 'created-id-not-the-item',
    breaks: "a create that answers an id answers the new item's (here another)",
    patches: [patch('src/handlers/notes.ts', '(await store.notes.create<{ id: string }>(request))?.id', "(await store.notes.create(request), '00000000-0000-4000-8000-000000000000')")],
    fails: /POST \/notes → 201 with the created resource \(or its id\), then GET returns it/,
    project: 'shapes',
  },
];

/** A store whose create first runs `statement` (a check that throws on some valid body). */
const failsToCreate = (statement: string): Patch =>
  patch(SQL, '    const path = this.placed(request.path as Path, request.body);', `    ${statement}\n    const path = this.placed(request.path as Path, request.body);`);

/**
 * Breaks that no example shows: each passes every example-based check, and
 * only random data or random sequences find it (../../src/runtime/conformance/properties.ts).
 */
const PROPERTY_VARIANTS: Variant[] = [
  {
    name: 'rare-enum-value-500',
    breaks: 'every valid body is accepted (here a 500 on genre "science", the one value no example sends)',
    patches: [failsToCreate("if ((request.body as Row)?.genre === 'science') throw new Error('no shelf for science');")],
    propertiesOnly: true,
    fails: /property: random valid bodies are accepted/,
  },
  {
    name: 'long-title-500',
    breaks: 'every valid body is accepted (here a 500 on a title longer than 100 characters, though 300 are allowed)',
    patches: [failsToCreate("if (String((request.body as Row)?.title ?? '').length > 100) throw new Error('title column too narrow');")],
    propertiesOnly: true,
    fails: /property: random valid bodies are accepted/,
  },
  {
    name: 'non-ascii-500',
    breaks: 'every valid body is accepted (here a 500 on any character outside ASCII)',
    patches: [failsToCreate("if (/[^\\x00-\\x7f]/.test(JSON.stringify(request.body))) throw new Error('latin-1 only');")],
    propertiesOnly: true,
    fails: /property: random valid bodies are accepted/,
  },
  {
    name: 'optional-field-assumed',
    breaks: 'every valid body is accepted (here a 500 when an author comes without the optional bio)',
    patches: [failsToCreate("if (this.options.type === 'authors' && typeof (request.body as Row)?.bio !== 'string') throw new Error('bio is undefined');")],
    propertiesOnly: true,
    fails: /property: random (valid bodies are accepted|sequences)/,
  },
  {
    name: 'etag-of-a-prefix',
    breaks: 'ETags change exactly when the representation does (here the tag hashes the first 100 characters only)',
    patches: [
      patch(OPERATION, 'entityTag(serialized.data))', 'entityTag(serialized.data.slice(0, 100)))'),
      patch(OPERATION, 'entityTag(pagination === undefined ? data :', 'entityTag(pagination === undefined ? data.slice(0, 100) :'),
    ],
    // Kept in columns, a book shows its long author id before its title: the examples' PUT and PATCH change the tag no more.
    fails: /no longer matches its old ETag|property: random sequences .* keep authors's invariants/,
  },
  {
    name: 'patch-clears-another-field',
    breaks: 'PATCH changes only what it names (here naming country drops bio)',
    patches: [patch(SQL, '(item) => ({\n      ...item,\n      ...this.written(request.body),', "(item) => ({\n      ...item,\n      ...('country' in (request.body as Row) ? { bio: undefined } : {}),\n      ...this.written(request.body),")],
    propertiesOnly: true,
    fails: /property: random sequences .* keep authors's invariants/,
  },
  {
    name: 'cursor-is-an-offset',
    breaks: 'a cursor walk lists each item once (here newest first, the cursor an offset: a create between pages shifts the next page)',
    patches: [
      patch(SQL, 'sql`${id(SEQ)} asc`', 'sql`${id(SEQ)} desc`'),
      patch(SQL, '    if (list.after !== undefined) conditions.push(this.after(list.after, sort));', '    const skip = list.after === undefined ? 0 : (list.after as { seq: number }).seq;'),
      patch(SQL, 'list.offset === undefined ? sql`` : sql` offset ${list.offset}`', 'sql` offset ${list.offset ?? skip}`'),
      patch(SQL, '              seq: Number(last[SEQ]),', '              seq: skip + shown.length,'),
    ],
    propertiesOnly: true,
    fails: /property: random sequences/,
  },
  {
    name: 'deleted-still-listed',
    breaks: 'a deleted item is gone from lists (here it is 404 to GET, but lists keep showing it)',
    patches: [
      patch(SQL, '      const deleted = await run(', '      ((this as any).tombstones ??= []).push(row);\n      const deleted = await run('),
      patch(SQL, '      items: shown.map((row) => this.present<Out>(row)),', '      items: [...shown, ...((this as any).tombstones ?? [])].map((row: Row) => this.present<Out>(row)),'),
    ],
    propertiesOnly: true,
    fails: /property: random sequences/,
  },
  {
    name: 'odd-limit-skips-an-item',
    breaks: 'a cursor walk sees every item (here, for an odd limit above 1, the cursor skips the first item of the next page)',
    patches: [patch(SQL, '    const last = shown.at(-1);', '    const last = list.limit % 2 === 1 && list.limit > 1 ? (rows[list.limit] ?? shown.at(-1)) : shown.at(-1);')],
    propertiesOnly: true,
    fails: /property: random sequences/,
  },
  {
    name: 'search-as-regex-500',
    breaks: 'valid queries never answer 5xx (here search is read as a regular expression, and text that is none is a 500)',
    patches: [patch(SQL, '    if (list.search !== undefined)\n', '    if (list.search !== undefined) new RegExp(list.search);\n    if (list.search !== undefined)\n')],
    propertiesOnly: true,
    fails: /property: random valid queries/,
  },
  {
    name: 'sort-by-isbn-500',
    breaks: 'valid queries never answer 5xx (here sorting by isbn, which the spec allows and no example tries)',
    patches: [patch(SQL, '    const sort = list.sort.map((key) => this.sortColumn(key));', "    if (list.sort.some((key) => key.field === 'isbn')) throw new Error('no index on isbn');\n    const sort = list.sort.map((key) => this.sortColumn(key));")],
    propertiesOnly: true,
    fails: /property: random valid queries/,
  },
  {
    name: 'near-bound-page-count-500',
    breaks: 'every valid body is accepted (here pages above 9000 fail, though the schema allows 10000)',
    patches: [failsToCreate("if (Number((request.body as Row)?.pages) > 9000) throw new Error('pages overflow');")],
    propertiesOnly: true,
    fails: /property: random valid bodies are accepted/,
  },
  {
    name: 'uuid-v4-only-500',
    breaks: 'any id valid for its schema is looked up (here a uuid of another version than 4 is a 500, not a 404)',
    patches: [patch(SQL, '    const value = keyValue(path[this.options.idParam], this.table.id);', "    const raw = path[this.options.idParam];\n    if (typeof raw === 'string' && /^[0-9a-f-]{36}$/i.test(raw) && raw[14] !== '4') throw new Error('not a v4 uuid');\n    const value = keyValue(path[this.options.idParam], this.table.id);")],
    propertiesOnly: true,
    fails: /property: random ids answer 404/,
  },
];


export const VARIANTS: Variant[] = [...EXAMPLE_VARIANTS, ...PROPERTY_VARIANTS];
