/** Which security requirements apply to an operation (OpenAPI §4.8.10, "security"). */
import type { OpenApiDocument, OperationObject, SecurityRequirement } from './document.js';

/** The requirements in force for an operation; `[]` or an empty alternative means public. */
export function effectiveSecurity(document: OpenApiDocument, operation: OperationObject): SecurityRequirement[] {
  return operation.security ?? document.security ?? [];
}

export function isSecured(requirements: SecurityRequirement[]): boolean {
  return requirements.length > 0 && requirements.every((alternative) => Object.keys(alternative).length > 0);
}
