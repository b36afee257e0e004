/**
 * Configuration lives in the spec itself, in `x-specforge` extensions: at the
 * root for the whole API, on a path item or an operation for what may vary per
 * operation. One mechanism, versioned with the spec, so `specforge check` in CI
 * sees exactly what `generate` saw. Every default is set here, once.
 */
import { diagnostic, DIAGNOSTIC_CATALOG, SpecforgeError, toPointer, type Diagnostic } from './diagnostics.js';
import { HTTP_METHODS } from './openapi/document.js';
import { closest } from './suggest.js';

export const EXTENSION = 'x-specforge';

export type PagingStyle = 'cursor' | 'offset';
export type ResourceShape = 'flat' | 'typed';
export type VersioningMechanism = 'url' | 'header' | 'both' | 'none';

export interface PagingConfig {
  style: PagingStyle;
  defaultLimit: number;
  maxLimit: number;
}

/** What may differ between operations. */
export interface OperationConfig {
  resourceShape: ResourceShape;
  paging: PagingConfig;
  cacheControl: string;
}

/** The whole API's configuration, every value resolved. */
export interface Config extends OperationConfig {
  validation: { status: 400 | 422 };
  versioning: { mechanism: VersioningMechanism; version: number };
  rateLimit: { limit: number; windowSeconds: number };
  bodyLimit: number;
  /** The largest file an upload may carry, in bytes (413 past it). */
  uploadLimit: number;
}

export const DEFAULTS: Omit<Config, 'versioning'> & { versioning: { mechanism: VersioningMechanism } } = {
  resourceShape: 'flat',
  paging: { style: 'cursor', defaultLimit: 20, maxLimit: 100 },
  cacheControl: 'private, no-cache',
  validation: { status: 422 },
  versioning: { mechanism: 'both' },
  rateLimit: { limit: 100, windowSeconds: 60 },
  bodyLimit: 1024 * 1024,
  uploadLimit: 10 * 1024 * 1024,
};

// ── option schema: data, so that validation, defaults and docs agree ─────────

type Check = (value: unknown) => string | undefined;
interface Shape {
  [key: string]: Check | Shape;
}

const oneOf =
  (...allowed: (string | number)[]): Check =>
  (value) =>
    allowed.includes(value as string | number) ? undefined : `must be one of ${allowed.map((a) => JSON.stringify(a)).join(', ')}`;
const positiveInteger: Check = (value) =>
  Number.isInteger(value) && (value as number) > 0 ? undefined : 'must be a positive integer';
const nonEmptyString: Check = (value) =>
  typeof value === 'string' && value.trim() !== '' ? undefined : 'must be a non-empty string';
/** A header's value as HTTP allows it (visible ASCII, spaces, tabs): Node refuses any other, so every answer carrying it would fail. */
const headerValue: Check = (value) =>
  nonEmptyString(value) ?? (/^[\t\x20-\x7e]+$/.test(value as string) ? undefined : 'must be a header value: printable ASCII, no line breaks');

const LINT_CODES = Object.keys(DIAGNOSTIC_CATALOG).filter((code) => code.startsWith('LINT_'));
const lintRules: Check = (value) => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'must map rule codes to off, warning or error';
  for (const [code, setting] of Object.entries(value)) {
    if (!LINT_CODES.includes(code)) return `names an unknown rule "${code}" (rules: ${LINT_CODES.join(', ')})`;
    if (!['off', 'warning', 'error'].includes(setting as string)) return `sets ${code} to ${JSON.stringify(setting)}; use off, warning or error`;
  }
  return undefined;
};
const wordList: Check = (value) =>
  Array.isArray(value) && value.every((word) => typeof word === 'string' && word !== '') ? undefined : 'must be a list of words';

/** `unique: [isbn, [owner, name]]`: fields, alone or together, that no two items share. */
const uniqueFields: Check = (value) => {
  const fieldName = (name: unknown) => typeof name === 'string' && name !== '';
  const entryOk = (entry: unknown) => fieldName(entry) || (Array.isArray(entry) && entry.length > 0 && entry.every(fieldName));
  return Array.isArray(value) && value.every(entryOk) ? undefined : 'must be a list of field names, or of lists of them (fields unique together)';
};

/** What a collection's path item may ask of the default store. */
const STORE_SHAPE: Shape = {
  unique: uniqueFields,
  onParentDelete: oneOf('refuse', 'cascade'),
};

const OPERATION_SHAPE: Shape = {
  resourceShape: oneOf('flat', 'typed'),
  paging: { style: oneOf('cursor', 'offset'), defaultLimit: positiveInteger, maxLimit: positiveInteger },
  cacheControl: headerValue,
  lint: { rules: lintRules },
};

const PATH_ITEM_SHAPE: Shape = { ...OPERATION_SHAPE, store: STORE_SHAPE };

const ROOT_SHAPE: Shape = {
  ...OPERATION_SHAPE,
  validation: { status: oneOf(400, 422) },
  versioning: { mechanism: oneOf('url', 'header', 'both', 'none'), version: positiveInteger },
  rateLimit: { limit: positiveInteger, windowSeconds: positiveInteger },
  bodyLimit: positiveInteger,
  uploadLimit: positiveInteger,
  lint: { rules: lintRules, plurals: wordList },
};

