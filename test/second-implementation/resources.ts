/**
 * The operations of one resource of the second implementation, on its
 * collection: list, create, read, replace (PUT), update (PATCH), delete,
 * each only where the API declares it.
 */
import { Collection, type Row, type Value } from './collection.js';
import { notFound, type Call, type Operation, type Reply } from './http-kit.js';
import type { Field, Rule } from './schema-check.js';

export type Method = 'list' | 'create' | 'read' | 'replace' | 'update' | 'delete';

export interface ResourceRoutes {
  collection: Collection;
  /** `/authors/{author_id}/books` */
  listPath: string;
  idParam: string;
  idRule: Rule;
  methods: Method[];
  /** The parent item a path names, and the field of the child that holds its id. */
  parent?: { param: string; rule: Rule; field: string; exists(id: string): boolean };
  /** Scopes needed to read and to write; 'public' for none and no credential. */
  readScopes: 'public' | string[];
  writeScopes: 'public' | string[];
  input: Record<string, Field>;
  newId(): string | number;
  /** Whether items carry an `updated_at`. */
  updated: boolean;
  /** Done after an item is deleted (children go with their parent). */
  afterDelete?(id: string): void;
  breaks?: { overlap?: boolean };
}

const now = () => new Date().toISOString();

export function resourceOperations(routes: ResourceRoutes): Operation[] {
  const { collection, parent, idParam } = routes;
  const itemPath = `${routes.listPath}/{${idParam}}`;
  const listParams = parent ? { [parent.param]: parent.rule } : {};
  const itemParams = { ...listParams, [idParam]: routes.idRule };

  /** The parent must exist; its id is what the child holds. */
  const parentOf = (call: Call): Record<string, Value> => {
    if (!parent) return {};
    const id = call.params[parent.param]!;
    if (!parent.exists(id)) throw notFound(`parent item ${id}`);
    return { [parent.field]: id };
  };
  const itemOf = (call: Call): Row => {
    const scope = parentOf(call);
    const row = collection.get(call.params[idParam]!);
    if (!row || Object.entries(scope).some(([field, id]) => row[field] !== id)) throw notFound(`item ${call.params[idParam]}`);
    return row;
  };
  const shown = (row: Row, status: 200 | 201, fields?: string | null): Reply => ({
    status,
    data: collection.show(row, fields),
    ...(routes.updated ? { lastModified: String(row.updated_at) } : {}),
  });
  const stamped = (row: Row, created: Value) => ({ ...row, created_at: created, ...(routes.updated ? { updated_at: now() } : {}) });

  /** A write to an item: the body as `merged` reads it over the item before, stored with its creation stamp. */
  const write = (method: 'PUT' | 'PATCH', partial: boolean, merged: (before: Row, call: Call) => Row): Operation => ({
    method,
    path: itemPath,
    params: itemParams,
    security: routes.writeScopes,
    body: { fields: routes.input, partial },
    handle(call) {
      const before = itemOf(call);
      return shown(collection.put(stamped(merged(before, call), before.created_at)), 200);
    },
  });

  const all: Record<Method, Operation> = {
    list: {
      method: 'GET',
      path: routes.listPath,
      params: listParams,
      security: routes.readScopes,
      handle(call) {
        const scope = parentOf(call);
        const listed = collection.list(call.query, (row) => Object.entries(scope).every(([field, id]) => row[field] === id), routes.breaks);
        return { status: 200, ...listed };
      },
    },
    create: {
      method: 'POST',
      path: routes.listPath,
      params: listParams,
      security: routes.writeScopes,
      body: { fields: routes.input, partial: false },
      handle(call) {
        const row = stamped({ id: routes.newId(), ...parentOf(call), ...(call.body as Row) }, now());
        return shown(collection.put(row), 201);
      },
    },
    read: {
      method: 'GET',
      path: itemPath,
      params: itemParams,
      security: routes.readScopes,
      handle: (call) => shown(itemOf(call), 200, call.query.get('fields')),
    },
    // A PUT takes the body as the whole item (its id and parents kept); a PATCH merges it in.
    replace: write('PUT', false, (before, call) => ({ id: before.id, ...parentOf(call), ...(call.body as Row) })),
    update: write('PATCH', true, (before, call) => ({ ...before, ...(call.body as Row) })),
    delete: {
      method: 'DELETE',
      path: itemPath,
      params: itemParams,
      security: routes.writeScopes,
      handle(call) {
        const row = itemOf(call);
        collection.remove(String(row.id));
        routes.afterDelete?.(String(row.id));
        return { status: 204 };
      },
    },
  };
  return routes.methods.map((method) => all[method]);
}
