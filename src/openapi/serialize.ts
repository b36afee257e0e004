/** A spec as text: YAML (no anchors, no line folding) or 2-space JSON, both ending in a newline. */
import { stringify } from 'yaml';
import type { OpenApiDocument } from './document.js';

export function serializeSpec(document: OpenApiDocument, format: 'yaml' | 'json'): string {
  if (format === 'json') return JSON.stringify(document, null, 2) + '\n';
  // Shared objects are written out where they are used, never as &anchors.
  return stringify(document, { lineWidth: 0, aliasDuplicateObjects: false, indentSeq: true });
}
