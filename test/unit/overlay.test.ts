/**
 * OpenAPI Overlays (src/load/overlay.ts): reading an overlay document, and
 * applying its actions to a spec. Each case gives a document and an overlay
 * and wants the patched document, or the problems (code, severity, pointer
 * into the overlay file). Every case runs on frozen inputs, so a change to
 * the document or the overlay given fails it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MAX_DEPTH } from '../../src/load/limits.js';
import { parseText } from '../../src/load/parse.js';
import { applyOverlay, readOverlay, type Overlaid } from '../../src/load/overlay.js';
import { FIXTURES } from '../helpers.js';

const FILE = '/project/fix.overlay.yaml';

interface Case {
  name: string;
  given: { document: unknown; actions?: unknown[]; overlay?: unknown; maxValues?: number };
  want: { document?: unknown; problems?: { code: string; severity?: string; pointer?: string; message?: RegExp }[] };
}

/** An Overlay 1.0 document with these actions. */
const overlayOf = (actions: unknown[]) => ({ overlay: '1.0.0', info: { title: 'Fixes', version: '1' }, actions });

/** A small spec: an operation with a faulty body, parameters and tags. */
const spec = () => ({
  openapi: '3.0.3',
  info: { title: 'Notes', version: '1.0.0', contact: { name: 'Team' } },
  tags: [{ name: 'notes' }],
  paths: {
    '/notes': {
      post: {
        parameters: [
          { name: 'a', in: 'query' },
          { name: 'b', in: 'query' },
          { name: 'a', in: 'header' },
          { name: 'c', in: 'query' },
          { name: 'a', in: 'cookie' },
        ],
        requestBody: { content: { 'application/json': { schema: null } } },
        responses: { '201': { description: 'Created' } },
      },
    },
  },
});

const BODY = "$.paths['/notes'].post.requestBody.content['application/json']";
const PARAMETERS = "$.paths['/notes'].post.parameters";

/** `spec()` with `change` made to a copy. */
function specWith(change: (document: ReturnType<typeof spec>) => void): unknown {
  const document = spec();
  change(document);
  return document;
}

function deepFreeze<T>(value: T): T {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const node = pending.pop();
    if (typeof node !== 'object' || node === null || Object.isFrozen(node)) continue;
    Object.freeze(node);
    pending.push(...Object.values(node));
  }
  return value;
}

/** Reads and applies the overlay to frozen inputs: the problems of either step, and the patched document. */
function run(given: Case['given']): { document?: unknown; problems: Overlaid['problems']; result?: Overlaid } {
  const document = deepFreeze(given.document);
  const overlay = readOverlay(deepFreeze('overlay' in given ? given.overlay : overlayOf(given.actions ?? [])), FILE);
  if (Array.isArray(overlay)) return { problems: overlay };
  const result = applyOverlay(document, overlay, given.maxValues ?? 1_000_000);
  return { document: result.document, problems: result.problems, result };
}

