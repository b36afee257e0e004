/** Compiles the request validators on their own thread (see compileValidatorsBeside). */
import { parentPort } from 'node:worker_threads';
import { compileValidators, type ValidatorInputs } from './validators.js';

parentPort!.on('message', (inputs: ValidatorInputs) => {
  parentPort!.postMessage(compileValidators(inputs));
});
