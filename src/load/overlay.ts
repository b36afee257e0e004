/**
 * OpenAPI Overlays (OAI Overlay Specification 1.0): a file of actions that
 * patch a spec before it is validated, so that a third-party spec with a
 * known fault can be generated from without editing it. Each action's
 * `target` is an RFC 9535 JSONPath; `update` is merged into every object it
 * selects (or appended to every array), `remove: true` deletes every node it
 * selects from its parent. Actions apply in order, each to the result of the
 * one before.
 *
 * An overlay is untrusted input, as a spec is. It was read like one (size,
 * UTF-8, NUL, depth and alias checks: sources.ts); it reads nothing itself (a
 * `$ref` in an update may only point into the document); and applying it may
 * neither nest the document deeper than MAX_DEPTH nor grow it past the
 * values its texts could hold. Nothing here recurses on the document or the
 * overlay, and the document given is never changed: each container on the
 * way to a change is copied first.
 */
import { exec } from 'jsonpath-rfc9535';
import parseJsonPath from 'jsonpath-rfc9535/parser';
import { diagnostic, toPointer, type Diagnostic } from '../diagnostics.js';
import { isObject, visitRefs, type JsonObject } from '../openapi/document.js';
import { closest } from '../suggest.js';
import { MAX_DEPTH } from './limits.js';
import { refKind } from './ref-root.js';

type Token = string | number;
type Container = JsonObject | unknown[];

export interface OverlayAction {
  /** Its place in `actions`, for diagnostics. */
  index: number;
  target: string;
  remove: boolean;
  /** The value to merge or append; undefined when the action has none (a remove). */
  update: unknown;
}

export interface Overlay {
  file: string;
  actions: OverlayAction[];
}

/** Where a place in the patched document came from: the overlay (an update), or the document it was applied to. */
export type Origin = { overlay: string[] } | { document: string[] };

export interface Overlaid {
  document: unknown;
  /** A warning for each target that selected nothing; and the error that stopped it, if one did (the last). */
  problems: Diagnostic[];
  origin(tokens: readonly string[]): Origin;
}

const FIELDS = {
  overlay: ['overlay', 'info', 'extends', 'actions'],
  info: ['title', 'version'],
  action: ['target', 'description', 'update', 'remove'],
};

/**
 * The actions of an overlay document, or every way it is not one: unknown
 * or missing fields, a target that is not a JSONPath, an action that does
 * nothing, a `$ref` that names a file or URL. Each problem is
 * OVERLAY_INVALID at its pointer in the overlay file.
 */
export function readOverlay(value: unknown, file: string): Overlay | Diagnostic[] {
  const problems: Diagnostic[] = [];
  const problem = (path: readonly Token[], message: string, hint?: string) =>
    problems.push(diagnostic('OVERLAY_INVALID', message, { file, pointer: toPointer(path) }, hint === undefined ? {} : { hint }));
  if (!isObject(value)) {
    problem([], `The overlay is ${Array.isArray(value) ? 'a list' : value === null ? 'empty' : `a ${typeof value}`}, not a mapping`);
    return problems;
  }
  unknownFields(value, FIELDS.overlay, [], problem);
  if (typeof value.overlay !== 'string' || !/^1\.0\.\d+$/.test(value.overlay)) {
    const found = value.overlay === undefined ? 'no `overlay` field' : `overlay: ${JSON.stringify(value.overlay)}`;
    problem(['overlay'], `Expected \`overlay: 1.0.0\` (specforge applies Overlay 1.0 documents), found ${found}`);
  }
  if (!isObject(value.info)) problem(['info'], 'The overlay has no `info` mapping (with its `title` and `version`)');
  else {
    unknownFields(value.info, FIELDS.info, ['info'], problem);
    for (const key of FIELDS.info) if (typeof value.info[key] !== 'string') problem(['info', key], `info.${key} must be a string`);
  }
  if (value.extends !== undefined && typeof value.extends !== 'string') problem(['extends'], '`extends` must be a string');
  if (!Array.isArray(value.actions) || value.actions.length === 0) {
    problem(['actions'], value.actions === undefined ? 'The overlay has no `actions`' : '`actions` must be a list of at least one action');
    return problems;
  }
  const actions = value.actions.map((action, index) => readAction(action, index, problem));
  return problems.length > 0 ? problems : { file, actions };
}