const CASES: Case[] = [
  {
    name: 'update merges objects deep: new members added, members of both merged, the rest kept',
    given: { document: spec(), actions: [{ target: '$.info', update: { version: '2.0.0', contact: { email: 'team@example.com' } } }] },
    want: {
      document: specWith((d) => Object.assign(d.info, { version: '2.0.0', contact: { name: 'Team', email: 'team@example.com' } })),
      problems: [],
    },
  },
  {
    name: 'update replaces a value of another kind: `schema: null` becomes the schema given',
    given: { document: spec(), actions: [{ target: BODY, update: { schema: { type: 'object' } } }] },
    want: {
      document: specWith((d) => (d.paths['/notes'].post.requestBody.content['application/json'].schema = { type: 'object' } as never)),
      problems: [],
    },
  },
  {
    name: 'update on an array target appends the value as one item',
    given: { document: spec(), actions: [{ target: '$.tags', update: { name: 'drafts' } }] },
    want: { document: specWith((d) => d.tags.push({ name: 'drafts' })), problems: [] },
  },
  {
    name: 'update on an array target with an array appends its items',
    given: { document: spec(), actions: [{ target: '$.tags', update: [{ name: 'drafts' }, { name: 'archive' }] }] },
    want: { document: specWith((d) => d.tags.push({ name: 'drafts' }, { name: 'archive' })), problems: [] },
  },
  {
    name: 'inside a merge, an array meets an array: the items are appended',
    given: { document: spec(), actions: [{ target: '$', update: { tags: [{ name: 'drafts' }] } }] },
    want: { document: specWith((d) => d.tags.push({ name: 'drafts' })), problems: [] },
  },
  {
    name: 'remove deletes an object member',
    given: { document: spec(), actions: [{ target: "$.paths['/notes'].post.requestBody", remove: true }] },
    want: { document: specWith((d) => delete (d.paths['/notes'].post as { requestBody?: unknown }).requestBody), problems: [] },
  },
  {
    name: 'remove deletes one array item',
    given: { document: spec(), actions: [{ target: `${PARAMETERS}[1]`, remove: true }] },
    want: { document: specWith((d) => d.paths['/notes'].post.parameters.splice(1, 1)), problems: [] },
  },
  {
    name: 'remove with several matches in one array: each removed, none shifted onto another',
    given: { document: spec(), actions: [{ target: `${PARAMETERS}[?@.name == 'a']`, remove: true }] },
    want: {
      document: specWith((d) => (d.paths['/notes'].post.parameters = [{ name: 'b', in: 'query' }, { name: 'c', in: 'query' }])),
      problems: [],
    },
  },
  {
    name: 'remove with matches inside matches: the outer node goes, the inner ones with it',
    given: { document: { a: { x: 1, b: { x: 2 } }, list: [{ x: 1, y: [{ x: 2 }] }, 3] }, actions: [{ target: '$..[?@.x]', remove: true }] },
    want: { document: { list: [3] }, problems: [] },
  },
  {
    name: 'actions apply in order, each to the result of the one before (remove, then re-create)',
    given: {
      document: spec(),
      actions: [
        { target: '$.info.contact', remove: true },
        { target: '$.info', update: { contact: { url: 'https://example.com' } } },
        { target: '$.info.contact', update: { name: 'Ops' } },
      ],
    },
    want: { document: specWith((d) => (d.info.contact = { url: 'https://example.com', name: 'Ops' } as never)), problems: [] },
  },
  {
    name: 'a target that selects nothing: a warning at its target, and the other actions still apply',
    given: { document: spec(), actions: [{ target: '$.nowhere', remove: true }, { target: '$.info', update: { version: '2' } }] },
    want: {
      document: specWith((d) => (d.info.version = '2')),
      problems: [{ code: 'OVERLAY_TARGET_UNMATCHED', severity: 'warning', pointer: '#/actions/0/target', message: /\$\.nowhere/ }],
    },
  },
  {
    name: 'member names with quotes, backslashes and line breaks are matched as they are',
    given: { document: { paths: { "/it's": {}, 'a\\b\nc': {} } }, actions: [{ target: "$.paths[\"/it's\"]", update: { x: 1 } }, { target: "$.paths['a\\\\b\\nc']", update: { y: 2 } }] },
    want: { document: { paths: { "/it's": { x: 1 }, 'a\\b\nc': { y: 2 } } }, problems: [] },
  },
  {
    name: 'a local $ref in an update is data, kept as it is',
    given: { document: spec(), actions: [{ target: BODY, update: { schema: { $ref: '#/components/schemas/Note' } } }] },
    want: {
      document: specWith((d) => (d.paths['/notes'].post.requestBody.content['application/json'].schema = { $ref: '#/components/schemas/Note' } as never)),
      problems: [],
    },
  },
  // The overlay document itself.
  {
    name: 'an invalid JSONPath: OVERLAY_INVALID at the target',
    given: { document: spec(), actions: [{ target: "$.paths['/notes'", remove: true }] },
    want: { problems: [{ code: 'OVERLAY_INVALID', pointer: '#/actions/0/target', message: /not an RFC 9535 JSONPath.*at character 17/ }] },
  },
  {
    name: 'a target that is not a JSONPath at all (no `$`): OVERLAY_INVALID at the target',
    given: { document: spec(), actions: [{ target: 'paths./notes', remove: true }] },
    want: { problems: [{ code: 'OVERLAY_INVALID', pointer: '#/actions/0/target' }] },
  },
  {
    name: 'a target nested too deep to parse: OVERLAY_INVALID, no stack overflow',
    given: { document: spec(), actions: [{ target: `$[?${'('.repeat(20_000)}@.a${')'.repeat(20_000)}]`, remove: true }] },
    want: { problems: [{ code: 'OVERLAY_INVALID', pointer: '#/actions/0/target', message: /nested too deep/ }] },
  },
  ...[
    ['a list', []],
    ['a string', 'actions: []'],
    ['null (an empty file)', null],
  ].map(([kind, overlay]): Case => ({
    name: `an overlay that is ${kind as string}, not a mapping: OVERLAY_INVALID at #`,
    given: { document: spec(), overlay },
    want: { problems: [{ code: 'OVERLAY_INVALID', pointer: '#' }] },
  })),
  {
    name: 'no actions: OVERLAY_INVALID at #/actions',
    given: { document: spec(), overlay: { overlay: '1.0.0', info: { title: 't', version: '1' } } },
    want: { problems: [{ code: 'OVERLAY_INVALID', pointer: '#/actions', message: /no `actions`/ }] },
  },
  {
    name: 'an empty list of actions: OVERLAY_INVALID at #/actions',
    given: { document: spec(), actions: [] },
    want: { problems: [{ code: 'OVERLAY_INVALID', pointer: '#/actions' }] },
  },
  {
    name: 'no `overlay` version, another version, no info: OVERLAY_INVALID at each',
    given: { document: spec(), overlay: { actions: [{ target: '$', update: {} }] } },
    want: { problems: [{ code: 'OVERLAY_INVALID', pointer: '#/overlay' }, { code: 'OVERLAY_INVALID', pointer: '#/info' }] },
  },
  {
    name: 'Overlay 1.1 is not applied as 1.0',
    given: { document: spec(), overlay: { ...overlayOf([{ target: '$', update: {} }]), overlay: '1.1.0' } },
    want: { problems: [{ code: 'OVERLAY_INVALID', pointer: '#/overlay', message: /1\.1\.0/ }] },
  },
  {
    name: 'unknown fields, top level, info and action, with a did-you-mean; extensions (x-…) are fine',
    given: {
      document: spec(),
      overlay: { ...overlayOf([{ target: '$', updat: {}, remove: true, 'x-why': 'ok' }]), actionz: [], 'x-note': 1, info: { title: 't', version: '1', titel: 'x' } },
    },
    want: {
      problems: [
        { code: 'OVERLAY_INVALID', pointer: '#/actionz', message: /did you mean "actions"/ },
        { code: 'OVERLAY_INVALID', pointer: '#/info/titel', message: /did you mean "title"/ },
        { code: 'OVERLAY_INVALID', pointer: '#/actions/0/updat', message: /did you mean "update"/ },
      ],
    },
  },
  {
    name: 'an action with neither update nor remove (or remove: false): OVERLAY_INVALID at the action',
    given: { document: spec(), actions: [{ target: '$.info' }, { target: '$.info', remove: false }] },
    want: {
      problems: [
        { code: 'OVERLAY_INVALID', pointer: '#/actions/0', message: /neither/ },
        { code: 'OVERLAY_INVALID', pointer: '#/actions/1', message: /neither/ },
      ],
    },
  },
  {
    name: 'an action that is not a mapping, a target that is not a string: OVERLAY_INVALID at each',
    given: { document: spec(), actions: ['$.info', { target: 7, remove: true }] },
    want: { problems: [{ code: 'OVERLAY_INVALID', pointer: '#/actions/0' }, { code: 'OVERLAY_INVALID', pointer: '#/actions/1/target' }] },
  },
  {
    name: 'a $ref to a file or URL in an update: OVERLAY_INVALID at it (an overlay reads nothing)',
    given: {
      document: spec(),
      actions: [{ target: BODY, update: { schema: { $ref: '../../.ssh/id_rsa' }, examples: { a: { $ref: 'https://example.com/x.json' } } } }],
    },
    want: {
      problems: [
        { code: 'OVERLAY_INVALID', pointer: '#/actions/0/update/schema/$ref' },
        { code: 'OVERLAY_INVALID', pointer: '#/actions/0/update/examples/a/$ref' },
      ],
    },
  },
  // Actions that do not fit what they select.
  {
    name: 'a target that selects a string: OVERLAY_TARGET_INVALID (Overlay 1.0 acts on objects and arrays)',
    given: { document: spec(), actions: [{ target: '$.info.title', update: 'New' }] },
    want: { problems: [{ code: 'OVERLAY_TARGET_INVALID', pointer: '#/actions/0/target', message: /a string at #\/info\/title/ }] },
  },
  {
    name: 'a target that selects null, to remove it: OVERLAY_TARGET_INVALID',
    given: { document: spec(), actions: [{ target: `${BODY}.schema`, remove: true }] },
    want: { problems: [{ code: 'OVERLAY_TARGET_INVALID', message: /null at/ }] },
  },
  {
    name: 'an object target and an update that is not a mapping: OVERLAY_TARGET_INVALID',
    given: { document: spec(), actions: [{ target: '$.info', update: ['x'] }] },
    want: { problems: [{ code: 'OVERLAY_TARGET_INVALID', message: /must be a mapping/ }] },
  },
  {
    name: 'removing the whole document: OVERLAY_TARGET_INVALID',
    given: { document: spec(), actions: [{ target: '$', remove: true }] },
    want: { problems: [{ code: 'OVERLAY_TARGET_INVALID', message: /whole document/ }] },
  },
  {
    name: 'an error stops the overlay there: the warnings before it are kept, no action after it runs',
    given: {
      document: spec(),
      actions: [{ target: '$.nowhere', remove: true }, { target: '$.info.title', remove: true }, { target: '$.also.nowhere', remove: true }],
    },
    want: { problems: [{ code: 'OVERLAY_TARGET_UNMATCHED', severity: 'warning' }, { code: 'OVERLAY_TARGET_INVALID', pointer: '#/actions/1/target' }] },
  },
  {
    name: 'an update copied to more places than the texts could hold: OVERLAY_TOO_LARGE',
    given: {
      document: { list: Array.from({ length: 100 }, () => ({})) },
      actions: [{ target: '$.list[*]', update: Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, i])) }],
      maxValues: 1_000,
    },
    want: { problems: [{ code: 'OVERLAY_TOO_LARGE', pointer: '#/actions/0/target', message: /100 places/ }] },
  },
];

