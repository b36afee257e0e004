/** Content hashes: of inputs (the manifest's fingerprint) and of outputs (hand-edit detection). */
import { isUtf8 } from 'node:buffer';
import { createHash } from 'node:crypto';

export function sha256(content: string | Uint8Array): string {
  return createHash('sha256').update(typeof content === 'string' ? utf8(content) : content).digest('hex');
}

const encoder = new TextEncoder();

/**
 * A text's UTF-8 bytes. On Node 20, TextEncoder is 15 times faster than
 * what `hash.update(text)`, `Buffer.from(text)` and `writeFileSync(fd, text)`
 * do (GitHub's output, 55 MB: 20 ms against 0.35 s), with the same bytes.
 */
export function utf8(text: string): Uint8Array {
  return encoder.encode(text);
}

/**
 * A spec file's hash, line ends aside: the same spec checked out with CRLF (Git for Windows'
 * default) parses the same and generates the same output, so it must not make the manifest stale.
 * Outputs are hashed exactly: their line ends are the generated .gitattributes' to keep.
 */
export function specHash(content: string | Buffer): string {
  // Bytes with no CR that decode as they are hash as their text would: GitHub's 13 MB spec need not be decoded and encoded again (0.2 s).
  if (Buffer.isBuffer(content) && !content.includes(CR) && isUtf8(content)) return sha256(content);
  return sha256(content.toString().replace(/\r\n/g, '\n'));
}

const CR = 0x0d;
