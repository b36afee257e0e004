/**
 * Determinism by construction: every list that is not in spec order is
 * sorted with these, by code unit, the same on every machine and locale.
 */
export function byText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function byPath(a: { path: string }, b: { path: string }): number {
  return byText(a.path, b.path);
}

/** For `Object.entries(…)` and Map entries: by key. */
export function byKey(a: readonly [string, unknown], b: readonly [string, unknown]): number {
  return byText(a[0], b[0]);
}

/** Diagnostics by file, then line, then column; unplaced ones last in their file. */
export function byLocation(
  a: { file?: string; line?: number; column?: number },
  b: { file?: string; line?: number; column?: number },
): number {
  return byText(a.file ?? '', b.file ?? '') || (a.line ?? Number.MAX_SAFE_INTEGER) - (b.line ?? Number.MAX_SAFE_INTEGER) || (a.column ?? 0) - (b.column ?? 0);
}
