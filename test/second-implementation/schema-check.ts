/**
 * A second, hand-written implementation of the conventions: field rules
 * written out by hand from the spec (no ajv, no generated validators), and
 * the per-field problems they find. Only the code INVALID_FORMAT is named by
 * the conventions; the other per-field codes are this implementation's own.
 */

export type Rule =
  | { type: 'string'; minLength?: number; maxLength?: number; enum?: string[]; pattern?: RegExp; format?: 'uuid' | 'date' }
  | { type: 'integer'; minimum?: number; maximum?: number }
  | { type: 'boolean' };

export interface Field {
  rule: Rule;
  /** Required in a create or a replace (a PATCH requires nothing). */
  required?: boolean;
}

export interface Problem {
  field: string;
  message: string;
  code: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const parsed = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(value);
}

/** What is wrong with one value, or undefined. */
export function problemWith(name: string, value: unknown, rule: Rule): Problem | undefined {
  const problem = (code: string, message: string) => ({ field: name, code, message });
  switch (rule.type) {
    case 'boolean':
      return typeof value === 'boolean' ? undefined : problem('NOT_A_BOOLEAN', 'must be true or false');
    case 'integer':
      if (typeof value !== 'number' || !Number.isInteger(value)) return problem('NOT_AN_INTEGER', 'must be a whole number');
      if (rule.minimum !== undefined && value < rule.minimum) return problem('TOO_SMALL', `must be at least ${rule.minimum}`);
      if (rule.maximum !== undefined && value > rule.maximum) return problem('TOO_LARGE', `must be at most ${rule.maximum}`);
      return undefined;
    case 'string':
      if (typeof value !== 'string') return problem('NOT_A_STRING', 'must be text');
      if (rule.minLength !== undefined && value.length < rule.minLength) return problem('TOO_SHORT', `needs at least ${rule.minLength} characters`);
      if (rule.maxLength !== undefined && value.length > rule.maxLength) return problem('TOO_LONG', `takes at most ${rule.maxLength} characters`);
      if (rule.enum && !rule.enum.includes(value)) return problem('NOT_ALLOWED', `must be one of ${rule.enum.join(', ')}`);
      if (rule.pattern && !rule.pattern.test(value)) return problem('INVALID_FORMAT', `does not have the expected form ${rule.pattern.source}`);
      if (rule.format === 'uuid' && !UUID.test(value)) return problem('INVALID_FORMAT', 'is not a UUID');
      if (rule.format === 'date' && !isCalendarDate(value)) return problem('INVALID_FORMAT', 'is not a calendar date (YYYY-MM-DD)');
      return undefined;
  }
}

/** The problems of a JSON body against its fields; `partial` for a PATCH, which requires none. */
export function bodyProblems(body: unknown, fields: Record<string, Field>, partial: boolean): Problem[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return [{ field: 'body', code: 'NOT_AN_OBJECT', message: 'the body must be a JSON object' }];
  const record = body as Record<string, unknown>;
  const problems: Problem[] = [];
  for (const [name, field] of Object.entries(fields)) {
    if (!(name in record)) {
      if (field.required && !partial) problems.push({ field: `body.${name}`, code: 'MISSING', message: 'is required' });
      continue;
    }
    const problem = problemWith(`body.${name}`, record[name], field.rule);
    if (problem) problems.push(problem);
  }
  for (const name of Object.keys(record))
    if (!(name in fields)) problems.push({ field: `body.${name}`, code: 'UNEXPECTED', message: 'is not a field of this resource' });
  return problems;
}