type Problem = (path: readonly Token[], message: string, hint?: string) => void;

function readAction(action: unknown, index: number, problem: Problem): OverlayAction {
  const at = (...path: Token[]) => ['actions', index, ...path];
  const read = { index, target: '', remove: false, update: undefined as unknown };
  if (!isObject(action)) {
    problem(at(), `actions[${index}] is not a mapping with a \`target\` and an \`update\` or \`remove\``);
    return read;
  }
  unknownFields(action, FIELDS.action, at(), problem);
  if (typeof action.target !== 'string') problem(at('target'), action.target === undefined ? `actions[${index}] has no \`target\`` : '`target` must be a string');
  else {
    read.target = action.target;
    const syntax = jsonPathProblem(action.target);
    if (syntax) problem(at('target'), `target ${JSON.stringify(action.target)} is not an RFC 9535 JSONPath: ${syntax}`);
  }
  if (action.description !== undefined && typeof action.description !== 'string') problem(at('description'), '`description` must be a string');
  if (action.remove !== undefined && typeof action.remove !== 'boolean') problem(at('remove'), '`remove` must be true or false');
  read.remove = action.remove === true;
  read.update = action.update;
  if (!read.remove && action.update === undefined) {
    problem(at(), `actions[${index}] does nothing: it has neither an \`update\` nor \`remove: true\``);
  }
  if (!read.remove) {
    visitRefs(action.update, ({ $ref }, path) => {
      if (refKind($ref) === 'local') return;
      problem(
        at('update', ...path, '$ref'),
        `$ref "${$ref}" names a file or URL; an overlay reads none`,
        'Point the $ref into the spec ("#/components/schemas/…"), or put the value itself in the update.',
      );
    });
  }
  return read;
}

/** Fields the Overlay specification does not define (extensions, `x-…`, aside), each with a did-you-mean. */
function unknownFields(object: JsonObject, known: readonly string[], path: readonly Token[], problem: Problem): void {
  for (const key of Object.keys(object)) {
    if (known.includes(key) || key.startsWith('x-')) continue;
    const guess = closest(key, known);
    problem([...path, key], `Unknown field "${key}"${guess ? ` (did you mean "${guess}"?)` : ''}`, `Known fields here: ${known.join(', ')}, and extensions (x-…).`);
  }
}

/** Why a JSONPath does not parse, with the character where it fails; undefined when it does parse. */
function jsonPathProblem(expression: string): string | undefined {
  try {
    parseJsonPath(expression);
    return undefined;
  } catch (error) {
    if (isStackOverflow(error)) return 'it is nested too deep to parse';
    const { message, location } = error as { message?: string; location?: { start?: { column?: number } } };
    const column = location?.start?.column;
    return `${message ?? String(error)}${column === undefined ? '' : ` (at character ${column})`}`;
  }
}

function isStackOverflow(error: unknown): boolean {
  return error instanceof RangeError && /call stack/i.test(error.message);
}

/**
 * Applies the actions in order to a copy of `document` (shared where nothing
 * changed). Stops at the first action that cannot apply; a target that
 * selects nothing is a warning and the run goes on. `maxValues` bounds the
 * values all updates together may add.
 */
