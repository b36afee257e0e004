/**
 * `src/generated/types.ts`: openapi-typescript's types of the merged spec.
 * They are printed on a worker thread while the other targets render here:
 * loading openapi-typescript and TypeScript alone takes 0.5 s, and a run
 * that finds its output up to date never pays for it.
 */
import { diagnostic, SpecforgeError } from '../../diagnostics.js';
import type { OpenApiDocument } from '../../openapi/document.js';
import { compiledWorker, runOnWorker } from '../../threads.js';
import type { FilePart, RenderedFile, Target } from '../target.js';

const WORKER = compiledWorker(new URL('./types-worker.js', import.meta.url));

const MARKER = '/*@@specforge-types@@*/';
const TEMPLATE = 'types/types.ts.hbs';

export const typesTarget: Target = {
  name: 'types',
  async render({ document, renderer }) {
    const pieces = renderer.render(TEMPLATE, { types: MARKER }).text.split(MARKER);
    if (pieces.length !== 2) {
      throw new SpecforgeError([diagnostic('TEMPLATE_ERROR', `${TEMPLATE} must print {{types}} exactly once; it prints it ${pieces.length - 1} times`)]);
    }
    const [before = '', after = ''] = pieces;
    const file = async (): Promise<RenderedFile> => {
      const declarations = await declarationParts(document);
      const parts: FilePart[] = [...(before.trim() === '' ? [] : [{ text: before, as: 'statements' as const }]), ...declarations];
      if (after.trim() !== '') parts.push({ text: after, as: 'statements' });
      return { path: 'src/generated/types.ts', parts, kind: 'generated', format: 'typescript' };
    };
    return [file()];
  },
};

/** The declarations' parts, from the worker where there is one (compiled code), else printed here. */
async function declarationParts(document: OpenApiDocument): Promise<FilePart[]> {
  if (WORKER) return runOnWorker<FilePart[]>(WORKER, document, 'types');
  const { printTypes } = await import('./types-print.js');
  return [...printTypes(document)];
}
