/** Content hashes: of inputs (the manifest's fingerprint) and of outputs (hand-edit detection). */
import { createHash } from 'node:crypto';

export function sha256(content: string | Buffer): string {
  return createHash('sha256').update(content).digest('hex');
}

/**
 * A spec file's hash, line ends aside: the same spec checked out with CRLF (Git for Windows'
 * default) parses the same and generates the same output, so it must not make the manifest stale.
 * Outputs are hashed exactly: their line ends are the generated .gitattributes' to keep.
 */
export function specHash(content: string | Buffer): string {
  return sha256(content.toString().replace(/\r\n/g, '\n'));
}
