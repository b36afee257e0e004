/** What a lint rule is, and what it is given to look at. */
import type { ConventionFragments } from '../conventions/index.js';
import type { DiagnosticCode, Severity } from '../diagnostics.js';
import type { HttpMethod, OpenApiDocument, OperationObject, PathItemObject } from '../openapi/document.js';

export interface LintOperation {
  path: string;
  method: HttpMethod;
  pathItem: PathItemObject;
  operation: OperationObject;
}

export interface LintContext {
  document: OpenApiDocument;
  operations: LintOperation[];
  /** Words the user declares plural beyond the dictionary (`x-specforge.lint.plurals`). */
  plurals: ReadonlySet<string>;
  /** The conventions' own components (`schemas/*.yaml`), to tell them from the spec's. */
  fragments: ConventionFragments;
}

export interface Finding {
  /** Path of tokens into the document where the problem stands. */
  at: string[];
  message: string;
  /** The operation it belongs to, for per-operation settings. */
  operation?: LintOperation;
  /** The path it belongs to (path rules), for per-path-item settings. */
  path?: string;
}

export interface LintRule {
  code: DiagnosticCode;
  severity: Severity;
  check(context: LintContext): Finding[];
}
