/**
 * The petstore API (examples/petstore/openapi.json), written by hand on
 * node:http: one flat resource, cursor paging, and — the spec declaring no
 * security — a Bearer token or an API key on every operation. Its own ids:
 * integers that grow by a step of 7 from 1000, never 1, 2, 3.
 */
import { Collection } from './collection.js';
import { EXAMPLE_BASE_PATH, exampleApi, listen, type RunningApi, type ServerInputs } from './http-kit.js';
import { resourceOperations } from './resources.js';
import type { Rule } from './schema-check.js';

const STATUS: Rule = { type: 'string', enum: ['available', 'pending', 'sold'] };
const TEXT: Rule = { type: 'string' };

export type PetstoreOptions = ServerInputs;

export function petstoreServer(options: PetstoreOptions) {
  const pets = new Collection({
    type: 'pets',
    shape: 'flat',
    paging: 'cursor',
    filters: { name: TEXT, tag: TEXT, status: STATUS },
    sortable: ['id', 'name', 'tag', 'status', 'created_at'],
    searchable: ['name', 'tag'],
    optional: ['tag'],
    createdRange: true,
    maxLimit: 100,
    defaultLimit: 20,
  });
  let lastId = 993;
  const operations = resourceOperations({
    collection: pets,
    listPath: '/pets',
    idParam: 'pet_id',
    idRule: { type: 'integer', minimum: 1 },
    methods: ['list', 'create', 'read', 'delete'],
    readScopes: [],
    writeScopes: [],
    input: {
      name: { rule: { type: 'string', minLength: 1, maxLength: 100 }, required: true },
      tag: { rule: { type: 'string', maxLength: 50 } },
      status: { rule: STATUS, required: true },
    },
    newId: () => (lastId += 7),
    updated: false,
  });
  return exampleApi(options, operations);
}

export function startPetstore(options: PetstoreOptions): Promise<RunningApi> {
  return listen(petstoreServer(options), EXAMPLE_BASE_PATH);
}
