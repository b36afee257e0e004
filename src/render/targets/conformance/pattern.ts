/**
 * Strings that match a schema's `pattern`, for the suite's data (a path
 * parameter such as `^sha256:[a-f0-9]{64}$`, a base64 body field). randexp
 * builds them from the pattern; its every choice comes from a seeded
 * generator, so a pattern gives the same string on every run. A pattern it
 * cannot follow (lookarounds, back-references, Unicode classes) gives none,
 * never a string that breaks it: each one is checked against the pattern as
 * the service's validator reads it.
 */
import randexp from 'randexp';

/** The module's class: its typings say `export default`, its CommonJS code exports the class itself. */
const RandExp = ((randexp as unknown as { default?: typeof randexp }).default ?? randexp) as unknown as typeof randexp.default;

/** Bounds the string must also keep (`minLength`, `maxLength`). */
export interface Bounds {
  min?: number;
  max?: number;
}

/** Tries per pattern: one random walk can miss the bounds another meets. */
const ATTEMPTS = 24;

/** The most times an open repetition (`*`, `+`, `{2,}`) repeats: short strings, still free to meet a `minLength`. */
const OPEN_REPEAT = 12;

/** A string that matches `pattern` and keeps the bounds; `seed` picks another such string. None where the pattern defeats the generator. */
export function patternSample(pattern: string, bounds: Bounds = {}, seed = 0): string | undefined {
  const regex = compiled(pattern);
  if (!regex) return undefined;
  const min = bounds.min ?? 0;
  const max = bounds.max ?? Infinity;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const value = generated(pattern, seed * ATTEMPTS + attempt);
    if (value !== undefined && regex.test(value) && value.length >= min && value.length <= max) return value;
  }
  return undefined;
}

function generated(pattern: string, seed: number): string | undefined {
  try {
    const generator = new RandExp(pattern);
    generator.max = OPEN_REPEAT;
    const next = seeded(seed);
    generator.randInt = (low: number, high: number) => low + Math.floor(next() * (high - low + 1));
    return generator.gen();
  } catch {
    return undefined;
  }
}

/** Whether the value matches the pattern as the service's validator reads it; an invalid pattern matches nothing. */
export function matchesPattern(pattern: string, value: string): boolean {
  return compiled(pattern)?.test(value) ?? false;
}

/** The pattern as JSON Schema validators (ajv) read it: ECMAScript with the `u` flag. */
function compiled(pattern: string): RegExp | undefined {
  try {
    return new RegExp(pattern, 'u');
  } catch {
    return undefined;
  }
}

/** mulberry32: a small, well-spread sequence in [0, 1) from a 32-bit seed. */
function seeded(seed: number): () => number {
  let state = (seed + 0x6d2b79f5) >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}
