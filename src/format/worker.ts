/** A formatting worker thread: formats the jobs it is sent, one at a time. */
import { parentPort } from 'node:worker_threads';
import { formatJob, toFormatError, type FormatJob } from './prettier.js';

parentPort!.on('message', async ({ job }: { job: FormatJob }) => {
  try {
    parentPort!.postMessage({ text: await formatJob(job) });
  } catch (error) {
    const { message, line } = toFormatError(error);
    parentPort!.postMessage({ error: message, line });
  }
});
