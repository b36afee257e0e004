/**
 * Authentication (conventions §5). A spec that declares security keeps its
 * own; one that declares none gets Bearer or X-API-Key on every operation.
 */
import { operationsOf, type OpenApiDocument, type OperationObject, type SecurityRequirement } from '../openapi/document.js';
import type { ConventionFragments } from './components.js';

export function declaresSecurity(document: OpenApiDocument): boolean {
  if (document.security !== undefined) return true;
  for (const { operation } of operationsOf(document)) if (operation.security !== undefined) return true;
  return false;
}

export function applyDefaultSecurity(document: OpenApiDocument, fragments: ConventionFragments): void {
  if (declaresSecurity(document)) return;
  const schemes = fragments.securitySchemes ?? {};
  const components = (document.components ??= {});
  components.securitySchemes = { ...schemes, ...components.securitySchemes };
  document.security = Object.keys(schemes).map((name) => ({ [name]: [] }));
}

/** The requirements in force for an operation; `[]` or an empty alternative means public. */
export function effectiveSecurity(document: OpenApiDocument, operation: OperationObject): SecurityRequirement[] {
  return operation.security ?? document.security ?? [];
}

export function isSecured(requirements: SecurityRequirement[]): boolean {
  return requirements.length > 0 && requirements.every((alternative) => Object.keys(alternative).length > 0);
}
