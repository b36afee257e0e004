/**
 * A spec as the render stage sees it, for view-model unit tests: the merged
 * document (conventions applied) and the API model built from it.
 */
import { resolveConfig } from '../src/config.js';
import { applyConventions } from '../src/conventions/index.js';
import { buildModel, type ApiModel } from '../src/model/index.js';
import type { OpenApiDocument } from '../src/openapi/document.js';
import { loadResources } from '../src/resources.js';

const { fragments } = loadResources();

export function mergedModel(spec: OpenApiDocument): { document: OpenApiDocument; model: ApiModel } {
  const { document } = applyConventions(spec, fragments);
  return { document, model: buildModel(document, resolveConfig(document)) };
}
