/** What the conventions' middleware learn about a request, shared through `ctx.state`. */
import type { CredentialScheme, Principal } from './auth.js';

export interface ServiceState {
  requestId: string;
  /** The authenticated caller; undefined when anonymous or when the credential was rejected (public operations still answer). */
  principal: Principal | undefined;
  /** The scheme of the credential the request carried, accepted or not: a 401's challenge depends on it. */
  presented: CredentialScheme | undefined;
  /** The route template that answered (`/books/{id}`), with the base path; undefined while none has. */
  route?: string;
  /** The conventions' headers, waiting to go out with the answer's status (answer-headers.ts); undefined where each is set at once. */
  waitingHeaders?: string[] | undefined;
}
