/** The route tree: one step per path segment, literals before parameters, 405 with the methods a path has. */
import { routeTree, unmatchedBy, within } from '../../../src/runtime/server/generated/conventions/router.js';
import { ApiError } from '../../../src/runtime/server/generated/conventions/errors.js';

function tree() {
  const routes = routeTree<string>();
  routes.add('/authors', 'get', 'listAuthors');
  routes.add('/authors', 'post', 'createAuthor');
  routes.add('/authors/:author_id', 'get', 'getAuthor');
  routes.add('/authors/me', 'get', 'getMe');
  routes.add('/authors/:author_id/books/:book_id', 'delete', 'removeBook');
  routes.add('/authors/me/books/latest', 'get', 'getMyLatestBook');
  return routes;
}

test('a path finds its route and names its parameters as the route does', () => {
  expect(tree().match('/authors/42/books/7', 'DELETE')).toEqual({ target: 'removeBook', params: { author_id: '42', book_id: '7' } });
});

test('a literal segment wins over a parameter (OpenAPI: concrete paths first)', () => {
  expect(tree().match('/authors/me', 'GET')).toEqual({ target: 'getMe', params: {} });
});

test('a parameter still matches where the literal leads nowhere', () => {
  expect(tree().match('/authors/me/books/9', 'DELETE')).toEqual({ target: 'removeBook', params: { author_id: 'me', book_id: '9' } });
});

test('parameters are percent-decoded; bad percent-encoding is a 400', () => {
  expect(tree().match('/authors/J%C3%BCrgen%2F2', 'GET')).toMatchObject({ params: { author_id: 'Jürgen/2' } });
  expect(() => tree().match('/authors/%E0%A4%A', 'GET')).toThrow(ApiError);
});

test('a trailing slash is the same path; an empty segment is no parameter', () => {
  expect(tree().match('/authors/', 'GET')).toMatchObject({ target: 'listAuthors' });
  expect(tree().match('/authors//books/7', 'DELETE')).toBeUndefined();
});

test('HEAD is answered by GET', () => {
  expect(tree().match('/authors', 'HEAD')).toMatchObject({ target: 'listAuthors' });
});

test('another method on a known path gives the methods it allows (with HEAD where GET is)', () => {
  expect(tree().match('/authors', 'DELETE')).toEqual({ allow: ['HEAD', 'GET', 'POST'] });
  expect(tree().match('/authors/1/books/2', 'GET')).toEqual({ allow: ['DELETE'] });
});

test('an unknown path matches nothing', () => {
  expect(tree().match('/publishers', 'GET')).toBeUndefined();
  expect(tree().match('/authors/1/books', 'GET')).toBeUndefined();
});

describe('within: the path below the base path, on a segment boundary', () => {
  test.each([
    ['/api/v1/authors', '/api/v1', '/authors'],
    ['/api/v1', '/api/v1', ''],
    ['/api/v1authors', '/api/v1', undefined],
    ['/other', '/api/v1', undefined],
    ['/authors', '', '/authors'],
  ])('%s under %s', (path, basePath, below) => {
    expect(within(path, basePath)).toBe(below);
  });
});

describe('unmatchedBy: an unknown path is 404, the path of another version 406', () => {
  const statusOf = (basePath: string, path: string) => (unmatchedBy({ basePath, version: 1 })(path) as ApiError).status;
  test.each([
    ['/api/v1', '/api/v2/authors', 406],
    ['/api/v1', '/api/v1/nothing', 404],
    ['/api/v1', '/other', 404],
    // Before: with the version in the spec's paths (base path ''), every unknown path was 406 "Version / is not served".
    ['', '/', 404],
    ['', '/zen', 404],
    ['', '/api/v1/nothing', 404],
    ['', '/api/v2/dialogs', 406],
    ['', '/v2/dialogs', 406],
  ])('under %j, %s → %i', (basePath, path, status) => {
    expect(statusOf(basePath, path)).toBe(status);
  });
});

// Before: GitHub's `/compare/{base}...{head}` and `/compare/{basehead}` shared one parameter node, and the later route
// took every `GET /compare/<x>`, its validator then asking for base and head.
describe('a segment mixing text and parameters', () => {
  function compare() {
    const routes = routeTree<string>();
    routes.add('/compare/:basehead', 'get', 'compareBasehead');
    routes.add('/compare/{base}...{head}', 'get', 'compareBaseHead');
    routes.add('/files/{name}.json', 'get', 'getJson');
    return routes;
  }

  test('matches its pattern, each parameter named and decoded', () => {
    expect(compare().match('/compare/main...feature%2Fx', 'GET')).toEqual({ target: 'compareBaseHead', params: { base: 'main', head: 'feature/x' } });
    expect(compare().match('/files/report.json', 'GET')).toEqual({ target: 'getJson', params: { name: 'report' } });
  });

  test('leaves a segment it does not match to the whole-segment parameter beside it', () => {
    expect(compare().match('/compare/main', 'GET')).toEqual({ target: 'compareBasehead', params: { basehead: 'main' } });
    expect(compare().match('/files/report.xml', 'GET')).toBeUndefined();
  });
});
