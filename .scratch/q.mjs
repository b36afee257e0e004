import * as prettier from 'prettier';
const o={printWidth:100,singleQuote:true,trailingComma:'all',parser:'babel-ts'};
for (const src of [
 "const a = { 'café': 1, 'b': 2 };", "interface T { 'café': number; 'b': string; 'a-b': number }", "const a = { 'b': 1, 'a-b': 2 };", "interface T { 'b': number; }","const a = {'1': 2, 'b': 3}",
 "export const x = { listThingsWithAVeryLongNameIndeed: async (request) => store.someVeryLongCollectionName.list(request) };",
]) console.log(await prettier.format(src,o));
