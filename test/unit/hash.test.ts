/** Input hashes ignore line ends (a CRLF checkout is the same spec); output hashes do not. */
import { sha256, specHash } from '../../src/hash.js';

test('a spec hashes the same with LF and CRLF line ends, and as bytes or text', () => {
  const lf = 'openapi: 3.1.0\ninfo:\n  title: t\n';
  expect(specHash(lf.replace(/\n/g, '\r\n'))).toBe(specHash(lf));
  expect(specHash(Buffer.from(lf))).toBe(sha256(lf));
});

test('a lone CR is content, not a line end', () => {
  expect(specHash('a\rb\n')).not.toBe(specHash('a\nb\n'));
});
