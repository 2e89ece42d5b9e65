import { ConflictError, NotFoundError, UsageError } from '../cli-kit/cli-errors';
import { formatFields, formatTable, yesNo } from '../cli-kit/output';
import { findTenant } from '../cli-kit/lookups';
import {
  type OptionValues,
  flag,
  optionalText,
  optionalTrueFalse,
  optionalWholeNumber,
  requiredText,
  tenantSlug,
} from '../cli-kit/options';
import type { CommandHandlers, CommandResult } from './command-types';
import { optionalPlanTier, optionalStripeAccount } from './admin-options';
import {
  type Tenant,
  TenantExistsError,
  allowReturnOrigin,
  createTenant,
  disallowReturnOrigin,
  getTenantBySlug,
  listTenants,
  setTenantPlan,
  updateTenantSettings,
} from '#lib/tenants/store/tenants';
import { ALLOWED_RETURN_ORIGINS_MAX, allowableReturnOrigin } from '#lib/payments/checkout-urls';
import { MAX_TENANT_SHARE_PER_SECOND, type TenantShare, tenantShareOf } from '#lib/tenants/rules/tenant-share';

/** `tenant create|update|show|list|origins|allow-origin|disallow-origin`. */
export const tenantCommands: CommandHandlers = {
  async create(values) {
    const slug = tenantSlug(values, 'slug');
    const name = requiredText(values, 'name');
    const plan = optionalPlanTier(values);
    if (plan === undefined) throw new UsageError('--plan is required');
    const stripeAccountId = optionalStripeAccount(values);
    try {
      const tenant = await createTenant({
        slug,
        name,
        plan,
        stripeAccountId,
        paymentAccessApproved: flag(values, 'payment-approved'),
        platformFeeBps: platformFeeBps(values),
      });
      return tenantResult(tenant, `Created tenant "${tenant.slug}"`);
    } catch (error) {
      if (error instanceof TenantExistsError) throw new ConflictError(error.message);
      throw error;
    }
  },

  async update(values) {
    const slug = tenantSlug(values, 'slug');
    const changes = tenantChanges(values);
    const shareChange = publicShareChange(values);
    const plan = optionalPlanTier(values);
    if (Object.values(changes).every((value) => value === undefined) && plan === undefined && !shareChange) {
      throw new UsageError(
        'Nothing to update: give --name, --plan, --stripe-account, --payment-approved, --platform-fee-bps or --checkins-per-second',
      );
    }
    const current = await findTenant(values, 'slug');
    const publicShare = shareChange && { ...current.publicShare, ...shareChange };
    if (!(await updateTenantSettings(slug, { ...changes, publicShare })))
      throw new NotFoundError(`No tenant with slug "${slug}"`);
    if (plan !== undefined) await setTenantPlan(slug, plan);
    return tenantResult(await readTenant(slug), `Updated tenant "${slug}"`);
  },

  async show(values) {
    return tenantResult(await findTenant(values, 'slug'));
  },

  async origins(values) {
    return originsResult(await findTenant(values, 'slug'));
  },

  async 'allow-origin'(values) {
    const slug = tenantSlug(values, 'slug');
    const origin = returnOrigin(values);
    const change = await allowReturnOrigin(slug, origin, ALLOWED_RETURN_ORIGINS_MAX);
    if (change === 'no_tenant') throw new NotFoundError(`No tenant with slug "${slug}"`);
    if (change === 'limit_reached') {
      throw new ConflictError(
        `Tenant "${slug}" allows ${ALLOWED_RETURN_ORIGINS_MAX} return origins already; disallow one first`,
      );
    }
    const headline =
      change === 'changed'
        ? `Allowed return origin ${origin} for tenant "${slug}"`
        : `Tenant "${slug}" allowed return origin ${origin} already`;
    return originsResult(await readTenant(slug), headline);
  },

  async 'disallow-origin'(values) {
    const slug = tenantSlug(values, 'slug');
    const origin = returnOrigin(values);
    const change = await disallowReturnOrigin(slug, origin);
    if (change === 'no_tenant') throw new NotFoundError(`No tenant with slug "${slug}"`);
    if (change === 'unchanged') throw new NotFoundError(`Tenant "${slug}" does not allow the return origin ${origin}`);
    return originsResult(await readTenant(slug), `Disallowed return origin ${origin} for tenant "${slug}"`);
  },

  async list() {
    const tenants = await listTenants();
    return {
      data: tenants,
      lines: [
        `${tenants.length} tenant(s)`,
        ...formatTable(
          ['SLUG', 'NAME', 'PLAN', 'PAYMENTS APPROVED', 'CREATED'],
          tenants.map((tenant) => [
            tenant.slug,
            tenant.name,
            tenant.plan?.tier ?? '(none)',
            yesNo(tenant.paymentAccessApproved),
            tenant.createdAt,
          ]),
        ),
      ],
    };
  },
};

