/**
 * `test/conformance/`: a jest suite that checks a running service against
 * the merged spec and the conventions, in-process or at BASE_URL. The
 * harness, assertions and checks are the same for every API (runtime
 * modules); `api.json`
 * (what the suite knows of the API), `schemas.json` (the schemas of answers and requests)
 * and one test file per resource come from the spec.
 */
import { jsonFile, runtimeFile, templateFile, type OutputFile, type Target } from '../../target.js';
import { suiteSchemas } from './schemas.js';
import { apiTests, conformanceView } from './view.js';

const DIRECTORY = 'test/conformance';

/**
 * Modules the same for every API, copied from `src/runtime/conformance/`.
 * `plan.ts` is also the generator's definition of the plan (see ./view.ts):
 * the generator and the suite share its types.
 */
const RUNTIME = ['plan.ts', 'harness.ts', 'assertions.ts', 'checks.ts', 'conventions.ts', 'arbitraries.ts', 'violations.ts', 'properties.ts', 'jest.config.js', 'sequencer.cjs', 'reporter.cjs', 'environment.cjs', 'validators-transform.cjs'];

/** The project's compiler options, checking the suite without emitting it (ts-jest compiles each file on its own). */
const TSCONFIG = {
  extends: '../../tsconfig.json',
  compilerOptions: { rootDir: '../..', noEmit: true, isolatedModules: true, types: ['node'] },
  include: ['.'],
};

export const conformanceTarget: Target = {
  name: 'conformance',
  async render({ document, model, renderer, runtime }) {
    const view = conformanceView(model, document);
    const api = apiTests(model);
    const printed = (name: string, template: string, data: object) => templateFile(renderer, `conformance/${template}`, `${DIRECTORY}/${name}`, data, 'generated');
    // Data, written as JSON without prettier: on a large API it runs to megabytes.
    const data = (name: string, value: unknown, indent?: number): OutputFile => ({ path: `${DIRECTORY}/${name}`, contents: `${JSON.stringify(value, null, indent)}\n`, kind: 'generated', format: 'as-is' });
    return [
      ...RUNTIME.map((name) => runtimeFile(runtime, `conformance/${name}`, 'generated')),
      jsonFile(`${DIRECTORY}/tsconfig.json`, TSCONFIG, 'generated'),
      data('api.json', view.api, 2),
      data('schemas.json', suiteSchemas(document, model)),
      // In a folder of their own: no resource name can reach the suite's fixed files.
      ...view.files.map((resource) => printed(`resources/${resource.file}.test.ts`, 'resource.test.ts.hbs', resource)),
      ...(api ? [printed('conventions.test.ts', 'conventions.test.ts.hbs', api), printed('rate-limit.test.ts', 'rate-limit.test.ts.hbs', api.rateLimit)] : []),
    ];
  },
};
