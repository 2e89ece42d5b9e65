import type { Tenant } from '#lib/tenants/store/tenants';
import { PLAN_TIERS } from '#lib/tenants/rules/plans';
import { planCheck } from '#lib/http/plan-check';
import { apiRequest, runBefore } from './request-builders';

function tenantWithPlan(plan: Tenant['plan']): Tenant {
  return {
    tenantId: 'ten_01',
    slug: 'demo-studio',
    name: 'Demo Studio',
    paymentAccessApproved: false,
    platformFeeBps: 0,
    createdAt: '2027-01-01T00:00:00.000Z',
    plan,
  };
}

const onPlan = (tier: string) =>
  apiRequest(undefined, { tenant: tenantWithPlan({ tier, updatedAt: '2027-01-01T00:00:00.000Z' }) });

describe('planCheck', () => {
  it('knows the tiers free < starter < creator < pro < studio', () => {
    expect(PLAN_TIERS).toEqual(['free', 'starter', 'creator', 'pro', 'studio']);
  });

  it.each(['creator', 'pro', 'studio'])('lets a tenant on the %s plan pass', async (tier) => {
    const request = onPlan(tier);

    await expect(runBefore(planCheck(), request)).resolves.toBeUndefined();
  });

  it.each(['free', 'starter'])('gives 403 plan_upgrade_required to a tenant on the %s plan', async (tier) => {
    await expect(runBefore(planCheck(), onPlan(tier))).rejects.toMatchObject({
      code: 'plan_upgrade_required',
      status: 403,
    });
  });

  it.each(['gold', 'Creator', ''])('gives 503 plan_check_unavailable for the unknown tier %p', async (tier) => {
    await expect(runBefore(planCheck(), onPlan(tier))).rejects.toMatchObject({
      code: 'plan_check_unavailable',
      status: 503,
    });
  });

  it('gives 503 plan_check_unavailable to a tenant without a plan record', async () => {
    const request = apiRequest(undefined, { tenant: tenantWithPlan(undefined) });

    await expect(runBefore(planCheck(), request)).rejects.toMatchObject({ code: 'plan_check_unavailable' });
  });

  it('gives 503 plan_check_unavailable when no tenant was resolved', async () => {
    await expect(runBefore(planCheck(), apiRequest())).rejects.toMatchObject({ code: 'plan_check_unavailable' });
  });
});