function checkAgainst(value: unknown, shape: Shape, path: (string | number)[], file: string | undefined): Diagnostic[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return [diagnostic('CONFIG_INVALID_VALUE', `${path.at(-1)} must be a mapping`, { file, pointer: toPointer(path) })];
  }
  const problems: Diagnostic[] = [];
  for (const [key, child] of Object.entries(value)) {
    const rule = shape[key];
    const at = { file, pointer: toPointer([...path, key]) };
    if (rule === undefined) {
      const guess = closest(key, Object.keys(shape));
      const known = Object.keys(shape).join(', ');
      problems.push(
        diagnostic('CONFIG_UNKNOWN_KEY', `Unknown option "${key}" in ${EXTENSION}${guess ? ` (did you mean "${guess}"?)` : ''}`, at, {
          hint: `Known options here: ${known}.`,
        }),
      );
    } else if (typeof rule === 'function') {
      const problem = rule(child);
      if (problem) problems.push(diagnostic('CONFIG_INVALID_VALUE', `${key} ${problem}, got ${JSON.stringify(child)}`, at));
    } else {
      problems.push(...checkAgainst(child, rule, [...path, key], file));
    }
  }
  return problems;
}

// ── resolution ───────────────────────────────────────────────────────────────

/** Each top-level member optional, and each member of those too. */
type ShallowPartial<T> = { [K in keyof T]?: T[K] extends object ? Partial<T[K]> : T[K] };

/** A path item's or an operation's extension, with where it stands and what it inherits. */
interface LocalExtension {
  path: string[];
  extension: unknown;
  /** The path item's extension, for an operation's. */
  inherited: unknown;
  /** On the path item itself, where store settings may stand, rather than on one of its operations. */
  onPathItem: boolean;
}

/** Every `x-specforge` below the root: on path items, then on their operations. */
function localExtensions(spec: Record<string, unknown>): LocalExtension[] {
  const paths = (spec.paths ?? {}) as Record<string, Record<string, unknown> | undefined>;
  return Object.entries(paths).flatMap(([path, item]) => {
    if (!item || typeof item !== 'object') return [];
    const onItem = item[EXTENSION] === undefined ? [] : [{ path: ['paths', path, EXTENSION], extension: item[EXTENSION], inherited: undefined, onPathItem: true }];
    const onOperations = HTTP_METHODS.flatMap((method) => {
      const extension = (item[method] as Record<string, unknown> | undefined)?.[EXTENSION];
      return extension === undefined ? [] : [{ path: ['paths', path, method, EXTENSION], extension, inherited: item[EXTENSION], onPathItem: false }];
    });
    return [...onItem, ...onOperations];
  });
}

/** Collects every configuration problem in the document (root, path items, operations). */
export function validateConfig(spec: Record<string, unknown>, file?: string): Diagnostic[] {
  const root = spec[EXTENSION] === undefined ? [] : checkAgainst(spec[EXTENSION], ROOT_SHAPE, [EXTENSION], file);
  return [
    ...root,
    ...localExtensions(spec).flatMap(({ path, extension, onPathItem }) =>
      checkAgainst(extension, onPathItem ? PATH_ITEM_SHAPE : OPERATION_SHAPE, path, file),
    ),
  ];
}

/** The API's configuration: the root extension over the defaults. */
export function resolveConfig(spec: Record<string, unknown>, file?: string): Config {
  const problems = validateConfig(spec, file);
  if (problems.length > 0) throw new SpecforgeError(problems);
  const given = (spec[EXTENSION] ?? {}) as ShallowPartial<Config>;
  const info = (spec.info ?? {}) as { version?: unknown };
  const config: Config = {
    ...mergeOperationConfig(DEFAULTS, given),
    validation: { ...DEFAULTS.validation, ...given.validation },
    versioning: {
      mechanism: given.versioning?.mechanism ?? DEFAULTS.versioning.mechanism,
      version: given.versioning?.version ?? majorVersion(info.version),
    },
    rateLimit: { ...DEFAULTS.rateLimit, ...given.rateLimit },
    bodyLimit: given.bodyLimit ?? DEFAULTS.bodyLimit,
    uploadLimit: given.uploadLimit ?? DEFAULTS.uploadLimit,
  };
  // Page sizes as they combine: an operation's default above the API's maximum is as wrong as the API's own.
  const pageSizes = [
    pagingProblem(config.paging, [EXTENSION, 'paging'], file),
    ...localExtensions(spec).map(({ path, extension, inherited }) =>
      pagingProblem(operationConfig(config, inherited, extension).paging, path, file),
    ),
  ].filter((problem) => problem !== undefined);
  if (pageSizes.length > 0) throw new SpecforgeError(pageSizes);
  return config;
}

/** An operation's configuration: operation over path item over the API's. */
export function operationConfig(
  api: OperationConfig,
  pathItemExtension: unknown,
  operationExtension: unknown,
): OperationConfig {
  return mergeOperationConfig(
    mergeOperationConfig(api, (pathItemExtension ?? {}) as ShallowPartial<OperationConfig>),
    (operationExtension ?? {}) as ShallowPartial<OperationConfig>,
  );
}

function mergeOperationConfig(base: OperationConfig, given: ShallowPartial<OperationConfig>): OperationConfig {
  return {
    resourceShape: given.resourceShape ?? base.resourceShape,
    paging: { ...base.paging, ...given.paging },
    cacheControl: given.cacheControl ?? base.cacheControl,
  };
}

/** A page size default above its maximum, wherever the two were set. */
export function pagingProblem(paging: PagingConfig, path: (string | number)[], file?: string): Diagnostic | undefined {
  if (paging.defaultLimit <= paging.maxLimit) return undefined;
  return diagnostic(
    'CONFIG_INVALID_VALUE',
    `paging.defaultLimit (${paging.defaultLimit}) is above paging.maxLimit (${paging.maxLimit})`,
    { file, pointer: toPointer(path) },
  );
}

/** `info.version` "2.4.1" → 2; the version segment is never below 1. */
function majorVersion(version: unknown): number {
  const major = Number.parseInt(String(version ?? '1'), 10);
  return Number.isInteger(major) && major > 0 ? major : 1;
}
