/**
 * The generator's own inputs besides the spec: the convention fragments in
 * `schemas/` and the templates in `templates/`, with a user's `--templates`
 * directory overriding any template by its relative path.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import type { ConventionFragments } from './conventions/index.js';
import { fail } from './diagnostics.js';
import type { TemplateSet } from './render/handlebars.js';
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
  /** Changes whenever anything here (or the generator's version) does. */
  fingerprint: string;
}

export function loadResources(templatesOverride?: string): Resources {
  const fragments = loadFragments(join(PACKAGE_ROOT, 'schemas'));
  const templates = new Map(listTemplates(join(PACKAGE_ROOT, 'templates')));
  if (templatesOverride !== undefined) {
    if (!existsSync(templatesOverride) || !statSync(templatesOverride).isDirectory()) {
      fail('TEMPLATES_NOT_FOUND', `--templates ${templatesOverride} is not a directory`, { file: templatesOverride });
    }
    for (const [path, template] of listTemplates(templatesOverride)) templates.set(path, template);
  }
  const sorted = new Map([...templates].sort(byKey));
  // The dependencies that shape the output (prettier, openapi-typescript…) are pinned exactly in
  // package.json, so its dependency list stands for their versions.
  const fingerprint = sha256(
    JSON.stringify([VERSION, PACKAGE.dependencies, fragments, [...sorted].map(([path, { source }]) => [path, source])]),
  );
  return { fragments, templates: sorted, fingerprint };
}

function loadFragments(directory: string): ConventionFragments {
  const fragments: ConventionFragments = {};
  for (const name of readdirSync(directory).filter((file) => file.endsWith('.yaml')).sort()) {
    const { components } = parse(readFileSync(join(directory, name), 'utf8')) as { components: ConventionFragments };
    for (const [section, entries] of Object.entries(components)) fragments[section] = { ...fragments[section], ...entries };
  }
  return fragments;
}

function listTemplates(root: string): [string, { source: string; file: string }][] {
  const found: [string, { source: string; file: string }][] = [];
  const walk = (directory: string) => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      const full = join(directory, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.hbs')) found.push([relative(root, full).split(sep).join('/'), { source: readFileSync(full, 'utf8'), file: full }]);
    }
  };
  walk(root);
  return found;
}
