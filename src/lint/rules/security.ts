/**
 * Security rules (conventions §5): secured operations use the conventions'
 * two schemes, Bearer and X-API-Key; credentials never travel in a query
 * string (they end up in logs and browser histories).
 */
import { effectiveSecurity } from '../../openapi/security.js';
import { queryParameters } from '../parameters.js';
import type { Finding, LintRule } from '../rule.js';

/** Matched against the name lower-cased without `-` and `_`: `api-key`, `access_token`, `privateToken`. */
const CREDENTIAL_NAMES = /^(accesstoken|apikey|authtoken|privatetoken|token|secret|password|clientsecret)$/;

interface Scheme {
  type?: string;
  scheme?: string;
  in?: string;
  name?: string;
}

export const securitySchemes: LintRule = {
  code: 'LINT_SECURITY_SCHEME',
  severity: 'warning',
  check(context) {
    const schemes = (context.document.components?.securitySchemes ?? {}) as Record<string, Scheme>;
    const used = new Set(context.operations.flatMap(({ operation }) => effectiveSecurity(context.document, operation).flatMap(Object.keys)));
    return [...used].flatMap((name): Finding[] => {
      const scheme = schemes[name];
      if (!scheme) return [];
      const bearer = scheme.type === 'http' && scheme.scheme?.toLowerCase() === 'bearer';
      const apiKey = scheme.type === 'apiKey' && scheme.in === 'header' && scheme.name?.toLowerCase() === 'x-api-key';
      if (bearer || apiKey || (scheme.type === 'apiKey' && scheme.in === 'query')) return [];
      return [{ at: ['components', 'securitySchemes', name], message: `scheme "${name}" is neither Bearer (Authorization) nor an X-API-Key header` }];
    });
  },
};

/** A scheme that reads its key from the URL: certain, so an error. */
export const queryKeyScheme: LintRule = {
  code: 'LINT_QUERY_KEY_SCHEME',
  severity: 'error',
  check: (context) =>
    Object.entries((context.document.components?.securitySchemes ?? {}) as Record<string, Scheme>)
      .filter(([, scheme]) => scheme.type === 'apiKey' && scheme.in === 'query')
      .map(([name]): Finding => ({ at: ['components', 'securitySchemes', name], message: `scheme "${name}" takes its key from the query string` })),
};

/** A query parameter named like a credential: a guess from its name, so a warning. */
export const credentialsInQuery: LintRule = {
  code: 'LINT_CREDENTIAL_IN_QUERY',
  severity: 'warning',
  check(context) {
    return context.operations.flatMap((operation) =>
      queryParameters(context, operation)
        .filter(({ parameter }) => CREDENTIAL_NAMES.test(parameter.name.toLowerCase().replace(/[-_]/g, '')))
        .map(({ parameter, at }): Finding => ({ at, message: `query parameter "${parameter.name}" looks like a credential`, operation })),
    );
  },
};
