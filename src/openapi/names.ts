/**
 * Names derived from a spec: identifiers for TypeScript, file names, and
 * operationIds for operations that lack one. Deterministic: the same input
 * gives the same name on every machine.
 */

/** Splits `list-books`, `list_books`, `listBooks`, `ListBooks` into words. */
export function words(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word.toLowerCase());
}

const capitalize = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

export function camelCase(text: string): string {
  const [first = '', ...rest] = words(text);
  const name = first + rest.map(capitalize).join('');
  return /^[0-9]/.test(name) ? `_${name}` : name;
}

export function pascalCase(text: string): string {
  const name = capitalize(camelCase(text).replace(/^_/, ''));
  return /^[0-9]/.test(name) ? `_${name}` : name;
}

export function kebabCase(text: string): string {
  return words(text).join('-');
}

/** `get /authors/{author_id}/books` → `getAuthorsAuthorIdBooks`, unique among `taken`. */
export function operationIdFor(method: string, path: string, taken: ReadonlySet<string>): string {
  const base = camelCase(`${method} ${path.replace(/[{}]/g, ' ')}`);
  let candidate = base;
  for (let n = 2; taken.has(candidate); n++) candidate = `${base}${n}`;
  return candidate;
}

/** A plural collection name in singular, for type names: `books` → `book`, `categories` → `category`. */
export function singular(name: string): string {
  if (/ies$/i.test(name)) return name.slice(0, -3) + 'y';
  if (/(ss|us|is)$/i.test(name)) return name;
  if (/(ches|shes|sses|xes|zes)$/i.test(name)) return name.slice(0, -2);
  if (/s$/i.test(name)) return name.slice(0, -1);
  return name;
}

/** Words TypeScript does not accept as a binding name. */
const RESERVED = new Set(
  'break case catch class const continue debugger default delete do else enum export extends false finally for function if implements import in instanceof interface let new null package private protected public return static super switch this throw true try typeof var void while with yield await arguments eval'.split(' '),
);

/** camelCase, and usable as a variable or export name (`delete` → `delete_`). */
export function bindingName(text: string): string {
  const name = camelCase(text) || '_';
  return RESERVED.has(name) ? `${name}_` : name;
}
