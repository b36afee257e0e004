/** Validates one bundled document on its own thread (see validateBeside in ./index.ts). */
import { parentPort } from 'node:worker_threads';
import { validateOpenApi } from './validate.js';

parentPort!.on('message', async (document: Record<string, unknown>) => {
  parentPort!.postMessage(await validateOpenApi(document));
});
