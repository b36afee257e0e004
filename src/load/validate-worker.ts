/**
 * Checks one bundled document on its own thread (see validateBeside in
 * ./index.ts): the lint rules, when asked, then validation, which may change
 * its copy (it folds scheme names) and so comes second.
 */
import { parentPort } from 'node:worker_threads';
import { validateOpenApi } from './validate.js';
import { lintBeside, type BesideInput, type BesideOutput } from './beside.js';

parentPort!.on('message', async ({ document, lintFragments }: BesideInput) => {
  const lint = lintFragments === undefined ? undefined : lintBeside(document, lintFragments);
  const output: BesideOutput = { problems: await validateOpenApi(document), lint };
  parentPort!.postMessage(output);
});