describe('applying an overlay', () => {
  test.each(CASES)('$name', ({ given, want }) => {
    const got = run(given);
    if (want.document !== undefined) expect(got.document).toEqual(want.document);
    if (want.problems !== undefined) {
      expect(got.problems).toHaveLength(want.problems.length);
      want.problems.forEach(({ message, ...rest }, i) => {
        expect(got.problems[i]).toMatchObject({ file: FILE, severity: 'error', ...rest });
        if (message) expect(got.problems[i]!.message).toMatch(message);
      });
    }
  });

  test('the document given is left as it was, and shares what the overlay did not touch', () => {
    const document = spec();
    const before = structuredClone(document);
    const overlay = readOverlay(
      overlayOf([
        { target: BODY, update: { schema: { type: 'object' } } },
        { target: `${PARAMETERS}[0]`, remove: true },
        { target: '$.tags', update: { name: 'x' } },
      ]),
      FILE,
    );
    if (Array.isArray(overlay)) throw new Error('expected an overlay');
    const { document: patched } = applyOverlay(document, overlay, 1_000_000) as { document: ReturnType<typeof spec> };
    expect(document).toEqual(before);
    expect(patched).not.toBe(document);
    expect(patched.paths['/notes'].post.responses).toBe(document.paths['/notes'].post.responses);
  });

  test('a key named __proto__ is data: merged as an own member, no prototype touched', () => {
    const update = JSON.parse('{"__proto__": {"polluted": true}, "info": {"__proto__": {"polluted": true}}}') as unknown;
    const { document } = run({ document: { info: {} }, actions: [{ target: '$', update }] }) as { document: Record<string, unknown> };
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(document)).toBe(Object.prototype);
    expect(Object.keys(document)).toEqual(['info', '__proto__']);
    expect(Object.keys(document.info as object)).toEqual(['__proto__']);
  });
});

