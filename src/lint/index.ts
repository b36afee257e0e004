/**
 * `specforge lint`: the conventions' rules applied to the user's spec before
 * anything is merged or generated. Each rule has a stable code and a default
 * severity; `x-specforge.lint.rules` turns a rule off or changes its
 * severity for the API, a path item or one operation.
 */
import { EXTENSION } from '../config.js';
import { diagnostic, toPointer, type Diagnostic, type DiagnosticCode, type Severity } from '../diagnostics.js';
import { operationsOf, type OpenApiDocument } from '../openapi/document.js';
import type { LintContext, LintOperation, LintRule } from './rule.js';
import { conventionErrorBodies, conventionParameters } from './rules/ownership.js';
import { boundedInput, fieldCasing } from './rules/inputs.js';
import { listReturnsArray, operationId, operationIdUnique, pathParameters } from './rules/operations.js';
import { collectionPlural, pathCasing, pathShapeRule, pathVerb, versionSegment } from './rules/paths.js';
import { credentialsInQuery, queryKeyScheme, securitySchemes } from './rules/security.js';

export const RULES: readonly LintRule[] = [
  pathVerb,
  collectionPlural,
  pathCasing,
  pathShapeRule,
  versionSegment,
  operationId,
  operationIdUnique,
  pathParameters,
  listReturnsArray,
  fieldCasing,
  boundedInput,
  securitySchemes,
  queryKeyScheme,
  credentialsInQuery,
  conventionParameters,
  conventionErrorBodies,
];

export type RuleSetting = Severity | 'off';

interface LintSettings {
  rules?: Partial<Record<DiagnosticCode, RuleSetting>>;
  plurals?: string[];
}

const lintSettings = (owner: unknown): LintSettings =>
  ((owner as Record<string, { lint?: LintSettings } | undefined> | undefined)?.[EXTENSION]?.lint ?? {});

export function lintSpec(document: OpenApiDocument): Diagnostic[] {
  const api = lintSettings(document);
  const context: LintContext = {
    document,
    operations: [...operationsOf(document)],
    plurals: new Set((api.plurals ?? []).map((word) => word.toLowerCase())),
  };
  return RULES.flatMap((rule) => {
    const apiSetting = api.rules?.[rule.code] ?? rule.severity;
    return rule.check(context).flatMap((finding) => {
      const setting = finding.operation ? settingFor(finding.operation, rule.code) ?? apiSetting : apiSetting;
      if (setting === 'off') return [];
      return [diagnostic(rule.code, finding.message, { pointer: toPointer(finding.at) }, { severity: setting })];
    });
  });
}

/** An operation's own setting for a rule, else its path item's. */
function settingFor({ operation, pathItem }: LintOperation, code: DiagnosticCode): RuleSetting | undefined {
  return lintSettings(operation).rules?.[code] ?? lintSettings(pathItem).rules?.[code];
}

export const LINT_CODES = RULES.map((rule) => rule.code);
