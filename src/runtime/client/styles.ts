/**
 * Query parameters written as OpenAPI says (3.x, "Style Values"), for the
 * client and for the conformance suite's samples: arrays repeated (`form`,
 * exploded, the default) or delimited (`ids=1,2,3`, `spaceDelimited`,
 * `pipeDelimited`), objects as their properties (`R=100&G=200`), as pairs
 * (`color=R,100,G,200`) or as `deepObject` keys (`filter[status]=open`).
 * Each name and item is percent-encoded; delimiters are left as they are,
 * as RFC 6570 expands them.
 */

/** A parameter's style and explode, where they differ from the query's default (`form`, exploded). */
export interface QueryStyle {
  style: string;
  explode: boolean;
}

const FORM: QueryStyle = { style: 'form', explode: true };

const DELIMITERS: Record<string, string> = {
  form: ',',
  spaceDelimited: '%20',
  pipeDelimited: '|',
};

/** The `name=value` pairs a query parameter is sent as (none for undefined or null). */
export function queryPairs(
  name: string,
  value: unknown,
  { style, explode }: QueryStyle = FORM,
): string[] {
  if (value === undefined || value === null) return [];
  const key = encodeURIComponent(name);
  const delimiter = DELIMITERS[style] ?? ',';
  if (Array.isArray(value)) {
    const items = value.map(encoded);
    return explode ? items.map((item) => `${key}=${item}`) : [`${key}=${items.join(delimiter)}`];
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value).filter(([, item]) => item !== undefined && item !== null);
    if (style === 'deepObject')
      return entries.map(([property, item]) => `${key}[${encoded(property)}]=${encoded(item)}`);
    if (explode) return entries.map(([property, item]) => `${encoded(property)}=${encoded(item)}`);
    return [
      `${key}=${entries.flatMap(([property, item]) => [encoded(property), encoded(item)]).join(delimiter)}`,
    ];
  }
  return [`${key}=${encoded(value)}`];
}

function encoded(value: unknown): string {
  return encodeURIComponent(String(value));
}
