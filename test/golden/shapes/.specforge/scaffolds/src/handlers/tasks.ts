/**
 * Operations on tasks (/tasks/{task_id}). specforge created this file once; it is yours.
 * The default answers from the store (../store/); replace the
 * bodies with your own logic, keeping each signature.
 */
import { ApiError } from '../generated/conventions/errors.js';
import type { TasksHandlers } from '../generated/handlers.js';
import { store } from '../store/index.js';

export const tasks: TasksHandlers = {
  listTasks: (request) => store.tasks.list(request),
  createTask: (request) => store.tasks.create(request),
  getTask: (request) => store.tasks.get(request),
  replaceTask: async (request) => (await store.tasks.replace(request)) !== undefined,
  closeTask: () => {
    throw new ApiError(
      { status: 501, code: 'NOT_IMPLEMENTED' },
      'POST /tasks/{task_id}/close is not implemented yet.',
    );
  },
};
