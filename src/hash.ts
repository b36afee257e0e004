/** Content hashes: of inputs (the manifest's fingerprint) and of outputs (hand-edit detection). */
import { createHash } from 'node:crypto';

export function sha256(content: string | Buffer): string {
  return createHash('sha256').update(content).digest('hex');
}