export function applyOverlay(document: unknown, overlay: Overlay, maxValues: number): Overlaid {
  const draft = new Draft(document);
  const problems: Diagnostic[] = [];
  let added = 0;
  for (const action of overlay.actions) {
    const at = (field: 'target' | 'update') => ({ file: overlay.file, pointer: toPointer(['actions', action.index, field]) });
    const selected = select(draft.root, action.target);
    if (typeof selected === 'string') {
      problems.push(diagnostic('OVERLAY_INVALID', `target ${JSON.stringify(action.target)} cannot be applied: ${selected}`, at('target')));
      break;
    }
    if (selected.length === 0) {
      problems.push(
        diagnostic('OVERLAY_TARGET_UNMATCHED', `actions[${action.index}]: target ${JSON.stringify(action.target)} selects nothing in the spec`, at('target'), {
          severity: 'warning',
        }),
      );
      continue;
    }
    const refused = refusal(draft, action, selected);
    if (refused) {
      problems.push(diagnostic('OVERLAY_TARGET_INVALID', refused, at('target')));
      break;
    }
    if (action.remove) {
      draft.removeAll(selected);
      continue;
    }
    const { values, height } = extentOf(action.update);
    const tooDeep = selected.find((path) => path.length + 1 + height > MAX_DEPTH);
    if (tooDeep) {
      problems.push(
        diagnostic('SPEC_TOO_DEEP', `Merged at ${toPointer(tooDeep)}, this update would nest the spec more than ${MAX_DEPTH} levels deep`, at('update'), {
          hint: 'Nest the update less deep, or target a place nearer the root of the spec.',
        }),
      );
      break;
    }
    added += values * selected.length;
    if (added > maxValues) {
      problems.push(
        diagnostic('OVERLAY_TOO_LARGE', `With this action the overlay adds more than ${maxValues} values to the spec (this update, ${values} values, goes to ${selected.length} places)`, at('target')),
      );
      break;
    }
    for (const path of selected) draft.update(path, action.update, ['actions', String(action.index), 'update']);
  }
  const edits = draft.edits;
  return { document: draft.root, problems, origin: (tokens) => originOf(edits, tokens) };
}

/** The distinct places `expression` selects, in the order the JSONPath gives them; or why it cannot run. */
function select(document: unknown, expression: string): Token[][] | string {
  const found = new Map<string, Token[]>();
  try {
    exec(document as never, expression, (_value, path) => {
      const tokens = path.map((token) => (typeof token === 'number' ? token : unescapeKey(token)));
      found.set(JSON.stringify(tokens), tokens);
    });
  } catch (error) {
    // It parsed: whatever stops its evaluation comes from the expression, not from us.
    return isStackOverflow(error) ? 'it is nested too deep to evaluate' : String((error as Error)?.message ?? error);
  }
  return [...found.values()];
}

/** A member name as the JSONPath library reports it (escaped as in a normalized path, RFC 9535 §2.7), as it is in the document. */
function unescapeKey(key: string): string {
  const escapes: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', "'": "'", '\\': '\\' };
  return key.replace(/\\(u[0-9a-fA-F]{4}|.)/g, (_, escaped: string) =>
    escaped.length > 1 ? String.fromCharCode(parseInt(escaped.slice(1), 16)) : (escapes[escaped] ?? escaped),
  );
}

/** Why the action cannot apply to what it selected (Overlay 1.0: objects and arrays only), if it cannot. */
function refusal(draft: Draft, action: OverlayAction, selected: readonly Token[][]): string | undefined {
  const nodes = selected.map((path) => ({ path, node: draft.at(path) }));
  const primitive = nodes.filter(({ node }) => !isContainer(node));
  if (primitive.length > 0) {
    const { path, node } = primitive[0]!;
    const more = primitive.length > 1 ? ` (and ${primitive.length - 1} more)` : '';
    return `target selects ${kindOf(node)} at ${toPointer(path)}${more}; an overlay action applies to objects and arrays only`;
  }
  if (action.remove) {
    return selected.some((path) => path.length === 0) ? 'target selects the whole document, which cannot be removed' : undefined;
  }
  const object = nodes.find(({ node }) => isObject(node));
  if (object && !isObject(action.update)) {
    return `target selects an object at ${toPointer(object.path)}, so \`update\` must be a mapping to merge into it, not ${kindOf(action.update)}`;
  }
  return undefined;
}

