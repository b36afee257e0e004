/** The default auth scaffold: the credentials listed in API_TOKENS and API_KEYS, with their scopes. */
import type { Authenticate } from '../../../src/runtime/server/generated/conventions/auth.js';

let authenticate: Authenticate;

beforeAll(async () => {
  // Read once, when the module loads.
  process.env.API_TOKENS = ' writer:catalog:write  reviews:write , reader ';
  process.env.API_KEYS = 'key1:catalog:write';
  ({ authenticate } = await import('../../../src/runtime/server/auth.js'));
});

test('a listed token is a principal with its scopes, named by position, never by secret', async () => {
  expect(await authenticate({ scheme: 'bearer', secret: 'writer' })).toEqual({ id: 'bearer-1', scheme: 'bearer', scopes: ['catalog:write', 'reviews:write'] });
  expect(await authenticate({ scheme: 'bearer', secret: 'reader' })).toEqual({ id: 'bearer-2', scheme: 'bearer', scopes: [] });
});

test('a secret counts only in its own scheme', async () => {
  expect(await authenticate({ scheme: 'apiKey', secret: 'key1' })).toMatchObject({ id: 'apiKey-1' });
  expect(await authenticate({ scheme: 'bearer', secret: 'key1' })).toBeUndefined();
});

test.each(['', 'writ', 'writer ', 'writer:catalog:write'])('%j is not a credential', async (secret) => {
  expect(await authenticate({ scheme: 'bearer', secret })).toBeUndefined();
});
