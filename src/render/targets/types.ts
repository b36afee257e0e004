/**
 * `src/generated/types.ts`: openapi-typescript's types of the merged spec,
 * printed on the merged spec's worker (document-work.ts) while the other
 * targets render here; a run that finds its output up to date never loads it.
 */
import { diagnostic, SpecforgeError } from '../../diagnostics.js';
import type { FilePart, RenderedFile, Target } from '../target.js';
import { typesOf } from './document-work.js';

const MARKER = '/*@@specforge-types@@*/';
const TEMPLATE = 'types/types.ts.hbs';

export const typesTarget: Target = {
  name: 'types',
  async render({ document, renderer }) {
    const rendered = renderer.render(TEMPLATE, { types: MARKER });
    const pieces = rendered.text.split(MARKER);
    if (pieces.length !== 2) {
      throw new SpecforgeError([diagnostic('TEMPLATE_ERROR', `${TEMPLATE} must print {{types}} exactly once; it prints it ${pieces.length - 1} times`)]);
    }
    const [before = '', after = ''] = pieces;
    const file = async (): Promise<RenderedFile> => {
      const declarations = await typesOf(document);
      // In form, the text around the types ends its last line as prettier does: no blank line after it.
      const around = (text: string): FilePart => (rendered.inForm ? { text: text.replace(/\n+$/, '\n'), as: 'verbatim' } : { text, as: 'statements' });
      const parts: FilePart[] = [...(before.trim() === '' ? [] : [around(before)]), ...declarations];
      if (after.trim() !== '') parts.push(around(after));
      return { path: 'src/generated/types.ts', parts, kind: 'generated', format: 'typescript' };
    };
    return [file()];
  },
};
