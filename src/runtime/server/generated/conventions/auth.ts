/**
 * Authentication (conventions §5): the credential is read here; whether it is
 * valid, and what it may do, is decided by the `authenticate` hook in
 * `src/auth.ts`. Operations then check their own `security` requirement.
 */
import type { ParameterizedContext } from 'koa';
import { errors } from './errors.js';
import type { ServiceState } from './state.js';

export type CredentialScheme = 'bearer' | 'apiKey';

export interface Credential {
  scheme: CredentialScheme;
  /** The token or key as sent. Never log it. */
  secret: string;
}

/** An authenticated caller: who it is (the rate limit counts per `id`) and what it may do. */
export interface Principal {
  id: string;
  scheme: CredentialScheme;
  scopes: readonly string[];
}

/** Decides whether a credential is valid: a principal, or undefined for an invalid or expired one. */
export type Authenticate = (
  credential: Credential,
) => Principal | undefined | Promise<Principal | undefined>;

/**
 * An operation's `security`: any one alternative suffices; within one, every
 * scheme must be satisfied. An empty list of alternatives means public.
 */
export interface SecurityRequirement {
  public: boolean;
  alternatives: { scheme: CredentialScheme | 'unsupported'; scopes: string[] }[][];
}

/**
 * Reads the credential and asks `authenticate` about it; rejecting is left to
 * the operation. A synchronous `authenticate` is answered synchronously: a
 * promise (and a turn of the microtask queue) only where the hook returns one.
 */
export function identify(
  ctx: ParameterizedContext<ServiceState>,
  authenticate: Authenticate,
  apiKeyHeaders: readonly string[],
): void | Promise<void> {
  ctx.state.principal = undefined;
  // Node's own headers, not Koa's ctx.get: no lower-casing and delegating on every request.
  const { headers } = ctx.req;
  let apiKey = '';
  for (const header of apiKeyHeaders) {
    const value = headers[header.toLowerCase()];
    if (typeof value === 'string' && value !== '') {
      apiKey = value;
      break;
    }
  }
  const credential = credentialOf(headers.authorization ?? '', apiKey);
  ctx.state.presented = credential?.scheme;
  if (!credential) return;
  const principal = authenticate(credential);
  if (!isThenable(principal)) {
    ctx.state.principal = principal;
    return;
  }
  return Promise.resolve(principal).then((found) => {
    ctx.state.principal = found;
  });
}

/** A promise of any realm, or another thenable: what `await` would wait for. */
export function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === 'function';
}

function credentialOf(authorization: string, apiKey: string): Credential | undefined {
  const bearer = /^Bearer +(\S+)\s*$/i.exec(authorization)?.[1];
  if (bearer) return { scheme: 'bearer', secret: bearer };
  if (apiKey) return { scheme: 'apiKey', secret: apiKey };
  // An Authorization header of another kind is a credential we cannot accept.
  return authorization ? { scheme: 'bearer', secret: '' } : undefined;
}

/** Who asks: the principal, and the scheme of the credential sent (undefined when none was). */
export interface Caller {
  principal: Principal | undefined;
  presented: CredentialScheme | undefined;
}

/** What a 401's `WWW-Authenticate` names: the protection space and the API key headers. */
export interface Realm {
  name: string;
  apiKeyHeaders: readonly string[];
}

/** 401 (with a challenge) without a valid credential of an accepted scheme; 403 when it lacks a scope. */
export function authorize(requirement: SecurityRequirement, caller: Caller, realm: Realm): void {
  if (requirement.public) return;
  const { principal } = caller;
  if (!principal) throw errors.unauthorized(challengeOf(requirement, caller, realm));
  // The first alternative that lacks the fewest scopes: none lacking is the usual case, answered without a list.
  let fewest: string[] | undefined;
  for (const alternative of requirement.alternatives) {
    if (!alternative.every((scheme) => scheme.scheme === principal.scheme)) continue;
    const missing: string[] = [];
    for (const scheme of alternative)
      for (const scope of scheme.scopes) if (!principal.scopes.includes(scope)) missing.push(scope);
    if (missing.length === 0) return;
    if (fewest === undefined || missing.length < fewest.length) fewest = missing;
  }
  if (fewest === undefined) throw errors.unauthorized(challengeOf(requirement, caller, realm));
  throw errors.forbidden(`The credential lacks the scope ${fewest.join(', ')}.`);
}

/**
 * One challenge per scheme the operation accepts (RFC 9110 §11.6.1). Bearer as
 * RFC 6750 §3 says: `error="invalid_token"` only when a bearer token was sent
 * and refused. API keys have no registered scheme: `ApiKey` names the header
 * to send the key in. An operation whose schemes the service cannot check gets
 * the Bearer challenge, so a 401 always carries one.
 */
export function challengeOf(
  requirement: SecurityRequirement,
  caller: Caller,
  realm: Realm,
): string {
  const schemes = new Set(requirement.alternatives.flat().map((scheme) => scheme.scheme));
  const realmParam = `realm="${realm.name}"`;
  const challenges: string[] = [];
  if (schemes.has('bearer') || !schemes.has('apiKey')) {
    challenges.push(
      caller.presented === 'bearer'
        ? `Bearer ${realmParam}, error="invalid_token"`
        : `Bearer ${realmParam}`,
    );
  }
  if (schemes.has('apiKey'))
    challenges.push(
      ...realm.apiKeyHeaders.map((header) => `ApiKey ${realmParam}, header="${header}"`),
    );
  return challenges.join(', ');
}
