/** openapi-typescript's types of the merged spec, as `src/generated/types.ts` prints them, type-checked against uses. */
import ts from 'typescript';
import type { OpenApiDocument } from '../../src/openapi/document.js';
import { printTypes } from '../../src/render/targets/types-print.js';
import { mergedModel } from '../model.js';

const NOTE = {
  type: 'object',
  required: ['title'],
  properties: {
    id: { type: 'integer', readOnly: true },
    title: { type: 'string' },
    status: { type: 'string', enum: ['draft', 'published'], default: 'draft' },
    meta: { type: 'object', properties: { pinned: { type: 'boolean', default: false } } },
  },
};
const note = { $ref: '#/components/schemas/Note' };

const SPEC: OpenApiDocument = {
  openapi: '3.0.3',
  info: { title: 'Notes', version: '1.0.0' },
  paths: {
    '/notes': {
      post: {
        operationId: 'createNote',
        requestBody: { required: true, content: { 'application/json': { schema: note } } },
        responses: { '201': { description: 'ok', content: { 'application/json': { schema: note } } } },
      },
    },
  },
  components: { schemas: { Note: NOTE } },
};

/** tsc's errors for `code` placed after the printed types, in one strict in-memory file. */
function typeErrors(code: string): string[] {
  const { document } = mergedModel(SPEC);
  const text = `${[...printTypes(document)].map((part) => part.text).join('')}\n${code}\n`;
  const name = '/types.ts';
  const options: ts.CompilerOptions = { strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, types: [], lib: ['lib.es2022.d.ts'] };
  const host = ts.createCompilerHost(options);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (file, language) => (file === name ? ts.createSourceFile(file, text, language) : read(file, language));
  const program = ts.createProgram([name], options, host);
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
}

const BODY = "operations['createNote']['requestBody']['content']['application/json']";

describe('request body types and schema defaults', () => {
  test('a field with a default is optional for the caller, in a component the body refers to', () => {
    expect(typeErrors(`export const body: ${BODY} = { title: 'Groceries', meta: {} };`)).toEqual([]);
  });

  test('a required field without a default stays required', () => {
    expect(typeErrors(`export const body: ${BODY} = { status: 'draft' };`)).toEqual([expect.stringContaining("Property 'title' is missing")]);
  });
});
