/**
 * `specforge lint`: the conventions' rules applied to the user's spec before
 * anything is merged or generated. Each rule has a stable code and a default
 * severity; `x-specforge.lint.rules` turns a rule off or changes its
 * severity for the API, a path item or one operation.
 */
import { EXTENSION } from '../config.js';
import { diagnostic, toPointer, type Diagnostic, type DiagnosticCode, type Severity } from '../diagnostics.js';
import { operationsOf, type OpenApiDocument } from '../openapi/document.js';
import type { Finding, LintContext, LintRule } from './rule.js';
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
    const reported = new Set<string>();
    return rule.check(context).flatMap((finding) => {
      const setting = localSetting(document, finding, rule.code) ?? apiSetting;
      const pointer = toPointer(finding.at);
      // A schema shared by several operations is reported once, by the first whose settings keep it.
      if (setting === 'off' || reported.has(pointer)) return [];
      reported.add(pointer);
      return [diagnostic(rule.code, finding.message, { pointer }, { severity: setting })];
    });
  });
}

/** The setting for a rule where a finding stands: its operation's, else its path item's. */
function localSetting(document: OpenApiDocument, finding: Finding, code: DiagnosticCode): RuleSetting | undefined {
  const pathItem = finding.operation?.pathItem ?? (finding.path === undefined ? undefined : document.paths?.[finding.path]);
  return lintSettings(finding.operation?.operation).rules?.[code] ?? lintSettings(pathItem).rules?.[code];
}

export const LINT_CODES = RULES.map((rule) => rule.code);
