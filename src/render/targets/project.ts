/**
 * Project files: a README scaffold (written once, then the user's) and a
 * generated `.gitattributes` that marks generated files as such, so code
 * review collapses them.
 */
import { commentText, fileStem, shellWord } from '../../model/names.js';
import { templateFile, type Target } from '../target.js';

/** Generated paths as .gitattributes patterns; kept in step with the targets' outputs. */
const GENERATED_PATTERNS = ['openapi.merged.yaml', 'src/generated/**', 'src/client/**', 'test/conformance/**', 'migrations/storage.json', '.specforge/manifest.json', '.specforge/scaffolds/**', '.gitattributes'];

export const projectTarget: Target = {
  name: 'project',
  async render({ model, renderer, specName }) {
    // Markdown prose takes the spec's text on one line; shell commands take it as one quoted word.
    const view = {
      title: commentText(model.title),
      version: commentText(model.version),
      specName: commentText(specName),
      specArgument: shellWord(specName),
      baseUrl: shellWord(`http://127.0.0.1:3000${model.basePath}`),
      // An image's name: lower-case ASCII, digits and dashes, whatever the title.
      packageName: fileStem(model.title, 'service'),
    };
    return [
      templateFile(renderer, 'project/README.md.hbs', 'README.md', view, 'scaffold'),
      templateFile(renderer, 'project/gitattributes.hbs', '.gitattributes', { generated: GENERATED_PATTERNS }, 'generated'),
      // The container: built in one stage, run in another with production dependencies only, as `node`.
      templateFile(renderer, 'project/Dockerfile.hbs', 'Dockerfile', view, 'scaffold'),
      templateFile(renderer, 'project/dockerignore.hbs', '.dockerignore', view, 'scaffold'),
      templateFile(renderer, 'project/compose.yaml.hbs', 'compose.yaml', view, 'scaffold'),
    ];
  },
};
