/**
 * Bounds on what one input file may be, checked before anything recursive
 * or expensive touches it: a spec is untrusted input, and every stage after
 * load walks it recursively.
 */
import { diagnostic, toPointer, type Diagnostic } from '../diagnostics.js';

/**
 * Bytes read for one spec, all its files together. GitHub's description is
 * 13 MB; one of 50 MB (its paths eleven times over) loads and validates in
 * about 5 s and 0.5 GB. 256 MB is five times that, far above any real spec,
 * and still below V8's string limit (~512 M characters), past which reading
 * would fail with a stack trace.
 */
export const MAX_SPEC_BYTES = 256 * 1024 * 1024;

/**
 * Nesting depth of a document. GitHub's spec is 21 levels deep (29 fully
 * dereferenced); 256 leaves real specs far below it and every recursive
 * stage after load (ours, openapi-typescript, prettier, tsc on the output)
 * far below the stack's limit.
 */
export const MAX_DEPTH = 256;

/**
 * Values a document may expand to, per character of its text. A tree needs
 * at least one character per value; only YAML aliases share one value among
 * many places, and a fan-out of them (the "billion laughs") expands to far
 * more values than the text holds. Four per character allows any honest use.
 */
export const MAX_VALUES_PER_CHARACTER = 4;

/** The most values a document whose text has this many characters may hold (see MAX_VALUES_PER_CHARACTER). */
export function valueBudget(textLength: number): number {
  return MAX_VALUES_PER_CHARACTER * textLength + 1_000;
}

/** Where a walk stands: a linked path, built into a pointer only when a problem is found. */
interface Place {
  token: string;
  parent: Place | undefined;
}

function pathOf(place: Place | undefined): string[] {
  const tokens: string[] = [];
  for (let at = place; at; at = at.parent) tokens.push(at.token);
  return tokens.reverse();
}

/**
 * The first problem with a parsed document's shape: nested deeper than
 * MAX_DEPTH, a key holding a NUL character, or more values than the text
 * can hold without alias expansion. Iterative, and it stops at the first
 * problem, so it is linear in the text whatever the document is. A document
 * with no problem (nearly all) is walked once without keeping places; one
 * with a problem is walked again to name where it stands.
 */
export function shapeProblem(value: unknown, file: string, textLength: number): Diagnostic | undefined {
  const budget = valueBudget(textLength);
  if (shapeFault(value, budget, false) === undefined) return undefined;
  // The same walk in the same order: it stops at the same fault, now with its place.
  const { code, place, key } = shapeFault(value, budget, true)!;
  const pointer = toPointer(pathOf(place));
  switch (code) {
    case 'SPEC_ALIAS_EXPANSION':
      return diagnostic(code, `YAML aliases expand the document to more than ${budget} values (its text has ${textLength} characters)`, { file, pointer });
    case 'SPEC_TOO_DEEP':
      return diagnostic(code, `The document is nested more than ${MAX_DEPTH} levels deep here`, { file, pointer });
    case 'SPEC_NUL_CHARACTER':
      // Placed at the object that holds the key: a pointer with the NUL in it would print it.
      return diagnostic(code, `A key contains a NUL character (${JSON.stringify(key)})`, { file, pointer });
  }
}

interface ShapeFault {
  code: 'SPEC_ALIAS_EXPANSION' | 'SPEC_TOO_DEEP' | 'SPEC_NUL_CHARACTER';
  /** Where it stands; kept only when the walk was asked to keep places. */
  place: Place | undefined;
  key?: string;
}

/** The first fault in walking order; the same fault whether places are kept or not. */
function shapeFault(root: unknown, budget: number, keepPlaces: boolean): ShapeFault | undefined {
  // Parallel stacks, not an object per value: GitHub's spec has 1.6 million values.
  const values: unknown[] = [root];
  const depths: number[] = [0];
  const places: (Place | undefined)[] = [undefined];
  let count = 0;
  while (values.length > 0) {
    const node = values.pop();
    const depth = depths.pop()!;
    const place = keepPlaces ? places.pop() : undefined;
    if (++count > budget) return { code: 'SPEC_ALIAS_EXPANSION', place };
    if (typeof node !== 'object' || node === null) continue;
    if (depth >= MAX_DEPTH) return { code: 'SPEC_TOO_DEEP', place };
    for (const key of Object.keys(node)) {
      if (key.includes('\u0000')) return { code: 'SPEC_NUL_CHARACTER', place, key };
      values.push((node as Record<string, unknown>)[key]);
      depths.push(depth + 1);
      if (keepPlaces) places.push({ token: key, parent: place });
    }
  }
  return undefined;
}

/** A problem with the file's size, before it is read. */
export function sizeProblem(file: string, bytes: number, alreadyRead: number): Diagnostic | undefined {
  if (bytes + alreadyRead <= MAX_SPEC_BYTES) return undefined;
  const megabytes = (n: number) => `${Math.round(n / 1024 / 1024)} MB`;
  const total = alreadyRead > 0 ? ` (with the files read before it, ${megabytes(bytes + alreadyRead)})` : '';
  return diagnostic('SPEC_TOO_LARGE', `${file} is ${megabytes(bytes)}${total}; specforge reads at most ${megabytes(MAX_SPEC_BYTES)} per spec`, { file });
}
