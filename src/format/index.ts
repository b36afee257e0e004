/**
 * Stage 5 — format: prettier, in memory, before anything is written. The
 * configuration is pinned here and no config file is consulted, so a user's
 * .prettierrc or editorconfig cannot change the bytes we generate.
 */
import * as prettier from 'prettier';
import type { OutputFile } from '../render/index.js';

export const PRETTIER_OPTIONS: prettier.Options = {
  printWidth: 100,
  tabWidth: 2,
  useTabs: false,
  semi: true,
  singleQuote: true,
  quoteProps: 'as-needed',
  trailingComma: 'all',
  bracketSpacing: true,
  arrowParens: 'always',
  endOfLine: 'lf',
};

export async function formatFiles(files: readonly OutputFile[]): Promise<OutputFile[]> {
  return Promise.all(files.map(formatFile));
}

export async function formatFile(file: OutputFile): Promise<OutputFile> {
  if (file.format === 'as-is') return file;
  const contents = await prettier.format(file.contents, { ...PRETTIER_OPTIONS, parser: file.format });
  return { ...file, contents };
}
