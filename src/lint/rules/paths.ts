/**
 * Path rules (conventions §2 naming, §4 path shapes, §9 versioning): nouns
 * not verbs, plural collections, one casing, no empty segments or trailing
 * slash, one well-formed version segment.
 */
import { classifyOperation, pathShape } from '../../openapi/classify.js';
import { words } from '../../openapi/names.js';
import type { Finding, LintContext, LintRule } from '../rule.js';
import { ACTION_VERBS, isPlural } from '../words.js';

const PARAM = /^\{[^}]*\}$/;
// `v2`, `v1.0`, `version3`: a segment meant as a version. A bare `version` is a resource (`GET /version`).
const VERSION_LIKE = /^(v\d.*|version\d+)$/i;

const staticSegments = (path: string) => path.split('/').filter((segment) => segment !== '' && !PARAM.test(segment));
const pathsOf = (context: LintContext) => Object.keys(context.document.paths ?? {});
const at = (path: string) => ['paths', path];

export const pathVerb: LintRule = {
  code: 'LINT_PATH_VERB',
  severity: 'warning',
  check: (context) =>
    pathsOf(context).flatMap((path) => {
      const verb = staticSegments(path).find((segment) => ACTION_VERBS.has(words(segment)[0] ?? ''));
      return verb ? [{ at: at(path), path, message: `"${verb}" is an action: paths name resources (nouns), the method says what to do` }] : [];
    }),
};

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

/** Words after which a segment qualifies its noun: `codes-of-conduct`, `branches-where-head`. */
const QUALIFIERS = new Set(['of', 'where', 'by', 'for', 'with', 'in', 'on', 'to', 'from']);

/** The noun a segment names: the word before a qualifier, else the last word that is not a version (`projectsV2`). */
function headNoun(segment: string): string {
  const parts = words(segment).filter((word) => !/^v?\d+$/.test(word));
  const qualifier = parts.findIndex((word) => QUALIFIERS.has(word));
  return (qualifier > 0 ? parts[qualifier - 1] : parts.at(-1)) ?? segment;
}

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
    for (const path of pathsOf(context)) {
      const segments = path.split('/').filter(Boolean);
      segments.forEach((segment, index) => {
        if (!VERSION_LIKE.test(segment)) return;
        const placed = index === 0 || (index === 1 && segments[0] === 'api');
        if (!/^v[1-9]\d*$/.test(segment)) findings.push({ at: at(path), path, message: `"${segment}" is not a version segment of the form v<N>, N a positive integer` });
        else if (!placed) findings.push({ at: at(path), path, message: `"${segment}" must come first, or right after /api` });
        else versions.set(segment, [...(versions.get(segment) ?? []), path]);
      });
    }
    const versioned = [...versions.values()].flat();
    if (versions.size > 1) {
      const [first] = versions.keys();
      for (const [version, paths] of versions) {
        if (version !== first) findings.push(...paths.map((path) => ({ at: at(path), path, message: `${version} here, ${first} elsewhere: every path uses the same version` })));
      }
    } else if (versioned.length > 0) {
      const unversioned = pathsOf(context).filter((path) => !versioned.includes(path));
      findings.push(...unversioned.map((path) => ({ at: at(path), path, message: 'other paths carry a version segment; this one does not' })));
    }
    return findings;
  },
};
