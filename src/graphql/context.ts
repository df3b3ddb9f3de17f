// What every resolver receives: the services, the dependencies and the caller (read once from Authorization).
import type { AppDeps } from '../app-deps.js';
import type { Services } from '../services.js';
import type { AuthState } from '../auth/access.js';
import type { Loaders } from './loaders.js';

export interface GraphQLContext {
  deps: AppDeps;
  services: Services;
  auth: AuthState;
  requestId: string;
  /** The caller's address (Express `req.ip`, honouring TRUST_PROXY): unauthenticated budgets are kept per address. */
  clientIp: string;
  loaders: Loaders;
}
