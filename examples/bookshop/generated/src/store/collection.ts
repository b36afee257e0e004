/**
 * What the default handlers ask of a store, whichever keeps the items: the
 * database (./sql.ts, the default) or this process's memory (./memory.ts,
 * STORE=memory, for mocks and tests). Each method may be asked for another
 * item type (`Out`, inferred from the handler it serves). specforge created
 * this file once; it is yours.
 */
import type { Awaitable } from '../generated/conventions/operation.js';
import type { ListQuery, Position } from '../generated/conventions/paging.js';

/** A page of a list: `next` continues a cursor walk, `total` counts across all pages. */
export interface ListPage<Out> {
  items: Out[];
  next?: Position;
  total: number;
}

/**
 * A resource's items. Undefined answers mean: no such item, or no such parent
 * (404). A store answers at once where it can (the memory store) or with a
 * promise (the database's): `await` takes either.
 */
export interface Collection<Item> {
  list<Out = Item>(request: {
    path: object;
    list: ListQuery;
  }): Awaitable<ListPage<Out> | undefined>;
  get<Out = Item>(request: { path: object }): Awaitable<Out | undefined>;
  create<Out = Item>(request: { path: object; body: unknown }): Awaitable<Out | undefined>;
  replace<Out = Item>(request: { path: object; body: unknown }): Awaitable<Out | undefined>;
  update<Out = Item>(request: { path: object; body: unknown }): Awaitable<Out | undefined>;
  /** Deletes the item and answers it (for a DELETE whose spec returns the deleted resource). */
  take<Out = Item>(request: { path: object }): Awaitable<Out | undefined>;
  remove(request: { path: object }): Awaitable<boolean>;
}

/** A resource with one object per owner and no id of its own (`/settings`). */
export interface Singleton<Item> {
  get<Out = Item>(request: { path: object }): Awaitable<Out | undefined>;
  replace<Out = Item>(request: { path: object; body: unknown }): Awaitable<Out | undefined>;
  update<Out = Item>(request: { path: object; body: unknown }): Awaitable<Out | undefined>;
  take<Out = Item>(request: { path: object }): Awaitable<Out | undefined>;
  remove(request: { path: object }): Awaitable<boolean>;
}
