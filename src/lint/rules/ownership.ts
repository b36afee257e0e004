/**
 * What the conventions own: the paging, sorting, field-selection and search
 * parameters of lists and reads, and the body of every error response. A
 * spec that declares them differently is told so, because the merge will
 * replace its declaration with the convention's.
 */
import { resolveComponentNames, type ComponentSections } from '../../conventions/component-names.js';
import { OWNED_ERROR_STATUSES } from '../../conventions/errors.js';
import { parseRef } from '../../diagnostics.js';
import { classifyOperation, jsonSchemaOf } from '../../openapi/classify.js';
import { deref, isReference, type OpenApiDocument, type ResponseObject, type SchemaObject } from '../../openapi/document.js';
import { OWNED_QUERY_PARAMETERS } from '../../openapi/fields.js';
import { queryParameters } from '../parameters.js';
import type { Finding, LintContext, LintRule } from '../rule.js';

/** What the merge does with an owned parameter it finds on a list or a read. */
const READ_KEEPS = new Set(['fields', 'include']);

export const conventionParameters: LintRule = {
  code: 'LINT_CONVENTION_PARAMETER',
  severity: 'warning',
  check(context) {
    const theirs = installedParameters(context);
    return context.operations.flatMap((operation) => {
      const kind = classifyOperation(context.document, operation.path, operation.method, operation.operation);
      if (kind !== 'list' && kind !== 'read') return [];
      return queryParameters(context, operation).flatMap(({ parameter, at }): Finding[] => {
        if (!OWNED_QUERY_PARAMETERS.has(parameter.name) || isComponentOf(at, theirs)) return [];
        const schema = parameter.schema && deref<SchemaObject>(context.document, parameter.schema);
        const why = parameter.name === 'limit' && schema?.maximum === undefined ? ' (it has no maximum)' : '';
        const fate = kind === 'read' && !READ_KEEPS.has(parameter.name) ? 'drops it: single reads are not paged or sorted' : 'replaces it with theirs';
        return [{ at, message: `"${parameter.name}" belongs to the conventions${why}: the merge ${fate}`, operation }];
      });
    });
  },
};

export const conventionErrorBodies: LintRule = {
  code: 'LINT_CONVENTION_ERROR_BODY',
  severity: 'warning',
  check: (context) =>
    context.operations.flatMap((operation) =>
      Object.entries(operation.operation.responses ?? {}).flatMap(([status, response]): Finding[] => {
        if (!OWNED_ERROR_STATUSES.has(status)) return [];
        const resolved = deref<ResponseObject>(context.document, response);
        const schema = resolved && jsonSchemaOf(resolved);
        if (!schema || isErrorEnvelope(context.document, deref<SchemaObject>(context.document, schema))) return [];
        // A shared response is reported where it is written, once.
        const at = isReference(response) ? parseRef(response.$ref) : ['paths', operation.path, operation.method, 'responses', status];
        return [{ at, message: `the ${status} body is not the error envelope { error: { code, message } }: the merge replaces it`, operation }];
      }),
    ),
};

/**
 * The names the merge installs the conventions' parameters under in this
 * document: a merged spec refers to them (`SpecforgePage` where the spec has
 * a `Page` of its own), and they are no declaration of the spec's.
 */
function installedParameters(context: LintContext): Set<string> {
  const parameters = context.fragments.parameters ?? {};
  const components = (context.document.components ?? {}) as ComponentSections;
  const { names } = resolveComponentNames({ components, wanted: { parameters } });
  return new Set(Object.keys(parameters).map((name) => names.name('parameters', name)));
}

const isComponentOf = (at: string[], names: Set<string>) => at.length === 3 && at[0] === 'components' && at[1] === 'parameters' && names.has(at[2]!);

function isErrorEnvelope(document: OpenApiDocument, schema: SchemaObject | undefined): boolean {
  const error = schema?.properties?.error && deref<SchemaObject>(document, schema.properties.error);
  const members = error?.properties ?? {};
  return 'code' in members && 'message' in members;
}
