/**
 * Singletons of the default store: one object per owner, with no id of its
 * own (`/settings` has one, `/repos/{owner}/{repo}/pages` one per repository).
 * It holds a value valid for its schema from the start, so its GET answers
 * before anyone writes it; a DELETE empties it (GET answers 404) until a PUT
 * fills it again. specforge created this file once; it is yours.
 */
import type { Singleton } from './collection.js';
import { keptOf, storable, type MemoryCollection } from './memory.js';

type Path = Record<string, unknown>;
type Value = Record<string, unknown>;

export interface SingletonOptions {
  /** The path parameters that name its owner, in path order (`owner`, `repo`). */
  scope?: string[];
  /** The owner's collection, when it has one: the singleton exists only under an existing owner. */
  parent?: MemoryCollection<unknown>;
  /** What it holds before it is first written: a value valid for its schema. */
  initial: Value | null;
  /**
   * What it holds where no write gave a value: the required fields of its
   * answers that a replace need not send, valid for their schema (GitHub's
   * `PUT …/actions/permissions/workflow` sends two of the four fields its GET requires).
   */
  defaults?: Value;
  /** Fields a write may name whose value it does not keep: it does not fit what is answered. */
  serverFields?: string[];
  /** Fields a write may set to null where answers require a value: it keeps what they held. */
  nonNullFields?: string[];
  updatedField?: string;
}

export class MemorySingleton<Item> implements Singleton<Item> {
  /** By owner; `null` once deleted. An owner not here holds the initial value. */
  private readonly values = new Map<string, Value | null>();

  constructor(private readonly options: SingletonOptions) {}

  get<Out = Item>(request: { path: object }): Out | undefined {
    return this.held<Out>(request.path as Path);
  }

  replace<Out = Item>(request: { path: object; body: unknown }): Out | undefined {
    return this.write<Out>(request.path as Path, () => ({
      ...this.options.defaults,
      ...keptOf(request.body as Value, this.options),
    }));
  }

  update<Out = Item>(request: { path: object; body: unknown }): Out | undefined {
    return this.write<Out>(request.path as Path, (value) =>
      value === null ? null : { ...value, ...keptOf(request.body as Value, this.options) },
    );
  }

  /** Empties it and answers what it held (for a DELETE whose spec returns it). */
  take<Out = Item>(request: { path: object }): Out | undefined {
    // Read and emptied in one step: two DELETEs at once cannot both answer the value.
    const held = this.held<Out>(request.path as Path);
    if (held !== undefined) this.values.set(this.ownerOf(request.path as Path)!, null);
    return held;
  }

  remove(request: { path: object }): boolean {
    return this.take(request) !== undefined;
  }

  private held<Out>(path: Path): Out | undefined {
    const owner = this.ownerOf(path);
    const value = owner === undefined ? null : this.current(owner);
    return value === null ? undefined : (storable(value) as Out);
  }

  private current(owner: string): Value | null {
    return this.values.has(owner) ? this.values.get(owner)! : this.options.initial;
  }

  /** Writes where the owner exists; an update of an emptied singleton finds nothing (404). */
  private write<Out>(path: Path, change: (value: Value | null) => Value | null): Out | undefined {
    const owner = this.ownerOf(path);
    if (owner === undefined) return undefined;
    const changed = change(this.current(owner));
    if (changed === null) return undefined;
    if (this.options.updatedField) changed[this.options.updatedField] = new Date().toISOString();
    const stored = storable(changed);
    this.values.set(owner, stored);
    return storable(stored) as Out;
  }

  /** The owner's key; undefined when the owner's item does not exist. */
  private ownerOf(path: Path): string | undefined {
    const scope = this.options.scope ?? [];
    const parent = this.options.parent;
    // The parent's paths may name the same ids differently: by position, as the collections do.
    const parentPath =
      parent &&
      Object.fromEntries(parent.itemParams.map((name, index) => [name, path[scope[index]!]]));
    if (parent && !parent.find(parentPath!)) return undefined;
    return scope.map((param) => String(path[param])).join('/');
  }
}
