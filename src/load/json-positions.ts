/**
 * Line and column of many paths in a JSON text, in one pass. Building a YAML
 * syntax tree of GitHub's 13 MB spec to place a few hundred lint findings
 * takes seconds; this scanner only tracks the subtrees that lead to a path it
 * was asked for.
 */

/** A path as a key: each token after a NUL, so the root is `''` and a root key `""` is not. */
const keyOf = (tokens: readonly string[]) => tokens.map((token) => '\u0000' + token).join('');
const child = (parent: string, token: string) => parent + '\u0000' + token;

/** One frame per open container: its path, whether it leads to a wanted path, and (arrays) the next index. */
interface Frame {
  path: string;
  relevant: boolean;
  array: boolean;
  index: number;
}

/**
 * Offsets of each wanted path and of every prefix of it, at its key or
 * array element: where a path does not exist, its deepest existing prefix
 * places it. A duplicate key is placed at its last occurrence, the one
 * JSON.parse keeps.
 */
function jsonOffsets(text: string, paths: readonly (readonly string[])[]): Map<string, number> {
  const wanted = new Set<string>(['']);
  for (const path of paths) for (let i = 1; i <= path.length; i++) wanted.add(keyOf(path.slice(0, i)));
  const found = new Map<string, number>([['', text.search(/\S/)]]);
  const stack: Frame[] = [];
  let pendingKey = '';

  /** A value starts at `offset`: an array element is recorded here; returns the value's path and relevance. */
  const valueStarts = (offset: number): { path: string; relevant: boolean } => {
    const frame = stack.at(-1);
    if (!frame) return { path: '', relevant: true };
    if (!frame.relevant) return { path: '', relevant: false };
    const path = child(frame.path, frame.array ? String(frame.index++) : pendingKey);
    if (frame.array && wanted.has(path)) found.set(path, offset);
    return { path, relevant: wanted.has(path) };
  };

  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      const start = i;
      let escaped = false;
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 92 /* \ */) {
          escaped = true;
          i++;
        } else if (d === 34) break;
      }
      const frame = stack.at(-1);
      const isKey = frame !== undefined && !frame.array && nextNonSpace(text, i + 1) === 58; /* : */
      if (!isKey) {
        valueStarts(start);
        continue;
      }
      pendingKey = escaped ? (JSON.parse(text.slice(start, i + 1)) as string) : text.slice(start + 1, i);
      if (frame.relevant && wanted.has(child(frame.path, pendingKey))) found.set(child(frame.path, pendingKey), start);
    } else if (c === 123 /* { */ || c === 91 /* [ */) {
      const { path, relevant } = valueStarts(i);
      stack.push({ path, relevant, array: c === 91, index: 0 });
    } else if (c === 125 /* } */ || c === 93 /* ] */) {
      stack.pop();
    } else if (c !== 44 && c !== 58 && c > 32) {
      // A literal (number, true, false, null): consume it.
      valueStarts(i);
      while (i + 1 < text.length && !/[\s,\]}]/.test(text[i + 1]!)) i++;
    }
  }
  return found;
}

function nextNonSpace(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13) return c;
  }
  return -1;
}

/** Line and column (1-based) of each path; a path that does not exist is placed at its deepest existing parent. */
export function locateInJson(text: string, paths: readonly (readonly string[])[]): { line: number; column: number }[] {
  const offsets = jsonOffsets(text, paths);
  const lineStarts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  return paths.map((path) => {
    let depth = path.length;
    while (depth > 0 && !offsets.has(keyOf(path.slice(0, depth)))) depth--;
    const offset = offsets.get(keyOf(path.slice(0, depth))) ?? 0;
    let low = 0;
    let high = lineStarts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (lineStarts[middle]! <= offset) low = middle;
      else high = middle - 1;
    }
    return { line: low + 1, column: offset - lineStarts[low]! + 1 };
  });
}
