/**
 * What the load stage's worker does beside the next stages: validation, and
 * the lint rules on the same copy of the document (copying GitHub's spec to
 * another thread costs a third of a second, linting it a second).
 */
import type { ConventionFragments } from '../conventions/index.js';
import type { Diagnostic } from '../diagnostics.js';
import { lintOutcome, type LintOutcome } from '../lint/index.js';
import type { OpenApiDocument } from '../openapi/document.js';

export interface BesideInput {
  document: OpenApiDocument;
  /** Lint too, with these fragments (the conventions' parameters and error bodies, which some rules know). */
  lintFragments?: ConventionFragments | undefined;
}

export interface BesideOutput {
  problems: Diagnostic[];
  /** Undefined where the rules were not run, or threw: the caller runs them itself, and so sees the error as it is. */
  lint?: LintOutcome | undefined;
}

/** The rules on a document that may yet prove invalid (validation's problems then come first). */
export function lintBeside(document: OpenApiDocument, fragments: ConventionFragments): LintOutcome | undefined {
  try {
    return lintOutcome(document, fragments);
  } catch {
    return undefined;
  }
}
