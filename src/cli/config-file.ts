/**
 * `specforge.config.json`: the inputs every command would otherwise repeat
 * (`spec`, `out`, `templates`…), found by walking up from the current folder.
 * The walk stops at the first folder holding `.git` (a repository's root, as
 * a config above a checkout belongs to some other project) or at the root of
 * the file system. JSON only: a `.ts` file would need a loader and would run
 * code, which a CI `check` should not do to read four paths.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { diagnostic, SpecforgeError, toPointer, type Diagnostic } from '../diagnostics.js';
import { closest } from '../suggest.js';

export const CONFIG_FILE = 'specforge.config.json';

/** What the file may set: paths (relative to the file's folder in it, absolute here) and the options worth keeping. */
export interface ConfigFile {
  /** The file it was read from. */
  file: string;
  spec?: string;
  out?: string;
  templates?: string;
  /** Accepted for the folder `$ref`s may reach; no command reads it yet. */
  refRoot?: string;
  /** The OpenAPI Overlay file applied to the spec (`--overlay`). */
  overlay?: string;
  lint?: boolean;
}

type Kind = 'path' | 'boolean';

/** Every key, with its kind. Not `force`, `dry-run` or `watch`: each is a decision for one run, not a project's setting. */
const KEYS: Record<Exclude<keyof ConfigFile, 'file'>, Kind> = {
  spec: 'path',
  out: 'path',
  templates: 'path',
  refRoot: 'path',
  overlay: 'path',
  lint: 'boolean',
};

/** The nearest `specforge.config.json` from `folder` up to the repository's (or the file system's) root. */
export function findConfigFile(folder: string): string | undefined {
  for (let current = resolve(folder); ; current = dirname(current)) {
    const candidate = join(current, CONFIG_FILE);
    if (existsSync(candidate)) return candidate;
    if (existsSync(join(current, '.git')) || dirname(current) === current) return undefined;
  }
}

/** The configuration found from `folder`, or none. */
export function discoverConfigFile(folder: string): ConfigFile | undefined {
  const file = findConfigFile(folder);
  return file === undefined ? undefined : readConfigFile(file);
}

/** Reads and validates a configuration file; every problem is a diagnostic. */
export function readConfigFile(file: string): ConfigFile {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new SpecforgeError([diagnostic('CONFIG_FILE_INVALID', `Cannot read ${CONFIG_FILE}: ${(error as Error).message}`, { file })]);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new SpecforgeError([diagnostic('CONFIG_FILE_INVALID', `${CONFIG_FILE} must hold a JSON object`, { file })]);
  }
  const problems = Object.entries(value).flatMap(([key, setting]) => keyProblems(key, setting, file));
  if (problems.length > 0) throw new SpecforgeError(problems);
  return withPathsResolved(value as Omit<ConfigFile, 'file'>, file);
}

function keyProblems(key: string, value: unknown, file: string): Diagnostic[] {
  const at = { file, pointer: toPointer([key]) };
  const kind = (KEYS as Record<string, Kind | undefined>)[key];
  if (kind === undefined) {
    const guess = closest(key, Object.keys(KEYS));
    return [
      diagnostic('CONFIG_UNKNOWN_KEY', `Unknown key "${key}" in ${CONFIG_FILE}${guess ? ` (did you mean "${guess}"?)` : ''}`, at, {
        hint: `Known keys: ${Object.keys(KEYS).join(', ')}.`,
      }),
    ];
  }
  const problem = kind === 'path' ? pathValueProblem(value) : typeof value === 'boolean' ? undefined : 'must be true or false';
  return problem ? [diagnostic('CONFIG_INVALID_VALUE', `${key} ${problem}, got ${JSON.stringify(value)}`, at)] : [];
}

function pathValueProblem(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? undefined : 'must be a non-empty path (relative to the file\'s folder)';
}

/** Paths in the file are relative to its folder, wherever the command runs. */
function withPathsResolved(value: Omit<ConfigFile, 'file'>, file: string): ConfigFile {
  const folder = dirname(file);
  const resolved: ConfigFile = { file };
  for (const [key, kind] of Object.entries(KEYS) as [keyof typeof KEYS, Kind][]) {
    const setting = value[key];
    if (setting === undefined) continue;
    (resolved as unknown as Record<string, unknown>)[key] = kind === 'path' ? resolve(folder, setting as string) : setting;
  }
  return resolved;
}

export type Settings = Omit<ConfigFile, 'file'>;

/** Each setting from the command line if given there, else from the file: flags override the file. */
export function layered(flags: Settings, file: ConfigFile | undefined): Settings {
  const settings: Settings = {};
  for (const key of Object.keys(KEYS) as (keyof Settings)[]) {
    const value = flags[key] ?? file?.[key];
    if (value !== undefined) (settings as Record<string, unknown>)[key] = value;
  }
  return settings;
}

/** The file's paths as the user would type them from `cwd`: relative below it, absolute elsewhere. */
export function pathsFrom(cwd: string, file: ConfigFile): ConfigFile {
  const shown = (path: string) => {
    const way = relative(cwd, path);
    return way === '' ? '.' : way.startsWith('..') || isAbsolute(way) ? path : way;
  };
  const result: ConfigFile = { ...file };
  for (const [key, kind] of Object.entries(KEYS) as [keyof Settings, Kind][]) {
    if (kind === 'path' && typeof file[key] === 'string') (result as unknown as Record<string, unknown>)[key] = shown(file[key] as string);
  }
  return result;
}