function tenantChanges(values: OptionValues) {
  return {
    name: optionalText(values, 'name'),
    stripeAccountId: optionalStripeAccount(values),
    paymentAccessApproved: optionalTrueFalse(values, 'payment-approved'),
    platformFeeBps: platformFeeBps(values),
  };
}

/** `--checkins-per-second`: the tenant's share of the check-in route (1 to 500; docs/admin-cli.md). */
function publicShareChange(values: OptionValues): Partial<TenantShare> | undefined {
  const perSecond = optionalWholeNumber(values, 'checkins-per-second', 1);
  if (perSecond !== undefined && perSecond > MAX_TENANT_SHARE_PER_SECOND)
    throw new UsageError(`--checkins-per-second must be at most ${MAX_TENANT_SHARE_PER_SECOND}`);
  return perSecond === undefined ? undefined : { checkinsPerSecond: perSecond };
}

/** The platform fee on paid packages in basis points: 0 to 5000 (50 %). */
function platformFeeBps(values: OptionValues): number | undefined {
  const fee = optionalWholeNumber(values, 'platform-fee-bps', 0);
  if (fee !== undefined && fee > 5000) throw new UsageError('--platform-fee-bps must be at most 5000 (50 %)');
  return fee;
}

/** `--origin`: an https origin such as https://photos.example.com, in its normal form. */
function returnOrigin(values: OptionValues): string {
  const text = requiredText(values, 'origin', 300);
  const origin = allowableReturnOrigin(text);
  if (origin === undefined) {
    throw new UsageError(
      `--origin "${text}" is not an https origin such as https://photos.example.com (no path, query or fragment; not localhost)`,
    );
  }
  return origin;
}

/** A tenant's allowed return origins; the check-in page's origin is allowed besides them. */
function originsResult(tenant: Tenant, headline?: string): CommandResult {
  const origins = tenant.allowedReturnOrigins ?? [];
  return {
    data: { slug: tenant.slug, allowedReturnOrigins: origins },
    lines: [
      ...(headline ? [headline] : []),
      `Return origins of tenant ${tenant.slug}: ${origins.length === 0 ? 'none' : origins.length}`,
      ...origins.map((origin) => `  ${origin}`),
      "Always allowed as well: the check-in page's origin (CHECKIN_PAGE_URL), and localhost on the local stack.",
    ],
  };
}

async function readTenant(slug: string): Promise<Tenant> {
  const tenant = await getTenantBySlug(slug);
  if (!tenant) throw new NotFoundError(`No tenant with slug "${slug}"`);
  return tenant;
}

function publicShareInWords(tenant: Tenant): string {
  const share = tenantShareOf(tenant.publicShare);
  const own = tenant.publicShare ? '' : ' (the defaults)';
  return `${share.checkinsPerSecond} check-in attempts a second${own}`;
}

function tenantResult(tenant: Tenant, headline?: string): CommandResult {
  return {
    data: tenant,
    lines: [
      ...(headline ? [headline] : []),
      `Tenant ${tenant.slug}`,
      ...formatFields([
        ['tenant ID', tenant.tenantId],
        ['name', tenant.name],
        ['plan', tenant.plan ? `${tenant.plan.tier} (since ${tenant.plan.updatedAt})` : '(no plan record)'],
        ['Stripe account', tenant.stripeAccountId ?? '(none)'],
        ['payments approved', yesNo(tenant.paymentAccessApproved)],
        ['return origins', tenant.allowedReturnOrigins?.join(', ') ?? '(only the check-in page)'],
        ['public share', publicShareInWords(tenant)],
        ['created', tenant.createdAt],
      ]),
    ],
  };
}
