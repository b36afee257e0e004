/** What printers that write prettier's form directly take for granted about prettier. */
import * as prettier from 'prettier';
import { NARROW_CHARACTERS, narrow, OutOfForm } from '../../src/render/prettier-form.js';

test('every character taken as one column wide is one column wide to prettier', () => {
  const ranges = [...NARROW_CHARACTERS.matchAll(/\\[xu]([0-9a-f]+)(?:-\\[xu]([0-9a-f]+))?/g)].map((match) => [parseInt(match[1]!, 16), parseInt(match[2] ?? match[1]!, 16)] as const);
  expect(ranges.length).toBeGreaterThan(5);
  const wrong: string[] = [];
  for (const [from, to] of ranges) {
    for (let code = from; code <= to; code++) if (prettier.util.getStringWidth(String.fromCodePoint(code)) !== 1) wrong.push(code.toString(16));
  }
  expect(wrong).toEqual([]);
});

test('text with wide or combining characters is left to prettier', () => {
  expect(narrow('Café → naïve ≤ “x”')).toBe('Café → naïve ≤ “x”');
  for (const text of ['書', '🙂', 'e\u0301', '\u0483']) expect(() => narrow(text)).toThrow(OutOfForm);
});
