/**
 * Operations' parameter schemas, rewritten so each distinct parameter schema
 * and each distinct location (its path, query or header parameters) is
 * compiled by ajv once and called where it is used. Operations repeat the same
 * few parameters (GitHub: 7,195 uses of 284 schemas in 603 parameter sets);
 * compiled in place, with the coercion code of each, they made a 10 MB module.
 */
import type { Ajv as AjvDraft7 } from 'ajv';
import type { Ajv2020 } from 'ajv/dist/2020.js';

const LOCATIONS = { path: 'path', query: 'query', headers: 'header' } as const;

/** A parameter schema ajv refused, with the parameter that brought it. */
export class ParameterRefused extends Error {
  constructor(
    readonly parameter: string,
    readonly reason: unknown,
  ) {
    super(`${parameter}: ${reason instanceof Error ? reason.message : String(reason)}`);
  }
}

/**
 * For one ajv: rewrites an operation's parameters schema (`parametersSchema`
 * in validators.ts) into references. A schema is added the first time it is
 * met; one ajv refuses is refused again for each operation that uses it, as
 * the parameter it is there (ParameterRefused).
 */
export function parameterSharing(ajv: AjvDraft7 | Ajv2020): (schema: object) => object {
  const ids = new Map<string, string | { refused: unknown }>();
  const share = (schema: object, parameter?: string): object => {
    const text = JSON.stringify(schema);
    let id = ids.get(text);
    if (id === undefined) {
      id = `specforge:parameters/${ids.size}`;
      try {
        ajv.addSchema({ $id: id, ...schema });
      } catch (error) {
        id = { refused: error };
      }
      ids.set(text, id);
    }
    if (typeof id !== 'string') throw parameter === undefined ? id.refused : new ParameterRefused(parameter, id.refused);
    // The default stays beside the reference: ajv fills in the defaults a parent's `properties` name.
    const { default: fallback } = schema as { default?: unknown };
    return { $ref: id, ...(fallback === undefined ? {} : { default: fallback }) };
  };
  return (operation) => {
    const { properties, ...rest } = operation as { properties: Record<keyof typeof LOCATIONS, { properties: Record<string, object> }> };
    const locations = Object.entries(properties).map(([location, { properties: parameters, ...own }]) => {
      const where = LOCATIONS[location as keyof typeof LOCATIONS];
      const shared = Object.fromEntries(Object.entries(parameters).map(([name, schema]) => [name, share(schema, `${where} parameter ${name}`)]));
      return [location, share({ ...own, properties: shared })];
    });
    return { ...rest, properties: Object.fromEntries(locations) };
  };
}
