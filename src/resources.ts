/**
 * The generator's own inputs besides the spec: the convention fragments in
 * `schemas/`, the templates in `templates/` and the runtime modules in
 * `src/runtime/` (copied into the output as they are). A user's `--templates`
 * directory overrides any template by its relative path, and any runtime
 * module by its path under `runtime/` there: `<templates>/runtime/client/runtime.ts`
 * replaces `src/runtime/client/runtime.ts`.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import type { ConventionFragments } from './conventions/index.js';
import { fail } from './diagnostics.js';
import type { TemplateSet } from './render/handlebars.js';
import type { RuntimeSet } from './render/target.js';
import { sha256 } from './hash.js';
import { byKey } from './order.js';

/** The package root: `dist/resources.js` and `src/resources.ts` both sit one level below it. */
export const PACKAGE_ROOT = fileURLToPath(new URL('..', import.meta.url));

const PACKAGE = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as {
  version: string;
  dependencies: Record<string, string>;
};

export const VERSION: string = PACKAGE.version;

export interface Resources {
  fragments: ConventionFragments;
  templates: TemplateSet;
  runtime: RuntimeSet;
  /** Changes whenever anything here (or the generator's version) does. */
  fingerprint: string;
}

export function loadResources(templatesOverride?: string): Resources {
  const fragments = loadFragments();
  const templates = new Map(listFiles(join(PACKAGE_ROOT, 'templates'), isTemplate).map(([path, template]) => [path, { ...template, builtIn: true }]));
  const runtime = new Map(listFiles(RUNTIME_ROOT, isRuntimeModule));
  if (templatesOverride !== undefined) {
    if (!existsSync(templatesOverride) || !statSync(templatesOverride).isDirectory()) {
      fail('TEMPLATES_NOT_FOUND', `--templates ${templatesOverride} is not a directory`, { file: templatesOverride });
    }
    for (const [path, template] of listFiles(templatesOverride, isTemplate)) templates.set(path, { ...template, builtIn: false });
    const runtimeOverride = join(templatesOverride, 'runtime');
    // Only modules the generator copies can be replaced: a stray file must not appear in the output.
    if (existsSync(runtimeOverride)) for (const [path, module] of listFiles(runtimeOverride, isRuntimeModule)) if (runtime.has(path)) runtime.set(path, module);
  }
  const sorted = new Map([...templates].sort(byKey));
  const sortedRuntime = new Map([...runtime].sort(byKey));
  const sources = (set: TemplateSet | RuntimeSet) => [...set].map(([path, { source }]) => [path, source]);
  // The dependencies that shape the output (prettier, openapi-typescript…) are pinned exactly in
  // package.json, so its dependency list stands for their versions.
  const fingerprint = sha256(JSON.stringify([VERSION, PACKAGE.dependencies, fragments, sources(sorted), sources(sortedRuntime)]));
  return { fragments, templates: sorted, runtime: sortedRuntime, fingerprint };
}

/** The runtime modules' sources; they ship in the package (package.json `files`). */
export const RUNTIME_ROOT = join(PACKAGE_ROOT, 'src/runtime');

const isTemplate = (name: string) => name.endsWith('.hbs');
/** Tests sit in test/unit/runtime, but a stray one here must never be copied into a service. */
const isRuntimeModule = (name: string) => /\.(ts|js|cjs)$/.test(name) && !name.endsWith('.test.ts');

/** The convention fragments alone: lint reads them without the templates. */
export function loadFragments(): ConventionFragments {
  const directory = join(PACKAGE_ROOT, 'schemas');
  const fragments: ConventionFragments = {};
  for (const name of readdirSync(directory).filter((file) => file.endsWith('.yaml')).sort()) {
    const { components } = parse(readFileSync(join(directory, name), 'utf8')) as { components: ConventionFragments };
    for (const [section, entries] of Object.entries(components)) fragments[section] = { ...fragments[section], ...entries };
  }
  return fragments;
}

function listFiles(root: string, wanted: (name: string) => boolean): [string, { source: string; file: string }][] {
  const found: [string, { source: string; file: string }][] = [];
  const walk = (directory: string) => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      const full = join(directory, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (wanted(entry.name)) found.push([relative(root, full).split(sep).join('/'), { source: readFileSync(full, 'utf8'), file: full }]);
    }
  };
  walk(root);
  return found;
}
