/**
 * Path rules (conventions §2 naming, §4 path shapes, §9 versioning): nouns
 * not verbs, plural collections, one casing, no empty segments or trailing
 * slash, one well-formed version segment.
 */
import { classifyOperation, pathShape } from '../../openapi/classify.js';
import { words } from '../../openapi/names.js';
import { isParameterSegment, pathRolesOf, resourcePathOf } from '../../openapi/path-roles.js';
import type { Finding, LintContext, LintRule } from '../rule.js';
import { ACTION_SEGMENT_VERBS, ACTION_VERBS, headNoun, isPlural, NOUN_MODIFIERS } from '../words.js';

// `v2`, `v1.0`, `version3`: a segment meant as a version. A bare `version` is a resource (`GET /version`).
const VERSION_LIKE = /^(v\d.*|version\d+)$/i;

const staticSegments = (path: string) =>
  path
    .split('/')
    .map((segment) => segment.replace(/\{[^}]*\}/g, '').split(':')[0]!.replace(/^[-_.]+|[-_.]+$/g, '')) // `{owner}_{repo}`, `{id}:cancel`
    .filter((segment) => /[A-Za-z]/.test(segment));

/** Custom methods in the Google style, `/books/{id}:archive`: the verb after the colon. */
const customMethods = (path: string) => [...path.matchAll(/:([A-Za-z][\w-]*)/g)].map((match) => match[1]!);
const pathsOf = (context: LintContext) => Object.keys(context.document.paths ?? {});
const at = (path: string) => ['paths', path];

export const pathVerb: LintRule = {
  code: 'LINT_PATH_VERB',
  severity: 'warning',
  check: (context) =>
    pathsOf(context).flatMap((path) => {
      const action = actionSegmentOf(context, path);
      if (action) return [{ at: at(path), path, message: actionMessage(context, path, action) }];
      const verb = [...staticSegments(path), ...customMethods(path)].find(isAction);
      return verb ? [{ at: at(path), path, message: `"${verb}" is an action: paths name resources (nouns), the method says what to do` }] : [];
    }),
};

/**
 * The verb that ends a path addressing an action (path-roles.ts: neither a
 * collection, an item nor a singleton), as `close` in `/tasks/{task_id}/close`;
 * undefined where that segment is a noun (`POST /markdown`).
 */
function actionSegmentOf(context: LintContext, path: string): string | undefined {
  if (pathRolesOf(context.document).get(path) !== 'action') return undefined;
  const last = path.split('/').at(-1) ?? '';
  if (last === '' || isParameterSegment(last)) return undefined;
  const [first = ''] = words(last);
  const verb = ACTION_VERBS.has(first) || ACTION_SEGMENT_VERBS.has(first);
  return verb && !isPlural(headNoun(last), context.plurals) ? last : undefined;
}

/**
 * The conventions have no action paths (§4 rule 1: nouns, never verbs): an
 * action is written as a change of the resource it acts on, or as a resource
 * of its own that a POST creates, named by a noun.
 */
function actionMessage(context: LintContext, path: string, segment: string): string {
  const owner = resourcePathOf(context.document, path);
  const onItem = owner !== undefined && pathRolesOf(context.document).get(owner) !== 'collection';
  const instead = onItem
    ? `change the resource (PATCH ${owner}, a state field) or POST a resource named by a noun below it (a record of the action)`
    : 'POST a resource named by a noun (the action\'s record or result)';
  return `"${segment}" is an action on ${owner ?? 'the API'}: paths name resources (nouns), the method says what to do; ${instead}. The generated service answers it 501 until its handler is written`;
}

/** `getUsers`, `delete-user`, `cancel`; not `download-links` or `add-ons`, where the verb qualifies a plural noun. */
function isAction(segment: string): boolean {
  const [first = '', ...rest] = words(segment);
  if (!ACTION_VERBS.has(first)) return false;
  return !(NOUN_MODIFIERS.has(first) && rest.length > 0 && isPlural(rest.at(-1)!, new Set()));
}

