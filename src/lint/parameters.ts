/** The query parameters the rules look at: an operation's own and its path item's. */
import { parseRef } from '../diagnostics.js';
import { deref, isReference, type ParameterObject, type Reference } from '../openapi/document.js';
import type { LintContext, LintOperation } from './rule.js';

export interface LocatedParameter {
  parameter: ParameterObject;
  /** Where it is written: a shared parameter (`$ref`) at its component, so it is reported once. */
  at: string[];
}

export function queryParameters(context: LintContext, operation: LintOperation): LocatedParameter[] {
  const located = (list: (ParameterObject | Reference)[] | undefined, base: string[]) =>
    (list ?? []).flatMap((parameter, index): LocatedParameter[] => {
      const resolved = deref<ParameterObject>(context.document, parameter);
      if (resolved?.in !== 'query') return [];
      return [{ parameter: resolved, at: isReference(parameter) ? parseRef(parameter.$ref) : [...base, 'parameters', String(index)] }];
    });
  const own = located(operation.operation.parameters, ['paths', operation.path, operation.method]);
  // An operation's parameter overrides the path item's of the same name.
  const inherited = located(operation.pathItem.parameters, ['paths', operation.path]).filter(
    ({ parameter }) => !own.some((mine) => mine.parameter.name === parameter.name),
  );
  return [...inherited, ...own];
}
