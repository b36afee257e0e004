/**
 * Request validation with validators ajv compiled when this service was
 * generated (`../validators/`): no schema is compiled at start-up. Every
 * problem becomes one `details[]` entry per field.
 */
import type { ErrorDetail } from './errors.js';

/** The part of an ajv error this module reads. */
export interface SchemaProblem {
  instancePath: string;
  schemaPath?: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

/** A validator as ajv's standalone code exports it: coerces and fills defaults in place. */
export type Validator = ((data: unknown) => boolean) & { errors?: SchemaProblem[] | null };

/** Per-field codes by failing keyword; `INVALID_FORMAT` is the conventions' own. */
const CODES: Record<string, string> = {
  required: 'REQUIRED',
  type: 'INVALID_TYPE',
  format: 'INVALID_FORMAT',
  pattern: 'INVALID_FORMAT',
  enum: 'INVALID_VALUE',
  const: 'INVALID_VALUE',
  additionalProperties: 'UNKNOWN_FIELD',
  unevaluatedProperties: 'UNKNOWN_FIELD',
};
const RANGE = new Set([
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
  'multipleOf',
]);
/** Keywords that only summarise the errors of their branches. */
const SUMMARIES = new Set(['anyOf', 'oneOf', 'allOf', 'if', 'not']);

/** Runs a validator; `prefix` names the location for body problems (`body`). */
export function problemsOf(validate: Validator, data: unknown, prefix?: string): ErrorDetail[] {
  if (validate(data)) return [];
  return onePerField(
    withoutBranches(validate.errors ?? []).map((problem) => detailOf(problem, prefix)),
  );
}

const ALTERNATIVES: Record<string, string> = { oneOf: 'exactly one', anyOf: 'at least one' };

/**
 * A failed `oneOf` or `anyOf`, told once instead of with every branch's
 * problems: ajv reports each branch's problems just before the keyword's own,
 * at its place or below (those of the keywords beside it, as `type`, stay).
 * The message names the branches that are components (`Dog, Cat`). Where the spec gives a
 * discriminator ajv can read, only the tagged branch is checked, and its
 * problems are told as they are.
 */
function withoutBranches(problems: SchemaProblem[]): SchemaProblem[] {
  const kept: SchemaProblem[] = [];
  for (const problem of problems) {
    const quantity = ALTERNATIVES[problem.keyword];
    if (quantity === undefined) {
      kept.push(problem);
      continue;
    }
    const branches: SchemaProblem[] = [];
    while (kept.length > 0 && isBranchOf(kept[kept.length - 1]!, problem))
      branches.push(kept.pop()!);
    const names = branchNames(problem, branches);
    const message = names ? `must match ${quantity} of ${names}` : problem.message;
    kept.push({ ...problem, ...(message === undefined ? {} : { message }) });
  }
  return kept;
}

/** At or below the keyword's place, and not from a keyword beside it (`type`, checked first). */
function isBranchOf(candidate: SchemaProblem, keyword: SchemaProblem): boolean {
  const place = keyword.instancePath;
  const within = candidate.instancePath === place || candidate.instancePath.startsWith(`${place}/`);
  const beside = (path: string | undefined) => path?.slice(0, path.lastIndexOf('/'));
  return within && beside(candidate.schemaPath) !== beside(keyword.schemaPath);
}

/** The components the branches' problems come from, when every one names one. */
function branchNames(problem: SchemaProblem, branches: SchemaProblem[]): string | undefined {
  const own = componentOf(problem.schemaPath);
  const names = branches.map((branch) => componentOf(branch.schemaPath));
  if (names.length === 0 || names.some((name) => name === undefined || name === own))
    return undefined;
  return [...new Set(names.reverse())].join(', ');
}

function componentOf(schemaPath: string | undefined): string | undefined {
  const name = /\/components\/schemas\/([^/]+)/.exec(schemaPath ?? '')?.[1];
  return name?.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** A detail, and whether its keyword only summarises others. */
interface Finding {
  field: string;
  message: string;
  code: string;
  summary: boolean;
}

function detailOf(problem: SchemaProblem, prefix: string | undefined): Finding {
  const segments = problem.instancePath
    .split('/')
    .slice(1)
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
  const named =
    problem.params.missingProperty ??
    problem.params.additionalProperty ??
    problem.params.unevaluatedProperty;
  if (typeof named === 'string') segments.push(named);
  if (problem.keyword === 'discriminator' && typeof problem.params.tag === 'string')
    segments.push(problem.params.tag);
  if (prefix === undefined && segments[0] === 'headers') segments[0] = 'header';
  const field = fieldName(prefix === undefined ? segments : [prefix, ...segments]);
  const message =
    problem.keyword === 'additionalProperties' || problem.keyword === 'unevaluatedProperties'
      ? 'is not a known field'
      : problem.keyword === 'discriminator'
        ? discriminatorMessage(problem.params)
        : (problem.message ?? 'is invalid');
  const missingTag = problem.keyword === 'discriminator' && problem.params.tagValue === undefined;
  const code = missingTag
    ? 'REQUIRED'
    : (CODES[problem.keyword] ?? (RANGE.has(problem.keyword) ? 'OUT_OF_RANGE' : 'INVALID_VALUE'));
  return { field, message, code, summary: SUMMARIES.has(problem.keyword) };
}

/** ajv's discriminator problem: the tag is missing, or names no branch. */
function discriminatorMessage({ tag, tagValue }: Record<string, unknown>): string {
  return tagValue === undefined
    ? `must have required property '${String(tag)}'`
    : 'must name one of the schemas of oneOf';
}

/** `['body', 'tags', '0', 'name']` → `body.tags[0].name`. */
function fieldName(segments: string[]): string {
  return (
    segments
      .map((segment, index) =>
        /^\d+$/.test(segment) && index > 0 ? `[${segment}]` : `${index > 0 ? '.' : ''}${segment}`,
      )
      .join('') || 'body'
  );
}

/** One entry per field: its first concrete problem, a format problem first of all. */
function onePerField(details: Finding[]): ErrorDetail[] {
  const byField = new Map<string, Finding>();
  for (const detail of details) {
    const kept = byField.get(detail.field);
    if (
      !kept ||
      (kept.summary && !detail.summary) ||
      (detail.code === 'INVALID_FORMAT' && kept.code !== 'INVALID_FORMAT')
    )
      byField.set(detail.field, detail);
  }
  return [...byField.values()].map(({ field, message, code }) => ({ field, message, code }));
}
