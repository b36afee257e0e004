/** The suite's spend of the rate limit, on answers made up here: a window may end during the spend. */
import type { Answer, OperationPlan, Suite } from '../../../src/runtime/conformance/harness.js';

// The suite's modules load the plan and the response validators as they are imported: given here (no api.json).
(globalThis as { specforgeConformanceWorker?: Map<string, unknown> }).specforgeConformanceWorker = new Map<string, unknown>([
  ['api', {}],
  ['validators', Promise.resolve({})],
]);
const { spendsTheRateLimit } = await import('../../../src/runtime/conformance/conventions.js');

const LIMIT = 3;

/** An answer within the window that resets at `reset`, `remaining` left in it (0 and `limited`: a 429). */
function answer(remaining: number, reset: number, limited = false): Answer {
  const headers = new Headers({
    'x-request-id': 'req-1',
    'x-ratelimit-limit': String(LIMIT),
    'x-ratelimit-remaining': String(remaining),
    'x-ratelimit-reset': String(reset),
    ...(limited ? { 'retry-after': '5' } : {}),
  });
  const body = limited ? { error: { code: 'RATE_LIMITED', message: 'Slow down.', request_id: 'req-1' } } : { data: [] };
  const text = JSON.stringify(body);
  return { status: limited ? 429 : 200, headers, bytes: new TextEncoder().encode(text), text, body };
}

/** The check, against a service that gives these answers in turn. */
function spend(answers: Answer[]): Promise<void> {
  const suite = { request: async () => answers.shift() } as unknown as Suite;
  return spendsTheRateLimit.run(suite, { status: 200, operationId: 'listThings' } as OperationPlan, undefined);
}

test('a window that ends during the spend: the next one counts afresh, down to its 429', async () => {
  // Before: "X-RateLimit-Remaining did not go down: 0, then 2", of a service that does as the conventions say.
  await expect(spend([answer(1, 1000), answer(0, 1000), answer(2, 1060), answer(1, 1060), answer(0, 1060), answer(0, 1060, true)])).resolves.toBeUndefined();
});

test('within one window, Remaining must go down, and the 429 come by the limit', async () => {
  await expect(spend([answer(2, 1000), answer(2, 1000)])).rejects.toThrow('X-RateLimit-Remaining did not go down: 2, then 2.');
  const late = [5, 4, 3, 2, 1].map((remaining) => answer(remaining, 1000));
  await expect(spend([...late, answer(0, 1000, true)])).rejects.toThrow('The 429 came after 5 requests in its window; X-RateLimit-Limit is 3.');
});
