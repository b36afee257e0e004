/**
 * The small dictionaries the path rules read. Kept short and explicit: a
 * word missing here is a missed finding, a wrong word a false positive, and
 * users extend the plural list in their configuration.
 */

/**
 * Action verbs that make a path segment a remote procedure call (conventions
 * §4, rule 1). Only words that are verbs first: `check`, `post`, `run`, `set`,
 * `import` are nouns too (`check-runs`, `posts`), and are left out.
 */
export const ACTION_VERBS = new Set([
  'get', 'list', 'fetch', 'retrieve', 'create', 'add', 'insert', 'update', 'edit', 'modify',
  'delete', 'remove', 'destroy', 'erase', 'do', 'execute', 'perform', 'invoke',
  'cancel', 'approve', 'rerun', 'retry', 'enable', 'disable', 'restart', 'reset', 'login', 'logout',
  'register', 'subscribe', 'unsubscribe', 'verify', 'validate', 'send', 'upload', 'download', 'generate', 'convert',
]);

/** Plural nouns that do not end in `s`, and nouns with no singular/plural difference. */
export const IRREGULAR_PLURALS = new Set([
  'people', 'children', 'men', 'women', 'mice', 'geese', 'feet', 'teeth', 'criteria', 'phenomena', 'indices',
  'data', 'media', 'metadata', 'info', 'information', 'feedback', 'news', 'series', 'species', 'software',
  'hardware', 'equipment', 'staff', 'personnel', 'music', 'traffic', 'content', 'inventory', 'stock',
  'analytics', 'statistics', 'billing', 'sheep', 'fish', 'deer', 'aircraft', 'search', 'health', 'auth',
]);

/** Words ending in `s` that are singular, so `s` alone does not make a plural. */
export const SINGULAR_ENDING_IN_S = new Set(['status', 'bus', 'alias', 'address', 'class', 'process', 'access', 'business', 'analysis', 'basis', 'campus', 'canvas', 'census', 'virus', 'corpus', 'atlas', 'chaos', 'bonus', 'focus', 'radius', 'gas', 'lens', 'plus', 'progress', 'success', 'axis', 'thesis']);

/** Whether the last word of a segment reads as a plural noun. */
export function isPlural(word: string, extra: ReadonlySet<string>): boolean {
  const lower = word.toLowerCase();
  if (extra.has(lower) || IRREGULAR_PLURALS.has(lower)) return true;
  if (SINGULAR_ENDING_IN_S.has(lower)) return false;
  return /s$/.test(lower) && !/(ss|us|is)$/.test(lower);
}
