/**
 * `specforge lint`: the conventions' rules applied to the user's spec before
 * anything is merged or generated. Each rule has a stable code and a default
 * severity; `x-specforge.lint.rules` turns a rule off or changes its
 * severity for the API, a path item or one operation.
 */
import { EXTENSION } from '../config.js';
import type { ConventionFragments } from '../conventions/index.js';
import { diagnostic, toPointer, type Diagnostic, type DiagnosticCode, type Severity } from '../diagnostics.js';
import { operationsOf, type OpenApiDocument } from '../openapi/document.js';
import type { Finding, LintContext, LintRule } from './rule.js';
import { conventionErrorBodies, conventionParameters } from './rules/ownership.js';
import { boundedInput, closedAllOf, fieldCasing } from './rules/inputs.js';
import { listReturnsArray, mediaNotServed, mediaUnsupported, operationId, operationIdUnique, pathParameters } from './rules/operations.js';
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
  mediaNotServed,
  mediaUnsupported,
  fieldCasing,
  closedAllOf,
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

export function lintSpec(document: OpenApiDocument, fragments: ConventionFragments): Diagnostic[] {
  const api = lintSettings(document);
  const context: LintContext = {
    document,
    operations: [...operationsOf(document)],
    plurals: new Set((api.plurals ?? []).map((word) => word.toLowerCase())),
    fragments,
  };
  return RULES.flatMap((rule) => {
    const apiSetting = api.rules?.[rule.code] ?? rule.severity;
    // One diagnostic per place and message. A schema shared by several operations is reported
    // unless all of them turned the rule off, at the most severe of their settings.
    const kept = new Map<string, { finding: Finding; severity: Severity }>();
    for (const finding of rule.check(context)) {
      const setting = localSetting(context, finding, rule.code) ?? apiSetting;
      if (setting === 'off') continue;
      const key = `${finding.at.join('/')}\u0000${finding.message}`;
      const before = kept.get(key);
      if (!before || (before.severity === 'warning' && setting === 'error')) kept.set(key, { finding, severity: setting });
    }
    return [...kept.values()].map(({ finding, severity }) =>
      diagnostic(rule.code, finding.message, { pointer: toPointer(finding.at) }, { severity }),
    );
  });
}

/**
 * The setting for a rule where a finding stands: its operation's, else its
 * path item's; a path's own finding (a verb in it) also takes the setting
 * its operations agree on.
 */
function localSetting(context: LintContext, finding: Finding, code: DiagnosticCode): RuleSetting | undefined {
  const ruleOf = (owner: unknown) => lintSettings(owner).rules?.[code];
  if (finding.operation) return ruleOf(finding.operation.operation) ?? ruleOf(finding.operation.pathItem);
  if (finding.path === undefined) return undefined;
  const own = ruleOf(context.document.paths?.[finding.path]);
  if (own !== undefined) return own;
  const settings = new Set(context.operations.filter((o) => o.path === finding.path).map((o) => ruleOf(o.operation)));
  return settings.size === 1 ? [...settings][0] : undefined;
}


export const LINT_CODES = RULES.map((rule) => rule.code);
