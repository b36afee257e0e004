/**
 * `src/generated/types.ts`: openapi-typescript's types of the merged spec.
 * They are printed on a worker thread while the other targets render here:
 * loading openapi-typescript and TypeScript alone takes 0.5 s, and a run
 * that finds its output up to date never pays for it.
 */
import { diagnostic, SpecforgeError } from '../../diagnostics.js';
import type { OpenApiDocument } from '../../openapi/document.js';
import { compiledWorker, runOnWorker, startEarly } from '../../threads.js';
import type { FilePart, RenderedFile, Target } from '../target.js';

const WORKER = compiledWorker(new URL('./types-worker.js', import.meta.url));

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
      const declarations = await declarationParts(document);
      // In form, the text around the types ends its last line as prettier does: no blank line after it.
      const around = (text: string): FilePart => (rendered.inForm ? { text: text.replace(/\n+$/, '\n'), as: 'verbatim' } : { text, as: 'statements' });
      const parts: FilePart[] = [...(before.trim() === '' ? [] : [around(before)]), ...declarations];
      if (after.trim() !== '') parts.push(around(after));
      return { path: 'src/generated/types.ts', parts, kind: 'generated', format: 'typescript' };
    };
    return [file()];
  },
};

/** Starts the types' worker now, so TypeScript and openapi-typescript load while the spec is read; the returned function ends it if unused. */
export function startTypesWorker(): () => void {
  return WORKER ? startEarly(WORKER) : () => {};
}

/** The declarations' parts, from the worker where there is one (compiled code), else printed here. */
async function declarationParts(document: OpenApiDocument): Promise<FilePart[]> {
  if (WORKER) return runOnWorker<FilePart[]>(WORKER, document, 'types');
  const { printTypes } = await import('./types-print.js');
  return [...printTypes(document)];
}
