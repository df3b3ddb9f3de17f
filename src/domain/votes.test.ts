import { describe, expect, it } from 'vitest';
import { PLAN_LIMITS } from './plans.js';
import { countingOf, NEW_ORG_DEFAULTS, type HookOrg } from './votes.js';

const org = (plan: string): HookOrg => ({
  id: 'o',
  slug: 'o',
  plan,
  status: 'active',
  chatNotificationsEnabled: true,
  chatWebhookUrl: null,
  serverCallbackUrl: null,
  ...NEW_ORG_DEFAULTS,
});

describe('how a new vote counts (both vote writers)', () => {
  it("a real vote counts, and is over the limit once the month reached the plan's", () => {
    const limit = PLAN_LIMITS.growth.votesPerMonth;
    expect(countingOf({ org: org('growth') }, 0)).toEqual({ overLimit: false, counts: true });
    expect(countingOf({ org: org('growth') }, limit - 1)).toEqual({ overLimit: false, counts: true });
    expect(countingOf({ org: org('growth') }, limit)).toEqual({ overLimit: true, counts: true });
    // An unknown plan is read as starter's.
    expect(countingOf({ org: org('nonsense') }, PLAN_LIMITS.starter.votesPerMonth)).toEqual({ overLimit: true, counts: true });
  });

  it('a test vote never counts and is never over the limit, with or without game servers', () => {
    for (const deliverToGameServers of [false, true]) {
      const test = { deliverToGameServers };
      expect(countingOf({ org: org('starter'), test }, 0)).toEqual({ overLimit: false, counts: false });
      expect(countingOf({ org: org('starter'), test }, PLAN_LIMITS.starter.votesPerMonth * 2)).toEqual({ overLimit: false, counts: false });
    }
  });
});
