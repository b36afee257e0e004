/**
 * Project files: a README scaffold (written once, then the user's) and a
 * generated `.gitattributes` that marks generated files as such, so code
 * review collapses them.
 */
import { templateFile, type Target } from '../target.js';

/** Generated paths as .gitattributes patterns; kept in step with the targets' outputs. */
const GENERATED_PATTERNS = ['openapi.merged.yaml', 'src/generated/**', 'src/client/**', 'test/conformance/**', '.specforge/manifest.json', '.gitattributes'];

export const projectTarget: Target = {
  name: 'project',
  async render({ model, renderer, specName }) {
    const view = { title: model.title, version: model.version, specName, basePath: model.basePath };
    return [
      templateFile(renderer, 'project/README.md.hbs', 'README.md', view, 'scaffold'),
      templateFile(renderer, 'project/gitattributes.hbs', '.gitattributes', { generated: GENERATED_PATTERNS }, 'generated'),
    ];
  },
};
