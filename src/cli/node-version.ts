/**
 * The Node.js check that runs before anything else: a dependency that needs a
 * newer Node fails as it loads (yargs dies with a regex SyntaxError on Node
 * 18), so this module imports nothing but node: built-ins.
 */
import { readFileSync } from 'node:fs';

/** `engines.node` of our package.json, e.g. `>=20.11`. */
export function requiredNodeRange(): string {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { engines?: { node?: string } };
  return manifest.engines?.node ?? '>=0';
}

/** The one line to print when `running` (e.g. `18.19.0`) is older than `range` (`>=X[.Y[.Z]]`); none when it is new enough. */
export function nodeVersionProblem(running: string, range: string): string | undefined {
  const minimum = /^>=\s*(\d+(?:\.\d+){0,2})$/.exec(range.trim())?.[1];
  if (!minimum) return undefined; // a range we do not parse: let the run decide
  const parts = (version: string) => version.split('.').map((part) => Number.parseInt(part, 10) || 0);
  const [have, need] = [parts(running), parts(minimum)];
  for (let i = 0; i < 3; i++) {
    const difference = (have[i] ?? 0) - (need[i] ?? 0);
    if (difference !== 0) return difference > 0 ? undefined : `specforge needs Node.js ${range}; this is ${running}. Install a newer Node.js (e.g. the current LTS) and run it again.`;
  }
  return undefined;
}
