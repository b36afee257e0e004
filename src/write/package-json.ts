/**
 * The generated project's `package.json` is a scaffold: written once, then the
 * user's. What a newer specforge needs there (a dependency, a script, an
 * override) would never reach it, so `generate` compares the scaffold it would
 * write with the one on disk and names each missing key; `--update-package-json`
 * adds exactly those and leaves every other key, value and order as it was.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeAtomically } from './disk.js';

export const PACKAGE_JSON = 'package.json';

/** The sections specforge fills: a key missing from one of them is something the output relies on. */
const SECTIONS = ['dependencies', 'devDependencies', 'scripts', 'overrides'] as const;
export type PackageSection = (typeof SECTIONS)[number];

/** One key to add: `section.name` with `value` (a version range, or a script's command). */
export interface PackageNeed {
  section: PackageSection;
  name: string;
  value: string;
}

type PackageJson = Partial<Record<PackageSection, Record<string, string>>> & Record<string, unknown>;

/**
 * What `wanted` (the scaffold this specforge writes) has and `existing` (the user's) lacks.
 * A dependency counts as present in either dependency section: moving one is the user's call.
 * A package.json that is not a JSON object is the user's to fix: nothing is asked of it.
 */
export function packageNeeds(wanted: string, existing: string): PackageNeed[] {
  const own = parseObject(existing);
  if (own === undefined) return [];
  const has = (section: PackageSection, name: string) =>
    section === 'dependencies' || section === 'devDependencies'
      ? name in (own.dependencies ?? {}) || name in (own.devDependencies ?? {})
      : name in (own[section] ?? {});
  const scaffold = parseObject(wanted) ?? {};
  return SECTIONS.flatMap((section) =>
    Object.entries(scaffold[section] ?? {})
      .filter(([name]) => !has(section, name))
      .map(([name, value]) => ({ section, name, value })),
  );
}

/** `existing` with the needs added at the end of their sections, as npm writes it: two spaces, a final newline. */
export function withPackageNeeds(existing: string, needs: readonly PackageNeed[]): string {
  const own = parseObject(existing) ?? {};
  for (const { section, name, value } of needs) own[section] = { ...own[section], [name]: value };
  return JSON.stringify(own, null, 2) + '\n';
}

/** The user's package.json in the output folder; undefined when there is none. */
export function readPackageJson(outDir: string): string | undefined {
  try {
    return readFileSync(join(outDir, PACKAGE_JSON), 'utf8');
  } catch {
    return undefined;
  }
}

export function updatePackageJson(outDir: string, existing: string, needs: readonly PackageNeed[]): void {
  writeAtomically(join(outDir, PACKAGE_JSON), withPackageNeeds(existing, needs));
}

function parseObject(text: string): PackageJson | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as PackageJson) : undefined;
  } catch {
    return undefined;
  }
}
