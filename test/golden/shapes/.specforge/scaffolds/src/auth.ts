/**
 * Who may call the API. specforge created this file once; it is yours:
 * replace `authenticate` with your identity provider (verify a JWT, look an
 * API key up in a database…).
 *
 * The default accepts the credentials listed in the environment:
 *   API_TOKENS="secret1,secret2:catalog:write reviews:write"   Bearer tokens
 *   API_KEYS="key1:catalog:write"                              X-API-Key values
 * Each entry is `secret` or `secret:scope1 scope2`. Secrets are compared in
 * constant time (only a secret's length can be told from the timing) and
 * never logged.
 */
import { timingSafeEqual } from 'node:crypto';
import type {
  Authenticate,
  Credential,
  CredentialScheme,
  Principal,
} from './generated/conventions/auth.js';

interface Accepted {
  secret: Buffer;
  principal: Principal;
}

function parse(list: string | undefined, scheme: CredentialScheme): Accepted[] {
  return (list ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .map((entry, index) => {
      const colon = entry.indexOf(':');
      const secret = colon < 0 ? entry : entry.slice(0, colon);
      const scopes =
        colon < 0
          ? []
          : entry
              .slice(colon + 1)
              .split(/\s+/)
              .filter(Boolean);
      // The id names the credential without revealing it: rate limits and logs use it.
      return {
        secret: Buffer.from(secret),
        principal: { id: `${scheme}-${index + 1}`, scheme, scopes },
      };
    });
}

const accepted: Record<CredentialScheme, Accepted[]> = {
  bearer: parse(process.env.API_TOKENS, 'bearer'),
  apiKey: parse(process.env.API_KEYS, 'apiKey'),
};

export const authenticate: Authenticate = (credential: Credential) => {
  const given = Buffer.from(credential.secret);
  let found: Principal | undefined;
  // Every entry is compared, so the time taken does not tell which one matched.
  for (const entry of accepted[credential.scheme]) {
    if (entry.secret.length === given.length && timingSafeEqual(entry.secret, given))
      found = entry.principal;
  }
  return found;
};
