import { loadSpec } from '/work/main/dist/load/index.js';
import { applyConventions } from '/work/main/dist/conventions/index.js';
import { buildModel } from '/work/main/dist/model/index.js';
import { loadResources } from '/work/main/dist/resources.js';
import { validatorInputs, compileValidators } from '/work/main/dist/render/targets/server/validators.js';
const spec = process.argv[2];
const loaded = await loadSpec(spec, {});
const res = loadResources();
const { document, config } = applyConventions(loaded.document, res.fragments);
const model = buildModel(document, config);
const inputs = validatorInputs(document, model.operations, model.operations.map((o, i) => 'v' + i));
console.log(Object.fromEntries(Object.entries(inputs).filter(([k]) => Array.isArray(inputs[k])).map(([k, v]) => [k, v.length])));
for (let i = 0; i < 3; i++) { const t = performance.now(); const out = compileValidators(inputs); console.log('compile', (performance.now() - t) | 0, Object.values(out).map((s) => s.length)); }
