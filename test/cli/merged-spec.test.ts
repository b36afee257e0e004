/**
 * The merged spec a project holds, openapi.merged.yaml (written on the merged
 * spec's worker, beside its types), is what `specforge merge` writes: the
 * worker gives openapi-typescript the document only after it has written it,
 * since openapi-typescript adds to the document it is given (an enum for
 * each discriminator property).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES, runCli, scratchDir } from '../helpers.js';

test('openapi.merged.yaml of a spec with discriminators is the merged spec, byte for byte', async () => {
  const spec = join(FIXTURES, 'conformance/corpus/oneof-discriminator.yaml');
  const scratch = scratchDir();
  try {
    const out = join(scratch.dir, 'out');
    const merged = join(scratch.dir, 'merged.yaml');
    expect((await runCli(['generate', spec, '--out', out, '--quiet'])).code).toBe(0);
    expect((await runCli(['merge', spec, '--out', merged, '--quiet'])).code).toBe(0);
    const written = readFileSync(join(out, 'openapi.merged.yaml'), 'utf8');
    // Less the do-not-edit banner: its three lines.
    expect(written.split('\n').slice(3).join('\n')).toBe(readFileSync(merged, 'utf8'));
    // openapi-typescript did add to its own copy: the types name each discriminator's values.
    expect(readFileSync(join(out, 'src/generated/types.ts'), 'utf8')).toContain('discriminator enum property added by openapi-typescript');
  } finally {
    scratch.cleanup();
  }
});