function isContainer(value: unknown): value is Container {
  return typeof value === 'object' && value !== null;
}

function kindOf(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'a list' : typeof value === 'object' ? 'a mapping' : `a ${typeof value}`;
}

/** How many values a tree holds, and how many levels of containers (0 for a scalar); iterative. */
function extentOf(value: unknown): { values: number; height: number } {
  let values = 0;
  let height = 0;
  const pending: { node: unknown; depth: number }[] = [{ node: value, depth: 0 }];
  while (pending.length > 0) {
    const { node, depth } = pending.pop()!;
    values++;
    if (!isContainer(node)) continue;
    height = Math.max(height, depth + 1);
    for (const child of Object.values(node)) pending.push({ node: child, depth: depth + 1 });
  }
  return { values, height };
}

/** A change that moved paths: a value the overlay put at `at` (from `from` in the overlay), or an array item it removed. */
type Edit = { inserted: string[]; from: string[] } | { removedFrom: string[]; index: number };

/**
 * The patched document, copied on write: a container is copied (shallowly)
 * the first time a change passes through it, so the document given, and
 * everything the overlay did not touch, is shared and never changed.
 */
class Draft {
  root: unknown;
  readonly edits: Edit[] = [];
  private readonly own = new WeakSet<object>();

  constructor(root: unknown) {
    this.root = root;
  }

  at(path: readonly Token[]): unknown {
    let node = this.root;
    for (const token of path) {
      if (!isContainer(node) || !Object.hasOwn(node, token)) return undefined;
      node = (node as JsonObject)[token];
    }
    return node;
  }

  /** Removes every selected node, the last first: an item removed never shifts one still to remove. */
  removeAll(selected: readonly Token[][]): void {
    // A node inside another that goes is gone with it. In this order what a node holds follows it at once.
    const outermost: Token[][] = [];
    for (const path of [...selected].sort(byDocumentOrder)) {
      const last = outermost[outermost.length - 1];
      if (!last || last.length >= path.length || !last.every((token, i) => path[i] === token)) outermost.push(path);
    }
    for (const path of outermost.reverse()) {
      const parent = this.writable(path.slice(0, -1));
      const last = path[path.length - 1]!;
      if (Array.isArray(parent)) {
        parent.splice(Number(last), 1);
        this.edits.push({ removedFrom: path.slice(0, -1).map(String), index: Number(last) });
      } else if (parent) {
        delete parent[last];
      }
    }
  }

  /**
   * Merges `update` into the object at `path`, or appends it to the array
   * there (its items, if it is an array). In a merge, objects merge, arrays
   * are concatenated and any other value replaces the spec's (Overlay 1.0
   * leaves a clash of kinds open; replacing is what lets `schema: null` be
   * fixed at all).
   */
  update(path: readonly Token[], update: unknown, from: string[]): void {
    const target = this.writable(path);
    if (Array.isArray(target)) return this.append(target, update, path.map(String), from);
    if (!target || !isObject(update)) return; // replaced by an earlier place the same action selected
    const pending = [{ target, update, at: path.map(String), from }];
    while (pending.length > 0) {
      const { target: into, update: merged, at, from: source } = pending.pop()!;
      for (const [key, value] of Object.entries(merged)) {
        const current = Object.hasOwn(into, key) ? into[key] : undefined;
        const next = { at: [...at, key], from: [...source, key] };
        if (isObject(current) && isObject(value)) {
          pending.push({ target: this.owned(into, key, current) as JsonObject, update: value, ...next });
        } else if (Array.isArray(current) && Array.isArray(value)) {
          this.append(this.owned(into, key, current) as unknown[], value, next.at, next.from);
        } else {
          setMember(into, key, copyOf(value));
          this.edits.push({ inserted: next.at, from: next.from });
        }
      }
    }
  }

