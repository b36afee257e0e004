/** `handlerOf`: the route table's `invoke`, calling the named handler on its own group. */
import { handlerOf } from '../../../src/runtime/server/generated/conventions/operation.js';
import type { OperationRequest } from '../../../src/runtime/server/generated/conventions/operation.js';

type Request = OperationRequest<unknown, unknown, unknown>;

class Authors {
  constructor(private readonly prefix: string) {}
  async getAuthor(request: { path: { id: string } }) {
    return `${this.prefix}${request.path.id}`;
  }
}
const handlers = {
  authors: new Authors('author '),
  'odd group': { 'odd name': (request: { query: unknown }) => request.query },
};

const request = (fields: Partial<Request>): Request => ({
  path: {},
  query: {},
  body: undefined,
  headers: {},
  principal: undefined,
  requestId: 'r1',
  ...fields,
});

describe('handlerOf', () => {
  const handler = handlerOf<typeof handlers>();

  it('calls the named handler with the request, bound to its group', async () => {
    const invoke = handler('authors', 'getAuthor');
    await expect(invoke(handlers, request({ path: { id: '7' } }))).resolves.toBe('author 7');
  });

  it('reaches names that are not identifiers', () => {
    const invoke = handler('odd group', 'odd name');
    expect(invoke(handlers, request({ query: { q: 1 } }))).toEqual({ q: 1 });
  });

  it('looks the handler up when called, so the service may be given other handlers', async () => {
    const invoke = handler('authors', 'getAuthor');
    const other = { ...handlers, authors: new Authors('other ') };
    await expect(invoke(other, request({ path: { id: '1' } }))).resolves.toBe('other 1');
  });

  it('refuses, at compile time, a group or name the handlers lack', () => {
    // @ts-expect-error: no such group
    expect(() => handler('books', 'getBook')).not.toThrow();
    // @ts-expect-error: no such handler in the group
    expect(() => handler('authors', 'getBook')).not.toThrow();
  });
});
