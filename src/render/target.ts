/** What every target receives, and what it produces. */
import type { ApiModel } from '../model/index.js';
import type { OpenApiDocument } from '../openapi/document.js';
import type { Renderer } from './handlebars.js';

export type FileKind = 'generated' | 'scaffold';

/** How the format stage treats a file: prettier's parser, or left as rendered. */
export type FileFormat = 'typescript' | 'json' | 'as-is';

export interface OutputFile {
  /** Relative to the output directory, `/`-separated. */
  path: string;
  contents: string;
  kind: FileKind;
  format: FileFormat;
}

export interface RenderInput {
  document: OpenApiDocument;
  model: ApiModel;
  renderer: Renderer;
  /** The spec's file name, for the do-not-edit banner. */
  specName: string;
}

export interface Target {
  name: string;
  render(input: RenderInput): Promise<OutputFile[]>;
}
