import fc from 'fast-check';
import { editScript, unifiedDiff } from '../../src/unified-diff.js';

const labels = { from: 'a/f', to: 'b/f' };

/**
 * Applies a unified diff the way `patch` does without fuzz: each hunk's old
 * lines must be found where its header says, and are replaced by its new lines.
 */
function applyPatch(before: string, patch: string): string {
  const lines = before.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  const text = patch.split('\n').slice(2, -1); // the two header lines; the final newline
  const result: string[] = [];
  let at = 0;
  for (let i = 0; i < text.length; ) {
    const header = /^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@$/.exec(text[i++]!);
    if (!header) throw new Error(`not a hunk header: ${text[i - 1]}`);
    const count = header[2] === undefined ? 1 : Number(header[2]);
    const start = count === 0 ? Number(header[1]) : Number(header[1]) - 1;
    result.push(...lines.slice(at, start));
    at = start;
    for (; i < text.length && !text[i]!.startsWith('@@'); i++) {
      const [op, line] = [text[i]![0], text[i]!.slice(1)];
      const noNewline = text[i + 1] === '\\ No newline at end of file';
      const full = noNewline ? line : `${line}\n`;
      if (op !== '+') {
        if (lines[at] !== full) throw new Error(`hunk does not apply at line ${at + 1}`);
        at++;
      }
      if (op !== '-') result.push(full);
      if (noNewline) i++;
    }
  }
  return [...result, ...lines.slice(at)].join('');
}

/** The length of a longest common subsequence, by dynamic programming: the measure of a shortest edit script. */
function lcsLength(a: string[], b: string[]): number {
  const row = new Array<number>(b.length + 1).fill(0);
  for (const x of a) {
    let diagonal = 0;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]!;
      row[j] = x === b[j - 1] ? diagonal + 1 : Math.max(row[j]!, row[j - 1]!);
      diagonal = above;
    }
  }
  return row[b.length]!;
}

describe('unifiedDiff', () => {
  test('the same text has no diff', () => {
    expect(unifiedDiff('a\nb\n', 'a\nb\n', labels)).toBe('');
  });

  test('prints what `diff -u` prints: 3 lines of context, distant changes in separate hunks, a last line without a newline marked', () => {
    const before = 'abcdefghijklm'.split('').map((c) => `${c}\n`).join('');
    const after = before.replace('d\n', 'D\n') + 'n';
    expect(unifiedDiff(before, after, labels)).toBe(
      [
        '--- a/f',
        '+++ b/f',
        '@@ -1,7 +1,7 @@',
        ' a',
        ' b',
        ' c',
        '-d',
        '+D',
        ' e',
        ' f',
        ' g',
        '@@ -11,3 +11,4 @@',
        ' k',
        ' l',
        ' m',
        '+n',
        '\\ No newline at end of file',
        '',
      ].join('\n'),
    );
  });

  test('an empty side is named by the line before it', () => {
    expect(unifiedDiff('', 'x\n', labels)).toBe('--- a/f\n+++ b/f\n@@ -0,0 +1 @@\n+x\n');
    expect(unifiedDiff('x\n', '', labels)).toBe('--- a/f\n+++ b/f\n@@ -1 +0,0 @@\n-x\n');
  });

  test('changes closer than twice the context share one hunk', () => {
    const before = 'a\nb\nc\nd\ne\nf\ng\nh\n';
    const after = before.replace('b\n', 'B\n').replace('g\n', 'G\n');
    expect(unifiedDiff(before, after, labels).match(/^@@/gm)).toHaveLength(1);
  });

  test('applied to the old text, the diff gives the new one, and it changes no more lines than it must', () => {
    const text = fc.array(fc.constantFrom('a\n', 'b\n', 'c\n', 'd\n', 'e'), { maxLength: 40 }).map((lines) => lines.join(''));
    fc.assert(
      fc.property(text, text, (before, after) => {
        expect(applyPatch(before, unifiedDiff(before, after, labels) || '--- \n+++ \n')).toBe(after);
        const a = before.match(/[^\n]*\n|[^\n]+$/g) ?? [];
        const b = after.match(/[^\n]*\n|[^\n]+$/g) ?? [];
        const changes = editScript(a, b).filter((edit) => edit.op !== ' ').length;
        expect(changes).toBe(a.length + b.length - 2 * lcsLength(a, b));
      }),
      { numRuns: 500 },
    );
  });

  test('texts too far apart to search are still a correct patch', () => {
    const before = Array.from({ length: 3000 }, (_, i) => `old ${i}\n`).join('');
    const after = Array.from({ length: 3000 }, (_, i) => `new ${i}\n`).join('');
    expect(applyPatch(before, unifiedDiff(before, after, labels))).toBe(after);
  });
});