describe('where a place of the patched document came from', () => {
  let applied: Overlaid;
  beforeAll(() => {
    applied = run({
      document: spec(),
      actions: [
        { target: `${PARAMETERS}[?@.name == 'a']`, remove: true },
        { target: BODY, update: { schema: { type: 'object', properties: { text: { type: 'string' } } } } },
        { target: PARAMETERS, update: [{ name: 'd', in: 'query' }] },
      ],
    }).result!;
  });

  test.each([
    ['an item after removed ones: its index in the document', ['paths', '/notes', 'post', 'parameters', '1', 'in'], { document: ['paths', '/notes', 'post', 'parameters', '3', 'in'] }],
    ['an item before them: unchanged', ['paths', '/notes', 'post', 'parameters', '0'], { document: ['paths', '/notes', 'post', 'parameters', '1'] }],
    ['an untouched place: unchanged', ['info', 'title'], { document: ['info', 'title'] }],
    [
      'inside a value an update put there: the update, in the overlay',
      ['paths', '/notes', 'post', 'requestBody', 'content', 'application/json', 'schema', 'properties', 'text', 'type'],
      { overlay: ['actions', '1', 'update', 'schema', 'properties', 'text', 'type'] },
    ],
    ['an item an update appended: its item in the overlay', ['paths', '/notes', 'post', 'parameters', '2', 'name'], { overlay: ['actions', '2', 'update', '0', 'name'] }],
  ])('%s', (_name, path, origin) => {
    expect(applied.origin(path)).toEqual(origin);
  });
});

