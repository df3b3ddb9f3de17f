// Who may call what: every GraphQL root field names an AccessRule (deny by default); this checks it.
import { AppError } from '../base/errors.js';
import { planAtLeast, type Plan } from '../domain/plans.js';

export type Scope = 'read' | 'full';

export interface Viewer {
  organizationId: string;
  organizationSlug: string;
  plan: string;
  status: string;
  apiKeyId: string;
  scope: Scope;
}

/** The outcome of reading the Authorization header once per request. */
export interface PluginCaller {
  organizationId: string;
  tokenId: string;
  status: string;
}

/** `hint`: why a credential sent some other way was not read (src/auth/api-key-token.ts `credentialHint`). */
export type AuthState =
  | { kind: 'anonymous'; hint?: string }
  | { kind: 'invalid'; hint?: string }
  | { kind: 'viewer'; viewer: Viewer }
  | { kind: 'plugin'; plugin: PluginCaller };

export interface AccessRule {
  /** `public`: no key needed. `read`: any valid key. `full`: a full-scope key. `plugin`: a plugin token only. */
  scope: 'public' | Scope | 'plugin';
  plan?: Plan;
  /** Suspended organizations may still call this (only GET /v1/organization). */
  allowSuspended?: boolean;
}

const authRequired = (hint?: string) =>
  new AppError('AUTH_REQUIRED', hint ? `Authentication required: ${hint}` : 'Authentication required: send Authorization: Bearer <API_KEY>');

/** The refusal of a credential that was sent but is not a valid key, with the reason when it was sent the wrong way. */
export const invalidApiKey = (hint?: string) =>
  new AppError('INVALID_API_KEY', hint ? `The API key was not read: ${hint}` : 'The API key is invalid, malformed or revoked');

export function checkAccess(auth: AuthState, rule: AccessRule): Viewer | null {
  if (rule.scope === 'public') return auth.kind === 'viewer' ? auth.viewer : null;
  if (auth.kind === 'anonymous') throw authRequired(auth.hint);
  if (auth.kind === 'invalid') throw invalidApiKey(auth.hint);
  if (rule.scope === 'plugin') {
    if (auth.kind !== 'plugin') throw new AppError('INSUFFICIENT_SCOPE', 'This endpoint needs a plugin token (vr_plugin_…)');
    if (auth.plugin.status === 'suspended') throw new AppError('ORG_SUSPENDED', 'This organization is suspended');
    return null;
  }
  if (auth.kind === 'plugin') throw new AppError('INSUFFICIENT_SCOPE', 'Plugin tokens may only use the /v1/plugin endpoints');
  const { viewer } = auth;
  if (viewer.status === 'suspended' && !rule.allowSuspended) {
    throw new AppError('ORG_SUSPENDED', 'This organization is suspended');
  }
  if (rule.scope === 'full' && viewer.scope !== 'full') {
    throw new AppError('INSUFFICIENT_SCOPE', 'This operation needs an API key with the full scope');
  }
  if (rule.plan && !planAtLeast(viewer.plan, rule.plan)) {
    throw new AppError('PLAN_UPGRADE_REQUIRED', `This feature needs the ${rule.plan} plan or higher`, {
      required_plan: rule.plan,
      current_plan: viewer.plan,
    });
  }
  return viewer;
}

export function requirePlugin(auth: AuthState): PluginCaller {
  if (auth.kind !== 'plugin') throw new AppError('INSUFFICIENT_SCOPE', 'This endpoint needs a plugin token (vr_plugin_…)');
  return auth.plugin;
}

/** The viewer of a field that checked access already; a missing viewer here is a programming error. */
export function requireViewer(auth: AuthState): Viewer {
  if (auth.kind !== 'viewer') throw authRequired(auth.kind === 'anonymous' ? auth.hint : undefined);
  return auth.viewer;
}
