/**
 * What the conventions own: the paging, sorting, field-selection and search
 * parameters of lists and reads, and the body of every error response. A
 * spec that declares them differently is told so, because the merge will
 * replace its declaration with the convention's.
 */
import { OWNED_ERROR_STATUSES } from '../../conventions/errors.js';
import { classifyOperation, jsonSchemaOf } from '../../openapi/classify.js';
import { deref, isReference, type ParameterObject, type ResponseObject, type SchemaObject } from '../../openapi/document.js';
import { OWNED_QUERY_PARAMETERS } from '../../openapi/fields.js';
import type { Finding, LintRule } from '../rule.js';

export const conventionParameters: LintRule = {
  code: 'LINT_CONVENTION_PARAMETER',
  severity: 'warning',
  check(context) {
    return context.operations.flatMap((operation) => {
      const kind = classifyOperation(context.document, operation.path, operation.method, operation.operation);
      if (kind !== 'list' && kind !== 'read') return [];
      return (operation.operation.parameters ?? []).flatMap((parameter, index): Finding[] => {
        const p = deref<ParameterObject>(context.document, parameter);
        if (p?.in !== 'query' || !OWNED_QUERY_PARAMETERS.has(p.name)) return [];
        const schema = p.schema && deref<SchemaObject>(context.document, p.schema);
        const why = p.name === 'limit' && schema?.maximum === undefined ? ' (it has no maximum)' : '';
        return [{ at: ['paths', operation.path, operation.method, 'parameters', String(index)], message: `"${p.name}" belongs to the conventions${why}: the merge replaces it with theirs`, operation }];
      });
    });
  },
};

export const conventionErrorBodies: LintRule = {
  code: 'LINT_CONVENTION_ERROR_BODY',
  severity: 'warning',
  check(context) {
    const reported = new Set<string>();
    return context.operations.flatMap((operation) =>
      Object.entries(operation.operation.responses ?? {}).flatMap(([status, response]): Finding[] => {
        if (!OWNED_ERROR_STATUSES.has(status)) return [];
        const resolved = deref<ResponseObject>(context.document, response);
        const schema = resolved && jsonSchemaOf(resolved);
        if (!schema || isErrorEnvelope(deref<SchemaObject>(context.document, schema))) return [];
        const where = isReference(response) ? response.$ref : `${operation.path} ${operation.method} ${status}`;
        if (reported.has(where)) return []; // a shared response is reported once
        reported.add(where);
        return [{ at: ['paths', operation.path, operation.method, 'responses', status], message: `the ${status} body is not the error envelope { error: { code, message } }: the merge replaces it`, operation }];
      }),
    );
  },
};

function isErrorEnvelope(schema: SchemaObject | undefined): boolean {
  const error = schema?.properties?.error as SchemaObject | undefined;
  return error !== undefined && (isReference(error) || ('code' in (error.properties ?? {}) && 'message' in (error.properties ?? {})));
}
