/**
 * The small dictionaries the path rules read. Kept short and explicit: a
 * word missing here is a missed finding, a wrong word a false positive, and
 * users extend the plural list in their configuration.
 */
import { words } from '../openapi/names.js';

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

/**
 * Verbs that are often nouns too (`merge`, `lock`, `transfer`), read as verbs
 * only in the last segment of a path that addresses an action (path-roles.ts):
 * there the segment says what to do (`POST /tasks/{task_id}/close`).
 */
// prettier-ignore
export const ACTION_SEGMENT_VERBS = new Set([
  'close', 'open', 'reopen', 'merge', 'lock', 'unlock', 'archive', 'unarchive', 'publish', 'unpublish', 'transfer',
  'sync', 'render', 'reject', 'activate', 'deactivate', 'suspend', 'unsuspend', 'resume', 'start', 'stop', 'pause',
  'submit', 'assign', 'unassign', 'follow', 'unfollow', 'star', 'unstar', 'mute', 'unmute', 'pin', 'unpin', 'restore',
  'revoke', 'refresh', 'rename', 'move', 'copy', 'import', 'export', 'block', 'unblock', 'accept', 'decline',
  'dismiss', 'confirm', 'cleanse', 'check', 'run', 'test', 'ping', 'redeliver', 'rerequest', 'replay', 'fork', 'sign',
  'hide', 'unhide', 'install', 'uninstall', 'deploy', 'trigger', 'complete', 'resolve', 'undo', 'share', 'calculate',
  'transform', 'lookup', 'autocomplete', 'clone', 'duplicate', 'schedule', 'notify', 'request', 'mark', 'set',
]);

/** Verbs that also qualify a noun: `download-links`, `add-ons`, `login-attempts` name things. */
export const NOUN_MODIFIERS = new Set(['download', 'upload', 'add', 'login', 'logout', 'send']);

/** Words after which a segment qualifies its noun: `codes-of-conduct`, `branches-where-head`. */
const QUALIFIERS = new Set(['of', 'where', 'by', 'for', 'with', 'in', 'on', 'to', 'from']);

/** The noun a segment names: the word before a qualifier, else the last word that is not a version (`projectsV2`). */
export function headNoun(segment: string): string {
  const parts = words(segment).filter((word) => !/^v?\d+$/.test(word));
  const qualifier = parts.findIndex((word) => QUALIFIERS.has(word));
  return (qualifier > 0 ? parts[qualifier - 1] : parts.at(-1)) ?? segment;
}

/** Plural nouns that do not end in `s`, and nouns with no singular/plural difference. */
export const IRREGULAR_PLURALS = new Set([
  'people', 'children', 'men', 'women', 'mice', 'geese', 'feet', 'teeth', 'criteria', 'phenomena', 'indices',
  'data', 'media', 'metadata', 'info', 'information', 'feedback', 'news', 'series', 'species', 'software',
  'hardware', 'equipment', 'staff', 'personnel', 'music', 'traffic', 'content', 'inventory', 'stock',
  'analytics', 'statistics', 'billing', 'sheep', 'fish', 'deer', 'aircraft', 'search', 'health', 'auth',
]);

/** Singular nouns ending in `-us`, `-is` or `-as`: the `s` of these does not make a plural (`menus`, `apis` do). */
export const SINGULAR_ENDING_IN_S = new Set([
  'status', 'bus', 'virus', 'campus', 'census', 'corpus', 'bonus', 'focus', 'radius', 'genus', 'nexus', 'syllabus',
  'stimulus', 'apparatus', 'consensus', 'prospectus', 'octopus', 'cactus', 'fungus', 'nucleus', 'plus',
  'analysis', 'basis', 'axis', 'thesis', 'crisis', 'diagnosis', 'emphasis', 'hypothesis', 'oasis', 'synopsis',
  'parenthesis', 'tennis', 'iris', 'chassis', 'alias', 'atlas', 'canvas', 'gas', 'bias', 'chaos', 'lens',
]);

/** Whether a word reads as a plural noun: the dictionaries first, then a final `s` that is not `ss`. */
export function isPlural(word: string, extra: ReadonlySet<string>): boolean {
  const lower = word.toLowerCase();
  if (extra.has(lower) || IRREGULAR_PLURALS.has(lower)) return true;
  if (SINGULAR_ENDING_IN_S.has(lower)) return false;
  return /[^s]s$/.test(lower);
}
