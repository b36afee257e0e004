/**
 * An isolated Handlebars environment: strict (a missing value is an error,
 * not an empty string), no HTML escaping (we emit code), and only the helpers
 * of the registry.
 */
import Handlebars from 'handlebars';
import { diagnostic, SpecforgeError } from '../diagnostics.js';
import { HELPERS, withoutOptions } from './helpers.js';

/** Template sources by path relative to the templates root, e.g. `types/types.ts.hbs`. */
export type TemplateSet = ReadonlyMap<string, { source: string; file: string }>;

export interface Renderer {
  render(templatePath: string, view: object): string;
}

const COMPILE_OPTIONS = {
  strict: true,
  noEscape: true,
  knownHelpersOnly: true,
  knownHelpers: Object.fromEntries(Object.keys(HELPERS).map((name) => [name, true])),
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

export function createRenderer(templates: TemplateSet): Renderer {
  const env = Handlebars.create();
  for (const [name, helper] of Object.entries(HELPERS)) env.registerHelper(name, withoutOptions(helper));
  for (const [path, { source }] of templates) {
    if (/(^|\/)_[^/]+\.hbs$/.test(path)) env.registerPartial(path.replace(/\.hbs$/, ''), source);
  }
  const compiled = new Map<string, HandlebarsTemplateDelegate>();
  return {
    render(templatePath, view) {
      const template = templates.get(templatePath);
      if (!template) throw new SpecforgeError([diagnostic('TEMPLATE_ERROR', `No template ${templatePath}`)]);
      let run = compiled.get(templatePath);
      if (!run) {
        run = env.compile(template.source, COMPILE_OPTIONS);
        compiled.set(templatePath, run);
      }
      try {
        return run(view);
      } catch (error) {
        throw new SpecforgeError([templateProblem(error as Error & { lineNumber?: number; column?: number }, template.file)]);
      }
    },
  };
}
