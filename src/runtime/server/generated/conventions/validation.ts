/**
 * Request validation with validators ajv compiled when this service was
 * generated (`../validators/`): no schema is compiled at start-up. Every
 * problem becomes one `details[]` entry per field.
 */
import type { ErrorDetail } from './errors.js';

/** The part of an ajv error this module reads. */
export interface SchemaProblem {
  instancePath: string;
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
  return onePerField((validate.errors ?? []).map((problem) => detailOf(problem, prefix)));
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
  if (prefix === undefined && segments[0] === 'headers') segments[0] = 'header';
  const field = fieldName(prefix === undefined ? segments : [prefix, ...segments]);
  const message =
    problem.keyword === 'additionalProperties' || problem.keyword === 'unevaluatedProperties'
      ? 'is not a known field'
      : (problem.message ?? 'is invalid');
  const code =
    CODES[problem.keyword] ?? (RANGE.has(problem.keyword) ? 'OUT_OF_RANGE' : 'INVALID_VALUE');
  return { field, message, code, summary: SUMMARIES.has(problem.keyword) };
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
