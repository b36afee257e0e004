/**
 * Names derived from a spec: identifiers for TypeScript, file names, and
 * operationIds for operations that lack one. Deterministic: the same input
 * gives the same name on every machine.
 */

/**
 * Splits `list-books`, `list_books`, `listBooks`, `HTTPServer`, `книги_новые`
 * into lower-case words. Word characters are letters, non-enclosing marks,
 * decimal digits and letter numbers: all valid inside an identifier, none a
 * joiner or a bidi control.
 */
export function words(text: string): string[] {
  const spaced = text
    .normalize('NFKC')
    .replace(/(\p{Ll}|\p{Nd})(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu}+)(\p{Lu}\p{Ll})/gu, '$1 $2');
  return (spaced.match(/[\p{L}\p{Mn}\p{Mc}\p{Nd}\p{Nl}]+/gu) ?? []).map((word) => word.toLowerCase());
}

/** Upper-cases the first character (a whole code point, whatever the script). */
export function capitalize(word: string): string {
  const [first = '', ...rest] = word;
  return first.toUpperCase() + rest.join('');
}

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
