/**
 * Authentication (conventions §5). A spec that declares security keeps its
 * own; one that declares none gets Bearer or X-API-Key on every operation,
 * under the scheme names the conventions were given (a scheme of the spec's
 * own named `bearerAuth` is not what they mean by it).
 */
import { operationsOf, type OpenApiDocument } from '../openapi/document.js';
import type { ComponentNames } from './component-names.js';
import type { ConventionFragments } from './components.js';

export function declaresSecurity(document: OpenApiDocument): boolean {
  if (document.security !== undefined) return true;
  for (const { operation } of operationsOf(document)) if (operation.security !== undefined) return true;
  return false;
}

export function applyDefaultSecurity(document: OpenApiDocument, fragments: ConventionFragments, names: ComponentNames): void {
  if (declaresSecurity(document)) return;
  const schemes = Object.fromEntries(Object.entries(fragments.securitySchemes ?? {}).map(([name, scheme]) => [names.name('securitySchemes', name), scheme]));
  const components = (document.components ??= {});
  components.securitySchemes = { ...schemes, ...components.securitySchemes };
  document.security = Object.keys(schemes).map((name) => ({ [name]: [] }));
}
