/**
 * A unified diff (the format `patch` and `git apply` read) between two texts,
 * line by line, found with Myers' O(ND) algorithm ("An O(ND) Difference
 * Algorithm and Its Variations", 1986): the shortest edit script, so a patch
 * touches no line it need not. Pure and deterministic.
 */

/** One line of either text, with its line end (the last line may have none). */
type Line = string;

/** An edit script step: a line kept, removed from the old text, or added from the new. */
type Edit = { op: ' ' | '-' | '+'; line: Line };

/** Lines of context around each change, as `diff -u` and git print them. */
const CONTEXT = 3;

/**
 * Beyond this many differences the script is no longer searched for (Myers keeps
 * O(D²) state): the differing middle is then replaced whole, still a correct patch.
 */
const MAX_EDIT_DISTANCE = 2000;

export interface DiffLabels {
  /** Names of the old and the new text in the `---` and `+++` lines, e.g. `a/src/store/index.ts`. */
  from: string;
  to: string;
}

/** The unified diff from `before` to `after`; empty when they are the same text. */
export function unifiedDiff(before: string, after: string, labels: DiffLabels): string {
  if (before === after) return '';
  const edits = editScript(linesOf(before), linesOf(after));
  return [`--- ${labels.from}\n`, `+++ ${labels.to}\n`, ...hunks(edits).map(hunkText)].join('');
}

/** Lines with their `\n`, so a last line without one differs from the same text with one. */
function linesOf(text: string): Line[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/** The shortest edit script from a to b: common ends first (the usual case: a few lines differ), Myers for the middle. */
export function editScript(a: readonly Line[], b: readonly Line[]): Edit[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  for (; endA > start && endB > start && a[endA - 1] === b[endB - 1]; endA--, endB--);
  const kept = (lines: readonly Line[]): Edit[] => lines.map((line) => ({ op: ' ', line }));
  return [...kept(a.slice(0, start)), ...middle(a.slice(start, endA), b.slice(start, endB)), ...kept(a.slice(endA))];
}

/** Myers' greedy forward search, keeping each round's furthest reaches to walk the path back. */
function middle(a: readonly Line[], b: readonly Line[]): Edit[] {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, MAX_EDIT_DISTANCE);
  // v[k + offset]: the furthest x reached on diagonal k (y = x - k).
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    for (let k = -d; k <= d; k += 2) {
      const down = k === -d || (k !== d && v[k - 1 + offset]! < v[k + 1 + offset]!);
      let x = down ? v[k + 1 + offset]! : v[k - 1 + offset]! + 1;
      let y = x - k;
      for (; x < n && y < m && a[x] === b[y]; x++, y++);
      v[k + offset] = x;
      if (x >= n && y >= m) {
        trace.push(v.slice(offset - d, offset + d + 1));
        return backtrack(a, b, trace);
      }
    }
    trace.push(v.slice(offset - d, offset + d + 1));
  }
  // Too far apart to search: every old line removed, every new one added.
  return [...a.map((line): Edit => ({ op: '-', line })), ...b.map((line): Edit => ({ op: '+', line }))];
}

/** The edits along the path the search found, from its end back to (0, 0). trace[d][k + d] is round d's reach on diagonal k. */
function backtrack(a: readonly Line[], b: readonly Line[], trace: readonly Int32Array[]): Edit[] {
  const edits: Edit[] = [];
  let x = a.length;
  let y = b.length;
  for (let d = trace.length - 1; d > 0; d--) {
    const before = trace[d - 1]!;
    const reach = (k: number) => before[k + d - 1]!;
    const k = x - y;
    const down = k === -d || (k !== d && reach(k - 1) < reach(k + 1));
    const previousK = down ? k + 1 : k - 1;
    const previousX = reach(previousK);
    const previousY = previousX - previousK;
    for (; x > previousX && y > previousY; x--, y--) edits.push({ op: ' ', line: a[x - 1]! });
    if (down) edits.push({ op: '+', line: b[previousY]! });
    else edits.push({ op: '-', line: a[previousX]! });
    x = previousX;
    y = previousY;
  }
  for (; x > 0 && y > 0; x--, y--) edits.push({ op: ' ', line: a[x - 1]! });
  return edits.reverse();
}

interface Hunk {
  /** 0-based index of the hunk's first line in the old and in the new text. */
  oldStart: number;
  newStart: number;
  edits: Edit[];
}

/** Changes with CONTEXT kept lines around them; changes closer than twice that share one hunk. */
function hunks(edits: readonly Edit[]): Hunk[] {
  const changed = edits.flatMap((edit, index) => (edit.op === ' ' ? [] : [index]));
  const result: Hunk[] = [];
  let group: [number, number] | undefined;
  const close = () => {
    if (group === undefined) return;
    const from = Math.max(0, group[0] - CONTEXT);
    const to = Math.min(edits.length, group[1] + 1 + CONTEXT);
    const before = edits.slice(0, from);
    result.push({
      oldStart: before.filter((edit) => edit.op !== '+').length,
      newStart: before.filter((edit) => edit.op !== '-').length,
      edits: edits.slice(from, to),
    });
  };
  for (const index of changed) {
    if (group !== undefined && index - group[1] <= 2 * CONTEXT) group[1] = index;
    else {
      close();
      group = [index, index];
    }
  }
  close();
  return result;
}

/** `@@ -start,count +start,count @@` (1-based; an empty side names the line before it, a count of 1 is left out), then the lines. */
function hunkText({ oldStart, newStart, edits }: Hunk): string {
  const range = (start: number, count: number) => (count === 1 ? `${start + 1}` : `${count === 0 ? start : start + 1},${count}`);
  const oldCount = edits.filter((edit) => edit.op !== '+').length;
  const newCount = edits.filter((edit) => edit.op !== '-').length;
  const body = edits.map(({ op, line }) => (line.endsWith('\n') ? `${op}${line}` : `${op}${line}\n\\ No newline at end of file\n`));
  return `@@ -${range(oldStart, oldCount)} +${range(newStart, newCount)} @@\n${body.join('')}`;
}
