/** The merged spec itself, `openapi.merged.yaml`: the source every other target reads. */
import { serializeSpec } from '../../openapi/serialize.js';
import type { Target } from '../target.js';

export const specTarget: Target = {
  name: 'spec',
  async render({ document }) {
    return [{ path: 'openapi.merged.yaml', contents: serializeSpec(document, 'yaml'), kind: 'generated', format: 'as-is' }];
  },
};
