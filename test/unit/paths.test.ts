import fc from 'fast-check';
import { join, posix } from 'node:path';
import { isInside, pathProblem } from '../../src/write/paths.js';

describe('pathProblem: a portable relative path, or why not', () => {
  test.each([
    ['src/a.ts'],
    ['README.md'],
    ['.gitignore'],
    ['test/conformance/jest.config.js'],
    ['a/..b/c..'], // dots inside a name are a name
    ['книги/файл.ts'],
  ])('%s is one', (path) => {
    expect(pathProblem(path)).toBeUndefined();
  });

  test.each([
    ['', 'is empty'],
    ['../victim.txt', 'has a `..` segment'],
    ['src/../../victim.txt', 'has a `..` segment'],
    ['a/./b', 'has a `.` segment'],
    ['.', 'has a `.` segment'],
    ['/etc/passwd', 'is absolute'],
    ['..\\..\\evil', 'contains a backslash'],
    ['src\\a.ts', 'contains a backslash'],
    ['C:/x', 'starts with a drive letter'],
    ['c:x', 'starts with a drive letter'],
    ['src/a.ts:stream', 'contains a colon'],
    ['a//b', 'has an empty segment'],
    ['a/', 'has an empty segment'],
    ['a\u0000b', 'contains a control character'],
    ['a\nb', 'contains a control character'],
    ['a\u001b[31mb', 'contains a control character'],
    ['a\u007fb', 'contains a control character'],
  ])('%j %s', (path, problem) => {
    expect(pathProblem(path)).toBe(problem);
  });

  describe('upward: a spec file relative to the spec folder', () => {
    test.each([['../shared/common.yaml'], ['../../x.yaml'], ['common.yaml']])('%s is one', (path) => {
      expect(pathProblem(path, { upward: true })).toBeUndefined();
    });
    test.each([
      ['..', 'names no file'],
      ['../a/../b', 'has a `..` segment'],
      ['/etc/passwd', 'is absolute'],
      ['..\\a', 'contains a backslash'],
      ['a\u0000', 'contains a control character'],
    ])('%j %s', (path, problem) => {
      expect(pathProblem(path, { upward: true })).toBe(problem);
    });
  });

  test('whatever the text, a path it accepts stays inside the folder it is joined to', () => {
    const segment = fc.oneof(fc.constantFrom('..', '.', '', 'a', 'C:', '\\', '..\\..'), fc.string({ unit: 'binary' }));
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 5 }), (segments) => {
        const path = segments.join('/');
        if (pathProblem(path) !== undefined) return;
        expect(isInside('/x/out', join('/x/out', path))).toBe(true);
        expect(posix.normalize(path)).toBe(path); // already in its one canonical form: one file, one manifest key
        expect(path.startsWith('/')).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('isInside: containment, not a prefix', () => {
  test.each([
    ['/x/out', '/x/out', true],
    ['/x/out', '/x/out/src/a.ts', true],
    ['/x/out', '/x/out/..foo', true],
    ['/x/out', '/x/out2', false],
    ['/x/out', '/x/out2/a', false],
    ['/x/out', '/x', false],
    ['/x/out', '/x/out/../victim.txt', false],
    ['/x/out', '/y', false],
  ])('%s holds %s: %s', (folder, path, inside) => {
    expect(isInside(folder, path)).toBe(inside);
  });
});
