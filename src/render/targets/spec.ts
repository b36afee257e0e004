/** The merged spec itself, `openapi.merged.yaml`: the source every other target reads (written as YAML on the merged spec's worker). */
import type { Target } from '../target.js';
import { yamlOf } from './document-work.js';

export const specTarget: Target = {
  name: 'spec',
  async render({ document }) {
    const file = async () => ({ path: 'openapi.merged.yaml', contents: await yamlOf(document), kind: 'generated' as const, format: 'as-is' as const });
    return [file()];
  },
};
