/**
 * Project files: a README scaffold (written once, then the user's) and a
 * generated `.gitattributes` that marks generated files as such, so code
 * review collapses them.
 */
import type { Target } from '../target.js';

/** Generated paths as .gitattributes patterns; kept in step with the targets' outputs. */
const GENERATED_PATTERNS = ['openapi.merged.yaml', 'src/generated/**', 'src/client/**', 'test/conformance/**', '.specforge/manifest.json', '.gitattributes'];

export const projectTarget: Target = {
  name: 'project',
  async render({ model, renderer, specName }) {
    const view = { title: model.title, version: model.version, specName, basePath: model.basePath };
    return [
      { path: 'README.md', contents: renderer.render('project/README.md.hbs', view), kind: 'scaffold', format: 'as-is' },
      {
        path: '.gitattributes',
        contents: renderer.render('project/gitattributes.hbs', { generated: GENERATED_PATTERNS }),
        kind: 'generated',
        format: 'as-is',
      },
    ];
  },
};