  private append(array: unknown[], update: unknown, at: string[], from: string[]): void {
    const items = Array.isArray(update) ? update.map((item, k) => ({ item, from: [...from, String(k)] })) : [{ item: update, from }];
    for (const { item, from: source } of items) {
      this.edits.push({ inserted: [...at, String(array.length)], from: source });
      array.push(copyOf(item));
    }
  }

  /** The container at `path`, and each one above it, made this draft's own; undefined where the path leaves the document. */
  private writable(path: readonly Token[]): Container | undefined {
    if (!isContainer(this.root)) return undefined;
    if (!this.own.has(this.root)) this.root = this.copy(this.root);
    let node = this.root as Container;
    for (const token of path) {
      const child = Object.hasOwn(node, token) ? (node as JsonObject)[token] : undefined;
      if (!isContainer(child)) return undefined;
      node = this.owned(node, token, child);
    }
    return node;
  }

  /** `child`, held by `parent` under `key`, made this draft's own (copied into its place the first time). */
  private owned(parent: Container, key: Token, child: Container): Container {
    if (this.own.has(child)) return child;
    const copy = this.copy(child);
    setMember(parent, key, copy);
    return copy;
  }

  private copy(container: Container): Container {
    const copy = Array.isArray(container) ? [...container] : { ...container };
    this.own.add(copy);
    return copy;
  }
}

/**
 * A copy of a value from the overlay, to be put in the document: a tree of
 * plain objects and arrays (a YAML alias becomes a copy of what it names,
 * within the bound on values). Iterative.
 */
function copyOf(value: unknown): unknown {
  const empty = (like: Container): Container => (Array.isArray(like) ? [] : {});
  if (!isContainer(value)) return value;
  const root = empty(value);
  const pending: [Container, Container][] = [[value, root]];
  while (pending.length > 0) {
    const [from, to] = pending.pop()!;
    for (const [key, child] of Object.entries(from)) {
      const copy = isContainer(child) ? empty(child) : child;
      if (Array.isArray(to)) to.push(copy);
      else setMember(to, key, copy);
      if (isContainer(copy)) pending.push([child as Container, copy]);
    }
  }
  return root;
}

/** Sets a member as data, whatever its name: `__proto__` from a spec is a key like any other. */
function setMember(container: Container, key: Token, value: unknown): void {
  Object.defineProperty(container, key, { value, writable: true, enumerable: true, configurable: true });
}

/**
 * Paths in document order where it matters (array items by index), an
 * ancestor right before what it holds (members of an object by name).
 */
function byDocumentOrder(a: readonly Token[], b: readonly Token[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const [x, y] = [a[i]!, b[i]!];
    if (x === y) continue;
    if (typeof x === 'number' && typeof y === 'number') return x - y;
    return String(x) < String(y) ? -1 : 1;
  }
  return a.length - b.length;
}

/** Follows a path of the patched document back through the edits, the last first, to where it came from. */
function originOf(edits: readonly Edit[], path: readonly string[]): Origin {
  let tokens = [...path];
  const startsWith = (prefix: readonly string[]) => prefix.length <= tokens.length && prefix.every((token, i) => tokens[i] === token);
  for (let i = edits.length - 1; i >= 0; i--) {
    const edit = edits[i]!;
    if ('inserted' in edit) {
      if (startsWith(edit.inserted)) return { overlay: [...edit.from, ...tokens.slice(edit.inserted.length)] };
    } else if (tokens.length > edit.removedFrom.length && startsWith(edit.removedFrom)) {
      const index = Number(tokens[edit.removedFrom.length]);
      if (index >= edit.index) tokens = [...edit.removedFrom, String(index + 1), ...tokens.slice(edit.removedFrom.length + 1)];
    }
  }
  return { document: tokens };
}