describe('a hostile overlay', () => {
  /** An object nested `levels` deep: { a: { a: … {} } }. */
  const nested = (levels: number) => {
    let value: Record<string, unknown> = {};
    for (let i = 1; i < levels; i++) value = { a: value };
    return value;
  };

  test('updates that together nest the spec deeper than MAX_DEPTH: SPEC_TOO_DEEP at the update, no stack overflow', () => {
    const actions = Array.from({ length: 50 }, (_, i) => ({ target: '$' + '.a'.repeat(i * 200), update: { a: nested(200) } }));
    const got = run({ document: {}, actions });
    expect(got.problems).toEqual([
      expect.objectContaining({ code: 'SPEC_TOO_DEEP', file: FILE, pointer: '#/actions/1/update', message: expect.stringContaining(`${MAX_DEPTH} levels`) }),
    ]);
  });

  test('an overlay file nested too deep is refused as it is parsed, like a spec', () => {
    const text = `overlay: 1.0.0\ninfo: {title: t, version: '1'}\nactions:\n  - target: $\n    update: ${'['.repeat(100_000)}${']'.repeat(100_000)}\n`;
    const parsed = parseText(text, FILE);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.problem).toMatchObject({ code: 'SPEC_TOO_DEEP', file: FILE });
  });
});

describe('the overlays kept for real specs (test/fixtures/real)', () => {
  test.each(['directus.overlay.yaml', 'blockfrost.overlay.yaml'])('%s is an Overlay 1.0 document', (name) => {
    const file = join(FIXTURES, 'real', name);
    const parsed = parseText(readFileSync(file, 'utf8'), file);
    if (!parsed.ok) throw new Error(parsed.problem.message);
    const overlay = readOverlay(parsed.value, file);
    expect(Array.isArray(overlay) ? overlay : []).toEqual([]);
  });
});
