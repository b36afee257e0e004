/**
 * The names the conventions' components are installed under. The user's
 * names are theirs: where the spec already holds a different component under
 * a name the conventions use (`Page`), the conventions' one goes under
 * `SpecforgePage`, else `SpecforgePage2`, `3`…; where it holds the very same
 * content, that name is reused, so merging a merged spec changes nothing.
 */
import { isObject, jsonEqual, type Reference } from '../openapi/document.js';

export type ComponentSection = 'schemas' | 'parameters' | 'headers' | 'responses' | 'securitySchemes';

/** Components by section and name, as `components` holds them. */
export type ComponentSections = Record<string, Record<string, unknown>>;

/** Where each of the conventions' components is installed. */
export interface ComponentNames {
  /** The name the conventions' component `name` has in the document. */
  name(section: ComponentSection, name: string): string;
  /** A `$ref` to it. */
  ref(section: ComponentSection, name: string): Reference;
}

const refTo = (section: string, name: string) => `#/components/${section}/${name}`;

function namesBy(installedName: (section: ComponentSection, name: string) => string): ComponentNames {
  return { name: installedName, ref: (section, name) => ({ $ref: refTo(section, installedName(section, name)) }) };
}

/** The names as the conventions write them, before they are installed anywhere. */
export const WRITTEN_NAMES: ComponentNames = namesBy((_section, name) => name);

/** `Page`, then `SpecforgePage`, `SpecforgePage2`, `SpecforgePage3`…: each a valid component key where `name` is one. */
function* candidates(name: string): Generator<string> {
  yield name;
  const namespaced = `Specforge${name.charAt(0).toUpperCase()}${name.slice(1)}`;
  yield namespaced;
  for (let n = 2; ; n++) yield `${namespaced}${n}`;
}

/** The first candidate for `name` that is free in `taken`, or holds a component that `fits`. */
export function freeName({ taken, name, fits }: { taken: Record<string, unknown> | undefined; name: string; fits: (existing: unknown) => boolean }): string {
  for (const candidate of candidates(name)) {
    if (taken === undefined || !Object.hasOwn(taken, candidate) || fits(taken[candidate])) return candidate;
  }
  throw new Error('unreachable: the candidates never end');
}

interface Wanted {
  section: string;
  name: string;
  content: unknown;
}

/**
 * Names every component in `wanted` (the conventions', their `$ref`s to each
 * other written with the plain names) against the document's `components`,
 * and gives each content with those `$ref`s pointed at the installed names.
 * A component is named after the ones it refers to, since its content, and
 * so whether it matches what the document holds, depends on their names.
 */
export function resolveComponentNames({ components, wanted }: { components: ComponentSections; wanted: ComponentSections }): {
  names: ComponentNames;
  installed: ComponentSections;
} {
  const all: Wanted[] = Object.entries(wanted).flatMap(([section, entries]) =>
    Object.entries(entries).map(([name, content]) => ({ section, name, content })),
  );
  const own = new Set(all.map(({ section, name }) => refTo(section, name)));
  /** Plain `$ref` → installed `$ref`. */
  const installedRefs = new Map<string, string>();
  let pending = all;
  while (pending.length > 0) {
    const ready = pending.filter(({ content }) => refsIn(content).every((ref) => !own.has(ref) || installedRefs.has(ref)));
    if (ready.length === 0) throw new Error("the conventions' components refer to each other in a cycle");
    for (const { section, name, content } of ready) {
      const value = pointed(content, installedRefs);
      const installed = freeName({ taken: components[section], name, fits: (existing) => jsonEqual(existing, value) });
      installedRefs.set(refTo(section, name), refTo(section, installed));
    }
    pending = pending.filter((entry) => !ready.includes(entry));
  }
  const installedName = (section: string, name: string) => {
    const found = installedRefs.get(refTo(section, name));
    if (found === undefined) throw new Error(`the conventions have no components.${section}.${name}`);
    return found.slice(refTo(section, '').length);
  };
  const installed = Object.fromEntries(
    Object.entries(wanted).map(([section, entries]) => [
      section,
      Object.fromEntries(Object.entries(entries).map(([name, content]) => [installedName(section, name), pointed(content, installedRefs)])),
    ]),
  );
  return { names: namesBy(installedName), installed };
}

function refsIn(node: unknown): string[] {
  if (Array.isArray(node)) return node.flatMap(refsIn);
  if (!isObject(node)) return [];
  return Object.entries(node).flatMap(([key, value]) => (key === '$ref' && typeof value === 'string' ? [value] : refsIn(value)));
}

/** A copy of `node` whose `$ref`s to the conventions' components point where they are installed. */
function pointed(node: unknown, installedRefs: ReadonlyMap<string, string>): unknown {
  if (Array.isArray(node)) return node.map((item) => pointed(item, installedRefs));
  if (!isObject(node)) return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => [
      key,
      (key === '$ref' && typeof value === 'string' && installedRefs.get(value)) || pointed(value, installedRefs),
    ]),
  );
}
