import { JsMarks } from '/work/main/dist/render/js-place.js';
import * as prettier from 'prettier';
const reasons = new Map();
const orig = JsMarks.prototype.place;
JsMarks.prototype.place = function (text) {
  try { this.replace(text, (v, place) => place(v)); } catch (e) { reasons.set(e.message, (reasons.get(e.message) ?? 0) + 1); }
  return orig.call(this, text);
};
const { buildOutputs } = await import('/work/main/dist/pipeline.js');
const { files } = await buildOutputs({ spec: process.argv[2], lint: false, ...(process.argv[3] ? { overlay: process.argv[3] } : {}) });
console.log([...reasons]);
let shown = 0;
for (const f of files) {
  if (!/^(test\/conformance\/(resources|conventions|rate)|src\/generated\/routes)/.test(f.path) || f.format !== 'as-is') continue;
  const p = await prettier.format(f.contents, { singleQuote: true, trailingComma: 'all', printWidth: 100, parser: 'babel-ts' });
  if (p !== f.contents && shown++ < 2) {
    const a = f.contents.split('\n'), b = p.split('\n');
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) { console.log(f.path, i, '\nOURS:\n' + a.slice(i - 3, i + 6).join('\n') + '\nPRETTIER:\n' + b.slice(i - 3, i + 6).join('\n')); break; }
  }
}
