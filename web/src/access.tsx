// What the signed-in key may do: write controls are disabled (and say why) for a read key; plan gates show the plan.
import { createContext, useContext, type ReactNode } from 'react';

export interface Access {
  scope: 'read' | 'full';
  plan: string;
}

export const AccessContext = createContext<Access>({ scope: 'read', plan: 'starter' });
export const useAccess = () => useContext(AccessContext);

/** The live feed's state; `resumed` counts reconnections, so a page can fetch what it missed while cut off. */
export interface Live {
  state: 'connected' | 'lost';
  resumed: number;
}
export const LiveContext = createContext<Live>({ state: 'connected', resumed: 0 });
export const useLive = () => useContext(LiveContext);

export const READ_ONLY_REASON = 'This API key has the read scope: sign in with a full key to change anything.';

const PLAN_ORDER = ['starter', 'growth', 'pro', 'business'];
export const planAtLeast = (plan: string, required: string) => PLAN_ORDER.indexOf(plan) >= PLAN_ORDER.indexOf(required);

/** A feature the plan does not include: an upgrade badge naming the plan, never an error page. */
export function UpgradeBadge({ plan, children }: { plan: string; children?: ReactNode }) {
  return (
    <div className="upgrade" role="note">
      <span className="badge upgrade-badge">Upgrade to {plan}</span> {children ?? `This needs the ${plan} plan or higher.`}
    </div>
  );
}