export const collectionPlural: LintRule = {
  code: 'LINT_COLLECTION_SINGULAR',
  severity: 'warning',
  check(context) {
    const lists = new Set(
      context.operations.filter(({ path, method, operation }) => classifyOperation(context.document, path, method, operation) === 'list').map((o) => o.path),
    );
    return pathsOf(context).flatMap((path) => {
      const { pairs } = pathShape(path);
      // A collection is a segment followed by an id, or the last segment of a list operation's path.
      const collections = pairs.filter((pair, index) => pair.collection !== '' && (pair.idParams.length > 0 || (index === pairs.length - 1 && lists.has(path))));
      const singular = collections.find(({ collection }) => !isPlural(headNoun(collection), context.plurals));
      return singular
        ? [{ at: at(path), path, message: `collection "${singular.collection}" is not a plural noun (if it is one, add it to x-specforge.lint.plurals)` }]
        : [];
    });
  },
};

type Casing = 'kebab-case' | 'camelCase' | 'snake_case';

function casingOf(segment: string): Casing | undefined {
  if (segment.includes('_')) return 'snake_case';
  if (segment.includes('-')) return 'kebab-case';
  if (/[a-z][A-Z]/.test(segment)) return 'camelCase';
  return undefined; // one word: fits either
}

export const pathCasing: LintRule = {
  code: 'LINT_PATH_CASING',
  severity: 'warning',
  check(context) {
    const styled = pathsOf(context).flatMap((path) =>
      staticSegments(path).flatMap((segment) => {
        const casing = casingOf(segment);
        return casing ? [{ path, segment, casing }] : [];
      }),
    );
    const count = (casing: Casing) => styled.filter((s) => s.casing === casing).length;
    // The spec's own majority of the two allowed casings sets the style; kebab-case on a tie.
    const style: Casing = count('camelCase') > count('kebab-case') ? 'camelCase' : 'kebab-case';
    const reported = new Set<string>();
    return styled.flatMap(({ path, segment, casing }): Finding[] => {
      if (casing === style || reported.has(path)) return [];
      reported.add(path);
      return [{ at: at(path), path, message: `"${segment}" is ${casing}; this spec's paths are ${style}` }];
    });
  },
};

export const pathShapeRule: LintRule = {
  code: 'LINT_PATH_SHAPE',
  severity: 'warning',
  check: (context) =>
    pathsOf(context).flatMap((path) => {
      if (path.length > 1 && path.endsWith('/')) return [{ at: at(path), path, message: 'the path ends with a slash' }];
      if (path.includes('//')) return [{ at: at(path), path, message: 'the path has an empty segment (`//`)' }];
      return [];
    }),
};

export const versionSegment: LintRule = {
  code: 'LINT_VERSION_SEGMENT',
  severity: 'error',
  check(context) {
    const findings: Finding[] = [];
    const versions = new Map<string, string[]>();
    const meantVersioned = new Set<string>(); // paths with a version segment, well-formed or not
    for (const path of pathsOf(context)) {
      const segments = path.split('/').filter(Boolean);
      segments.forEach((segment, index) => {
        if (!VERSION_LIKE.test(segment)) return;
        meantVersioned.add(path);
        const placed = index === 0 || (index === 1 && segments[0] === 'api');
        if (!/^v[1-9]\d*$/.test(segment)) findings.push({ at: at(path), path, message: `"${segment}" is not a version segment of the form v<N>, N a positive integer` });
        else if (!placed) findings.push({ at: at(path), path, message: `"${segment}" must come first, or right after /api` });
        else versions.set(segment, [...(versions.get(segment) ?? []), path]);
      });
    }
    // The version most paths use is the spec's; the others, and paths without one, are the odd ones out.
    const [usual] = [...versions].sort((a, b) => b[1].length - a[1].length)[0] ?? [];
    for (const [version, paths] of versions) {
      if (version !== usual) findings.push(...paths.map((path) => ({ at: at(path), path, message: `${version} here, ${usual} in most paths: every path uses the same version` })));
    }
    if (meantVersioned.size > 0) {
      const unversioned = pathsOf(context).filter((path) => !meantVersioned.has(path));
      findings.push(...unversioned.map((path) => ({ at: at(path), path, message: 'other paths carry a version segment; this one does not' })));
    }
    return findings;
  },
};
