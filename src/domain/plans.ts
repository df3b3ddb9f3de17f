// Plans, their order and their limits (the README's decisions where the interface is silent).
export const PLANS = ['starter', 'growth', 'pro', 'business'] as const;
export type Plan = (typeof PLANS)[number];

export interface PlanLimits {
  votesPerMonth: number;
  providers: number;
  callbacks: number;
  apiKeys: number;
  callbackTimeoutMsCeiling: number;
}

export const PLAN_LIMITS: Record<Plan, PlanLimits> = {
  starter: { votesPerMonth: 1_000, providers: 2, callbacks: 1, apiKeys: 0, callbackTimeoutMsCeiling: 5_000 },
  growth: { votesPerMonth: 10_000, providers: 10, callbacks: 3, apiKeys: 10, callbackTimeoutMsCeiling: 5_000 },
  pro: { votesPerMonth: 25_000, providers: 25, callbacks: 10, apiKeys: 25, callbackTimeoutMsCeiling: 15_000 },
  business: { votesPerMonth: 250_000, providers: 100, callbacks: 50, apiKeys: 100, callbackTimeoutMsCeiling: 30_000 },
};

export function isPlan(value: unknown): value is Plan {
  return typeof value === 'string' && (PLANS as readonly string[]).includes(value);
}

/** An organization's plan; an unknown value (a row written by hand) counts as the smallest. */
export function planOf(org: { plan: string }): Plan {
  return isPlan(org.plan) ? org.plan : 'starter';
}

export function planAtLeast(current: string, required: Plan): boolean {
  return PLANS.indexOf(current as Plan) >= PLANS.indexOf(required);
}
