/** `src/generated/types.ts`: openapi-typescript's types of the merged spec. */
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import type { Target } from '../target.js';

export const typesTarget: Target = {
  name: 'types',
  async render({ document, renderer }) {
    // openapi-typescript may annotate the document it reads: give it a copy.
    const nodes = await openapiTS(structuredClone(document) as unknown as OpenAPI3, { silent: true });
    const types = astToString(nodes);
    const contents = renderer.render('types/types.ts.hbs', { types });
    return [{ path: 'src/generated/types.ts', contents, kind: 'generated', format: 'typescript' }];
  },
};
