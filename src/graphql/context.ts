// What every resolver receives: the services, the dependencies and the caller (read once from Authorization).
import type { AppDeps } from '../app/deps.js';
import type { Services } from '../app/services.js';
import type { AuthState } from '../auth/access.js';
import type { Loaders } from './loaders.js';
import type { HookRequest } from '../modules/providers/auth-methods/auth-method.js';

export interface GraphQLContext {
  deps: AppDeps;
  services: Services;
  auth: AuthState;
  requestId: string;
  /** The caller's address (Express `req.ip`, honouring TRUST_PROXY): unauthenticated budgets are kept per address. */
  clientIp: string;
  loaders: Loaders;
  /**
   * Set by the REST hook route only (never on /graphql): the request as received, headers normalised once and the
   * exact body bytes by reference, which receiveVote then reads instead of its input's copies.
   */
  hookRequest?: HookRequest;
}
