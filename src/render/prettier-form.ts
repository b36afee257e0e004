/**
 * What prettier's output looks like, for printers that write it directly
 * (the types, JavaScript values): its print width, strings, numbers and
 * names, and the error they throw where they do not model prettier.
 */
export const PRINT_WIDTH = 100;

/** What a printer does not model: the caller has prettier format that part instead. */
export class OutOfForm extends Error {}

export const outOfForm = (what: string): never => {
  throw new OutOfForm(what);
};

/** A name prettier writes without quotes as a property key (ASCII only: wider ones it judges by Unicode tables). */
export const ASCII_IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * prettier's string from the content of a double-quoted literal (as
 * TypeScript or JSON.stringify print it): single quotes unless the text holds more of them than double
 * quotes; escapes kept but for the quotes (prettier's makeString).
 */
export function quoted(raw: string): string {
  const singles = raw.split("'").length - 1;
  const doubles = raw.split('"').length - 1;
  if (singles > doubles) return `"${raw}"`;
  return `'${raw.replace(/\\(["'\\])|(["'])/g, (match, escaped?: string, bare?: string) => (escaped === '"' ? '"' : escaped ? match : bare === "'" ? "\\'" : bare!))}'`;
}

/**
 * Characters prettier measures one column each: ASCII and the scripts of
 * Europe (Latin, Greek, Cyrillic but its combining marks), common
 * punctuation, arrows and comparison signs. Wide, combining and emoji
 * characters need prettier's Unicode tables: left to prettier.
 * test/unit/prettier-form checks each against prettier's own measure.
 */
export const NARROW_CHARACTERS = '\\x20-\\x7e\\u00a0-\\u00a8\\u00aa-\\u00ad\\u00af-\\u02af\\u0370-\\u0482\\u048a-\\u04ff\\u2010-\\u2027\\u20ac\\u2190-\\u2193\\u2260\\u2264\\u2265';
const NARROW = new RegExp(`^[${NARROW_CHARACTERS}]*$`);

export function narrow(text: string): string {
  if (!NARROW.test(text)) outOfForm('text of uncertain width');
  return text;
}

/** prettier's number: lower case, no `+` or leading zeros in the exponent, no trailing zeros or dot. */
export function printNumber(raw: string): string {
  // Infinity, NaN and the like are names, not numbers prettier rewrites.
  if (!/^[+-]?[\d.]/.test(raw)) return outOfForm('a number that is a name');
  if (raw.length === 1) return raw;
  return raw
    .toLowerCase()
    .replace(/^([+-]?[\d.]+e)(?:\+|(-))?0*(?=\d)/, '$1$2')
    .replace(/^([+-]?[\d.]+)e[+-]?0+$/, '$1')
    .replace(/^([+-])?\./, '$10.')
    .replace(/(\.\d+?)0+(?=e|$)/, '$1')
    .replace(/\.(?=e|$)/, '');
}

/** Numbers (each with its `,`) as many to a line as fit, as prettier fills an array of numbers; lines after the first start at `start`. */
export function fill(items: string[], start: number): string {
  let text = '';
  let column = start;
  items.forEach((item, index) => {
    if (index > 0 && column + 1 + item.length <= PRINT_WIDTH) {
      text += ` ${item}`;
      column += 1 + item.length;
    } else {
      if (index > 0) text += `\n${' '.repeat(start)}`;
      text += item;
      column = start + item.length;
    }
  });
  return text;
}
