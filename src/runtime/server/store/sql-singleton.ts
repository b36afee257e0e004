/**
 * Singletons of the default store: one object per owner, with no id of its
 * own (`/settings` has one, `/repos/{owner}/{repo}/pages` one per
 * repository), kept as a JSON value in a row per owner. It holds a value
 * valid for its schema from the start, so its GET answers before anyone
 * writes it; a DELETE empties it (GET answers 404) until a PUT fills it again.
 * specforge created this file once; it is yours.
 */
import type { Singleton } from './collection.js';
import type { Database } from './database.js';
import { keptOf, storable } from './memory.js';
import type { SingletonOptions } from './singleton.js';
import type { SqlCollection } from './sql.js';
import { identifier, run, sql } from './statement.js';

type Path = Record<string, unknown>;
type Value = Record<string, unknown>;

export interface SqlSingletonOptions extends Omit<SingletonOptions, 'parent'> {
  /** Its table: a row per owner (`_owner`), its value in `value` (null once deleted). */
  table: string;
  parent?: SqlCollection<unknown>;
}

export class SqlSingleton<Item> implements Singleton<Item> {
  constructor(
    private readonly database: () => Promise<Database>,
    private readonly options: SqlSingletonOptions,
  ) {}

  async get<Out = Item>(request: { path: object }): Promise<Out | undefined> {
    const owner = await this.ownerOf(request.path as Path);
    const value = owner === undefined ? null : await this.current(owner);
    return value === null ? undefined : (value as Out);
  }

  async replace<Out = Item>(request: { path: object; body: unknown }): Promise<Out | undefined> {
    return this.write<Out>(request.path as Path, () => ({
      ...this.options.defaults,
      ...keptOf(request.body as Value, this.options),
    }));
  }

  async update<Out = Item>(request: { path: object; body: unknown }): Promise<Out | undefined> {
    return this.write<Out>(request.path as Path, (value) =>
      value === null ? null : { ...value, ...keptOf(request.body as Value, this.options) },
    );
  }

  /** Empties it and answers what it held (for a DELETE whose spec returns it). */
  async take<Out = Item>(request: { path: object }): Promise<Out | undefined> {
    const owner = await this.ownerOf(request.path as Path);
    const held = owner === undefined ? null : await this.current(owner);
    if (held === null) return undefined;
    await this.store(owner!, null);
    return held as Out;
  }

  async remove(request: { path: object }): Promise<boolean> {
    return (await this.take(request)) !== undefined;
  }

  private async current(owner: string): Promise<Value | null> {
    const db = await this.database();
    const found = await run<{ value: unknown }>(
      db,
      sql`select value from ${identifier(this.options.table)} where _owner = ${owner}`,
    );
    const row = found.rows[0];
    if (!row) return this.options.initial;
    return (typeof row.value === 'string' ? JSON.parse(row.value) : row.value) as Value | null;
  }

  /** Writes where the owner exists; an update of an emptied singleton finds nothing (404). */
  private async write<Out>(
    path: Path,
    change: (value: Value | null) => Value | null,
  ): Promise<Out | undefined> {
    const owner = await this.ownerOf(path);
    if (owner === undefined) return undefined;
    const changed = change(await this.current(owner));
    if (changed === null) return undefined;
    if (this.options.updatedField) changed[this.options.updatedField] = new Date().toISOString();
    const stored = storable(changed);
    await this.store(owner, stored);
    return stored as Out;
  }

  private async store(owner: string, value: Value | null): Promise<void> {
    const db = await this.database();
    const text = value === null ? null : JSON.stringify(value);
    await run(
      db,
      sql`insert into ${identifier(this.options.table)} (_owner, value) values (${owner}, ${text}) on conflict (_owner) do update set value = excluded.value`,
    );
  }

  /** The owner's key; undefined when the owner's item does not exist. */
  private async ownerOf(path: Path): Promise<string | undefined> {
    const scope = this.options.scope ?? [];
    const parent = this.options.parent;
    // The parent's paths may name the same ids differently: by position, as the collections do.
    const parentPath =
      parent &&
      Object.fromEntries(parent.itemParams.map((name, index) => [name, path[scope[index]!]]));
    if (parent && !(await parent.find(parentPath!))) return undefined;
    const key = scope.map((param) => String(path[param])).join('/');
    // Text columns hold no NUL: no owner is named by one.
    return key.includes('\0') ? undefined : key;
  }
}
