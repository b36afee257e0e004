/**
 * Operations on summary (/tasks/{task_id}/summary). specforge created this file once; it is yours.
 * The default answers from the store (../store/); replace the
 * bodies with your own logic, keeping each signature.
 */
import type { SummaryHandlers } from '../generated/handlers.js';
import { store } from '../store/index.js';

export const summary: SummaryHandlers = {
  getTaskSummary: (request) => store.summary.get(request),
};
