/**
 * `src/generated/types.ts`: openapi-typescript's types of the merged spec.
 * openapi-typescript and TypeScript load on first use (0.7 s), so a run that
 * finds its output up to date never pays for them.
 */
import { diagnostic, SpecforgeError } from '../../diagnostics.js';
import type { FilePart, Target } from '../target.js';

const MARKER = '/*@@specforge-types@@*/';
const TEMPLATE = 'types/types.ts.hbs';

export const typesTarget: Target = {
  name: 'types',
  async render({ document, renderer }) {
    const { printTypes } = await import('./types-print.js');
    const pieces = renderer.render(TEMPLATE, { types: MARKER }).split(MARKER);
    if (pieces.length !== 2) {
      throw new SpecforgeError([diagnostic('TEMPLATE_ERROR', `${TEMPLATE} must print {{types}} exactly once; it prints it ${pieces.length - 1} times`)]);
    }
    const [before = '', after = ''] = pieces;
    // Yielded one by one: each part goes to a format worker while the next is printed.
    function* parts(): Generator<FilePart> {
      if (before.trim() !== '') yield { text: before, as: 'statements' };
      yield* printTypes(document);
      if (after.trim() !== '') yield { text: after, as: 'statements' };
    }
    return [{ path: 'src/generated/types.ts', parts: parts(), kind: 'generated', format: 'typescript' }];
  },
};
