/**
 * The property-based checks (`test/conformance/properties.ts`) that apply to
 * an operation: random bodies where it takes one, random queries where it
 * reads, random ids where it reads an item, random sequences where it creates. Their names say `property:`, so
 * a report tells them from the example-based checks.
 */
import type { OperationModel, ResourceModel } from '../../../model/index.js';
import { deref, type OpenApiDocument, type SchemaObject } from '../../../openapi/document.js';
import type { ResourcePlan } from '../../../runtime/conformance/plan.js';
import { isWritableQuery } from './schemas.js';
import { checkTest, type TestView } from './view.js';

const property = (operation: OperationModel, outcome: string, check: string): TestView =>
  checkTest('properties', `${operation.httpMethod} ${operation.path} → property: ${outcome}`, check, operation.operationId);

const BODY_KINDS = new Set(['create', 'replace', 'update']);

export function propertyTests(document: OpenApiDocument, operation: OperationModel, resource: ResourceModel | undefined, plan: ResourcePlan | undefined): TestView[] {
  if (!plan || !resource || resource.singleton) return [];
  const tests: TestView[] = [];
  if (BODY_KINDS.has(operation.kind) && operation.requestBody?.jsonContentType) {
    tests.push(property(operation, 'random valid bodies are accepted and answered as the spec says', 'acceptsRandomValidBodies'));
    tests.push(property(operation, 'random bodies that break one rule answer the validation error', 'rejectsRandomViolations'));
  }
  if ((operation.kind === 'list' || operation.kind === 'read') && operation.parameters.query.some(isWritableQuery)) {
    tests.push(property(operation, 'random valid queries never answer 5xx and are answered as the spec says', 'answersRandomQueries'));
  }
  if (operation.kind === 'read' && hasPlainId(document, operation, plan.idParam)) {
    tests.push(property(operation, 'random ids answer 404 in the error envelope, never 5xx', 'answersRandomIds'));
  }
  if (operation.kind === 'create' && plan.sample !== undefined) {
    tests.push(property(operation, `random sequences of ${sequenceOf(plan)} keep ${resource.name}'s invariants`, 'keepsInvariants'));
  }
  return tests;
}

/**
 * Whether the operation's path names the item by an id of one type: a path
 * carries text, and text that is both an integer and a string (`0`) matches
 * no `oneOf` of the two (Directus's `/items/{collection}/{id}`).
 */
function hasPlainId(document: OpenApiDocument, operation: OperationModel, idParam: string | undefined): boolean {
  const parameter = operation.parameters.path.find((candidate) => candidate.name === idParam);
  const schema = parameter && deref<SchemaObject>(document, parameter.schema);
  return schema !== undefined && schema.oneOf === undefined && schema.anyOf === undefined;
}

/** The operations a random sequence calls, in the order of their kinds. */
function sequenceOf(plan: ResourcePlan): string {
  const kinds = (['create', 'read', 'update', 'replace', 'list', 'delete'] as const).filter((kind) => plan.operations[kind] !== undefined);
  return kinds.length > 1 ? `${kinds.slice(0, -1).join(', ')} and ${kinds.at(-1)}` : kinds[0]!;
}
