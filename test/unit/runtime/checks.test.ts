/** The suite's expectations agree with what the default store does. */
import { MemoryCollection } from '../../../src/runtime/server/store/memory.js';

// The suite's modules load the plan and the response validators as they are imported: given here (no api.json).
(globalThis as { specforgeConformanceWorker?: Map<string, unknown> }).specforgeConformanceWorker = new Map<string, unknown>([
  ['api', {}],
  ['validators', Promise.resolve({})],
]);
const { compareSorted } = await import('../../../src/runtime/conformance/checks.js');

type Row = Record<string, unknown>;

const STATES = ['open', null, 'closed'];
const sorted = (values: (string | null | undefined)[], direction: 1 | -1) =>
  [...values].sort((a, b) => compareSorted(a, b, direction, STATES));

// Before: the suite ranked null by its place in the enum, and so expected it first when sorting descending.
describe('sorting by an enum that lists null: null and missing values last in either direction', () => {
  test('the suite expects it', () => {
    expect(sorted(['closed', null, 'open', undefined], 1)).toEqual(['open', 'closed', null, undefined]);
    expect(sorted(['open', null, 'closed', undefined], -1)).toEqual(['closed', 'open', null, undefined]);
    expect(compareSorted(null, undefined, -1, STATES)).toBe(0);
  });

  test('the store does it', async () => {
    const issues = new MemoryCollection<Row>({ type: 'issues', shape: 'flat', idParam: 'id', ids: 'integer', sortOrders: { state: STATES } });
    for (const state of ['closed', null, 'open', undefined]) await issues.create({ path: {}, body: state === undefined ? {} : { state } });
    const states = async (descending: boolean) =>
      (await issues.list<Row>({ path: {}, list: { limit: 10, sort: [{ field: 'state', descending }], filters: {} } }))!.items.map((item) => item.state);
    expect(await states(false)).toEqual(['open', 'closed', null, undefined]);
    expect(await states(true)).toEqual(['closed', 'open', null, undefined]);
  });

  test('numbers and text as well', () => {
    expect([3, null, 1, 2].sort((a, b) => compareSorted(a, b, -1))).toEqual([3, 2, 1, null]);
    expect(['b', null, 'a'].sort((a, b) => compareSorted(a, b, 1))).toEqual(['a', 'b', null]);
  });
});
