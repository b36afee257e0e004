/**
 * A spec with components of its own under the conventions' names (`Page`,
 * `NotFoundError`, `BadRequestError`, `ErrorEnvelope`, `ETag`) generates as
 * a user runs it: exit 0, the conventions' components beside the spec's under
 * `Specforge…` names, and a project that type-checks. Runs the compiled CLI.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { FIXTURES, scratchDir } from '../helpers.js';
import { compile, generateService, linkDependencies } from '../service.js';

test('generates (exit 0), keeps the spec\'s components and type-checks', async () => {
  const { dir, cleanup } = scratchDir();
  try {
    const out = join(dir, 'out');
    // Throws with the CLI's output unless it exits 0.
    await generateService(join(FIXTURES, 'valid/own-names.yaml'), out, ['--quiet']);

    const merged = parse(readFileSync(join(out, 'openapi.merged.yaml'), 'utf8')) as { components: Record<string, Record<string, unknown>> };
    const { parameters, responses, schemas, headers } = merged.components;
    expect(parameters).toHaveProperty('Page.schema.minimum', 0);
    expect(parameters).toHaveProperty('SpecforgePage.schema.minimum', 1);
    expect(responses).toHaveProperty('NotFoundError.description', 'No such note.');
    expect(responses).toHaveProperty(['SpecforgeNotFoundError', 'content', 'application/json', 'schema', '$ref'], '#/components/schemas/SpecforgeErrorEnvelope');
    expect(Object.keys(responses!)).toContain('SpecforgeBadRequestError');
    expect(schemas).toHaveProperty('ErrorEnvelope.required', ['message']);
    expect(headers).toHaveProperty('SpecforgeETag.description', 'Strong entity tag of the representation.');

    linkDependencies(out);
    expect(await compile(out, { emit: false })).toBe('');
  } finally {
    cleanup();
  }
});
