/**
 * An isolated Handlebars environment: strict (a missing value is an error,
 * not an empty string), no HTML escaping (we emit code), and only the helpers
 * of the registry.
 */
import Handlebars from 'handlebars';
import { createRequire } from 'node:module';
import { diagnostic, SpecforgeError } from '../diagnostics.js';
import { sha256 } from '../hash.js';
import { HELPERS, withoutOptions } from './helpers.js';
import { JsMarks } from './js-place.js';

/** Template sources by path relative to the templates root, e.g. `types/types.ts.hbs`; `builtIn` unless a --templates override. */
export type TemplateSet = ReadonlyMap<string, { source: string; file: string; builtIn?: boolean }>;

export interface Rendered {
  text: string;
  /** Already in prettier's form: a built-in template that says so, every `{{js}}` value placed in form. */
  inForm: boolean;
}

export interface Renderer {
  render(templatePath: string, view: object): Rendered;
}

/**
 * How a built-in template says its output is in prettier's form (test/e2e/in-form
 * proves it on every fixture and public spec): it needs no format pass.
 * A user's template is formatted whatever it says.
 */
const IN_FORM = /^\{\{!-- In prettier's form\b/;

const COMPILE_OPTIONS = {
  strict: true,
  noEscape: true,
  knownHelpersOnly: true,
  knownHelpers: Object.fromEntries([...Object.keys(HELPERS), 'js'].map((name) => [name, true])),
} as const;

/** Parse errors say `line N`; runtime errors (strict mode) carry lineNumber and column. */
function templateProblem(error: Error & { lineNumber?: number; column?: number }, file: string) {
  const line = error.lineNumber ?? Number(/line (\d+)/.exec(error.message)?.[1] ?? NaN);
  const message = error.message.split('\n')[0] ?? error.message;
  return diagnostic('TEMPLATE_ERROR', message, {
    file,
    ...(Number.isNaN(line) ? {} : { line }),
    ...(error.column !== undefined ? { column: error.column + 1 } : {}),
  });
}

/** The file the build writes beside this module (scripts/precompile.mjs): the built-in templates, compiled. */
export const PRECOMPILED_TEMPLATES = 'templates.precompiled.cjs';

/** A precompiled template: Handlebars' template spec, and the hash of the source it was compiled from. */
type PrecompiledTemplates = Record<string, { sha256: string; spec: TemplateSpecification }>;

/**
 * The build's compiled built-in templates (compiling them takes 70 ms of
 * every run); none from the TypeScript sources (Jest). A template whose
 * source is not the one compiled (a user's, or an edited install) is
 * compiled here.
 */
function precompiledTemplates(): PrecompiledTemplates {
  try {
    return createRequire(import.meta.url)(`./${PRECOMPILED_TEMPLATES}`) as PrecompiledTemplates;
  } catch (error) {
    if ((error as { code?: string }).code === 'MODULE_NOT_FOUND') return {};
    throw error;
  }
}

/** The module the build writes to PRECOMPILED_TEMPLATES: each built-in template's spec, by path, with its source's hash. */
export function precompiledTemplatesSource(templates: TemplateSet): string {
  const entries = [...templates].map(
    ([path, { source }]) => `exports[${JSON.stringify(path)}] = { sha256: ${JSON.stringify(sha256(source))}, spec: ${Handlebars.precompile(source, COMPILE_OPTIONS)} };`,
  );
  return ['"use strict";', ...entries, ''].join('\n');
}

export function createRenderer(templates: TemplateSet): Renderer {
  const env = Handlebars.create();
  for (const [name, helper] of Object.entries(HELPERS)) env.registerHelper(name, withoutOptions(helper));
  // `{{js value}}`: the value printed in prettier's form where it stands (./js-place.ts).
  env.registerHelper('js', (value: unknown, options: { data: { marks: JsMarks } }) => options.data.marks.add(value));
  const precompiled = precompiledTemplates();
  const compile = (path: string, source: string): HandlebarsTemplateDelegate => {
    const built = precompiled[path];
    return built?.sha256 === sha256(source) ? env.template(built.spec) : env.compile(source, COMPILE_OPTIONS);
  };
  for (const [path, { source }] of templates) {
    if (/(^|\/)_[^/]+\.hbs$/.test(path)) env.registerPartial(path.replace(/\.hbs$/, ''), compile(path, source));
  }
  const compiled = new Map<string, HandlebarsTemplateDelegate>();
  return {
    render(templatePath, view) {
      const template = templates.get(templatePath);
      if (!template) throw new SpecforgeError([diagnostic('TEMPLATE_ERROR', `No template ${templatePath}`)]);
      let run = compiled.get(templatePath);
      if (!run) {
        run = compile(templatePath, template.source);
        compiled.set(templatePath, run);
      }
      try {
        const marks = new JsMarks();
        const placed = marks.place(run(view, { data: { marks } }));
        return { text: placed.text, inForm: placed.inForm && template.builtIn === true && IN_FORM.test(template.source) };
      } catch (error) {
        throw new SpecforgeError([templateProblem(error as Error & { lineNumber?: number; column?: number }, template.file)]);
      }
    },
  };
}
