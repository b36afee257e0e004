/** The scaffold package.json: what a newer specforge needs and the user's lacks, and adding only that. */
import { packageNeeds, withPackageNeeds } from '../../src/write/package-json.js';

const wanted = JSON.stringify({
  name: 'service',
  scripts: { test: 'jest', 'test:conformance': 'cross-env NODE_OPTIONS=--experimental-vm-modules jest' },
  dependencies: { koa: '^3.3.0' },
  devDependencies: { jest: '^30.5.2', 'cross-env': '^10.1.0' },
  overrides: { 'unrs-resolver': '1.12.2' },
});

const users = `{
  "name": "my-service",
  "version": "2.0.0",
  "scripts": { "test": "my own test", "lint": "eslint ." },
  "dependencies": { "koa": "^3.0.0", "pg": "^8.0.0" },
  "devDependencies": { "jest": "^29.0.0" }
}`;

describe('packageNeeds', () => {
  test('names each missing dependency, script and override with the value specforge writes', () => {
    expect(packageNeeds(wanted, users)).toEqual([
      { section: 'devDependencies', name: 'cross-env', value: '^10.1.0' },
      { section: 'scripts', name: 'test:conformance', value: 'cross-env NODE_OPTIONS=--experimental-vm-modules jest' },
      { section: 'overrides', name: 'unrs-resolver', value: '1.12.2' },
    ]);
  });

  test('a key the user has is theirs, whatever its value; a dependency may sit in either section', () => {
    const moved = JSON.stringify({ dependencies: { jest: '*', 'cross-env': '7', koa: '4' }, scripts: { 'test:conformance': 'x', test: 'y' }, overrides: { 'unrs-resolver': 'z' } });
    expect(packageNeeds(wanted, moved)).toEqual([]);
  });

  test("a package.json that is not a JSON object is the user's to fix: nothing is asked of it", () => {
    for (const broken of ['{ "name": ', '[]', 'null', '']) expect(packageNeeds(wanted, broken)).toEqual([]);
  });
});

describe('withPackageNeeds', () => {
  test('adds exactly the needs, keeps every other key, value and order, writes two spaces and a final newline', () => {
    const updated = withPackageNeeds(users, packageNeeds(wanted, users));
    expect(updated.endsWith('}\n')).toBe(true);
    expect(updated).toContain('\n  "name": "my-service",\n');
    const before = JSON.parse(users);
    const after = JSON.parse(updated);
    expect(Object.keys(after)).toEqual([...Object.keys(before), 'overrides']);
    expect(after).toEqual({
      ...before,
      scripts: { ...before.scripts, 'test:conformance': 'cross-env NODE_OPTIONS=--experimental-vm-modules jest' },
      devDependencies: { jest: '^29.0.0', 'cross-env': '^10.1.0' },
      overrides: { 'unrs-resolver': '1.12.2' },
    });
  });

  test('no needs: the same object back', () => {
    expect(JSON.parse(withPackageNeeds(users, []))).toEqual(JSON.parse(users));
  });
});
