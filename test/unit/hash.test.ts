/** Input hashes ignore line ends (a CRLF checkout is the same spec); output hashes do not. */
import { sha256, specHash, utf8 } from '../../src/hash.js';

test('a spec hashes the same with LF and CRLF line ends, and as bytes or text', () => {
  const lf = 'openapi: 3.1.0\ninfo:\n  title: t\n';
  expect(specHash(lf.replace(/\n/g, '\r\n'))).toBe(specHash(lf));
  expect(specHash(Buffer.from(lf))).toBe(sha256(lf));
});

test('a lone CR is content, not a line end', () => {
  expect(specHash('a\rb\n')).not.toBe(specHash('a\nb\n'));
});

test('a text hashes as its UTF-8 bytes, beyond ASCII and with a lone surrogate alike', () => {
  for (const text of ['plain', 'café ☕ 𝄞', 'lone \ud800 surrogate']) {
    expect(sha256(text)).toBe(sha256(Buffer.from(text, 'utf8')));
    expect(Buffer.from(utf8(text)).equals(Buffer.from(text, 'utf8'))).toBe(true);
  }
});

test('a spec\'s bytes hash as its text, whichever way the bytes are taken: CRLF, a BOM, beyond ASCII, not UTF-8 at all', () => {
  const texts = ['openapi: 3.1.0\r\ninfo: {}\r\n', '\ufeffopenapi: 3.1.0\n', 'title: café ☕ 𝄞\n', 'a\rb\n'];
  for (const text of texts) expect(specHash(Buffer.from(text, 'utf8'))).toBe(specHash(text));
  const notUtf8 = Buffer.from([0x61, 0xff, 0x0a]); // decodes to "a\ufffd\n"
  expect(specHash(notUtf8)).toBe(specHash(notUtf8.toString('utf8')));
  expect(specHash(Buffer.from([0x61, 0xff, 0x0d, 0x0a]))).toBe(specHash('a\ufffd\n'));
});

test('the digests manifests already hold stay as they were (CRLF, a BOM, bytes that are not UTF-8)', () => {
  expect(specHash(Buffer.from('openapi: 3.1.0\r\ninfo: {}\r\n'))).toBe('e7a2bc32d26efeb63745cf6b709dcb947bfa6478c5229d14050ca7d9bb3dd921');
  expect(specHash(Buffer.from('\ufeffopenapi: 3.1.0\n', 'utf8'))).toBe('3e5d32b87bed5ed648500d9c9704a5ca6765cdece26b7bc9944d2dfc616922c6');
  expect(specHash(Buffer.from([0x61, 0xff, 0x0a]))).toBe('ac8d6e1e901dac0630c12b995618b09b5711fe14ca07c2cd6dc97e0bb4f92616');
});
