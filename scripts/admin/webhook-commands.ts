import { NotFoundError, UsageError } from '../cli-kit/cli-errors';
import { formatFields, formatTable, yesNo } from '../cli-kit/output';
import { findTenant } from '../cli-kit/lookups';
import {
  type OptionValues,
  flag,
  optionalChoice,
  optionalText,
  optionalWholeNumber,
  requiredText,
  tenantSlug,
} from '../cli-kit/options';
import type { CommandHandlers, CommandResult } from './command-types';
import { nowIso } from '#lib/platform/clock';
import { getDelivery, listDeliveries } from '#lib/webhooks/store/webhook-deliveries';
import {
  deleteSubscription,
  getSubscription,
  listSubscriptions,
  setSubscriptionEnabled,
} from '#lib/webhooks/store/webhook-subscriptions';
import type { DeliveryStatus, WebhookDelivery } from '#lib/webhooks/rules/webhook-delivery';
import { type WebhookSubscription, parseEventTypes } from '#lib/webhooks/rules/webhook-subscription';
import {
  WebhookUrlRefused,
  createSubscription,
  replayDelivery,
  replayFailedDeliveries,
  rotateSigningSecret,
} from '#lib/webhooks/manage-subscriptions';

const SHOWN_ONCE_WARNING = 'Store this signing secret now: it will not be shown again (rotate-secret makes a new one).';
const DELIVERY_STATUSES: readonly DeliveryStatus[] = ['pending', 'delivered', 'failed', 'gone', 'replay_requested'];

/**
 * `webhook add|list|show|enable|disable|rotate-secret|remove|deliveries|attempts|replay`. Only
 * `add` and `rotate-secret` print a signing secret, once; nothing else can read one back.
 */
export const webhookCommands: CommandHandlers = {
  async add(values) {
    tenantSlug(values, 'tenant');
    const url = requiredText(values, 'url', 2048);
    let eventTypes;
    try {
      eventTypes = parseEventTypes(optionalText(values, 'events', 500) ?? 'all');
    } catch (error) {
      throw new UsageError(`--events: ${(error as Error).message}`);
    }
    const tenant = await findTenant(values);
    try {
      const { subscription, secret } = await createSubscription({
        tenant,
        url,
        eventTypes,
        description: optionalText(values, 'description'),
      });
      return {
        data: { ...view(subscription), signingSecret: secret, warning: SHOWN_ONCE_WARNING },
        lines: [
          `Subscribed ${subscription.url} to ${eventTypes.join(', ')} for tenant "${tenant.slug}"`,
          ...subscriptionLines(subscription),
          '',
          `  ${secret}`,
          '',
          SHOWN_ONCE_WARNING,
        ],
      };
    } catch (error) {
      if (error instanceof WebhookUrlRefused) throw new UsageError(`--url refused: ${error.reason}`);
      throw error;
    }
  },

  async list(values) {
    const tenant = await findTenant(values);
    const subscriptions = await listSubscriptions(tenant.tenantId);
    return {
      data: subscriptions.map(view),
      lines: [
        `${subscriptions.length} webhook subscription(s) of tenant "${tenant.slug}"`,
        ...formatTable(
          ['ID', 'URL', 'EVENTS', 'ENABLED', 'FAILING SINCE'],
          subscriptions.map((s) => [
            s.subscriptionId,
            s.url,
            s.eventTypes.join(','),
            yesNo(s.enabled),
            failingSince(s) ?? '',
          ]),
        ),
      ],
    };
  },

  async show(values) {
    const subscription = await findSubscription(values);
    return {
      data: view(subscription),
      lines: [`Webhook subscription ${subscription.subscriptionId}`, ...subscriptionLines(subscription)],
    };
  },

  enable: (values) => changeEnabled(values, true),
  disable: (values) => changeEnabled(values, false),

  async 'rotate-secret'(values) {
    const subscription = await findSubscription(values);
    const graceHours = optionalWholeNumber(values, 'grace-hours', 0) ?? undefined;
    const { secret, previousValidUntil } = await rotateSigningSecret(subscription, graceHours);
    return {
      data: {
        subscriptionId: subscription.subscriptionId,
        signingSecret: secret,
        previousSecretsValidUntil: previousValidUntil,
        warning: SHOWN_ONCE_WARNING,
      },
      lines: [
        `New signing secret of ${subscription.subscriptionId}; deliveries carry a signature with the previous secret too until ${previousValidUntil}`,
        '',
        `  ${secret}`,
        '',
        SHOWN_ONCE_WARNING,
      ],
    };
  },

  async remove(values) {
    const subscription = await findSubscription(values);
    await deleteSubscription(subscription.tenantId, subscription.subscriptionId);
    return {
      data: { subscriptionId: subscription.subscriptionId, removed: true },
      lines: [`Removed webhook subscription ${subscription.subscriptionId}`],
    };
  },

  async deliveries(values) {
    const subscription = await findSubscription(values);
    const status = optionalChoice(values, 'status', DELIVERY_STATUSES);
    const deliveries = await listDeliveries(subscription.tenantId, subscription.subscriptionId, {
      status,
      limit: optionalWholeNumber(values, 'limit', 1) ?? 50,
    });
    return {
      data: deliveries,
      lines: [
        `${deliveries.length} deliver${deliveries.length === 1 ? 'y' : 'ies'} of ${subscription.subscriptionId}${status ? ` (${status})` : ''}, newest first`,
        ...formatTable(
          ['EVENT ID', 'TYPE', 'STATUS', 'ATTEMPTS', 'LAST', 'NEXT ATTEMPT'],
          deliveries.map((d) => [
            d.eventId,
            d.eventType,
            d.status,
            String(d.attempts),
            lastOutcome(d),
            d.status === 'pending' ? new Date(d.nextAttemptAt).toISOString() : '',
          ]),
        ),
      ],
    };
  },

  async attempts(values) {
    const subscription = await findSubscription(values);
    const eventId = requiredText(values, 'event');
    const delivery = await getDelivery(subscription.tenantId, subscription.subscriptionId, eventId);
    if (!delivery) throw new NotFoundError(`No delivery of event ${eventId} to ${subscription.subscriptionId}`);
    return {
      data: delivery,
      lines: [
        `Delivery of ${delivery.eventId} (${delivery.eventType}) to ${subscription.subscriptionId}: ${delivery.status}`,
        ...formatTable(
          ['ATTEMPT', 'AT', 'OUTCOME', 'MS'],
          delivery.attemptLog.map((a) => [
            String(a.attempt),
            a.at,
            a.failure
              ? `${a.failure}${a.statusCode ? ` ${a.statusCode}` : ''}`
              : `delivered ${a.statusCode ?? ''}`.trim(),
            String(a.durationMs),
          ]),
        ),
      ],
    };
  },

  async replay(values) {
    const subscription = await findSubscription(values);
    const eventId = optionalText(values, 'event');
    const allFailed = flag(values, 'failed');
    if ((eventId === undefined) === !allFailed) throw new UsageError('Give either --event EVENT_ID or --failed');
    if (eventId !== undefined) {
      if (!(await replayDelivery(subscription, eventId))) {
        throw new NotFoundError(
          `No delivery of event ${eventId} to ${subscription.subscriptionId} that can be replayed (unknown, or waiting already)`,
        );
      }
      return { data: { replayed: 1 }, lines: [`Replay of ${eventId} requested; it is sent within seconds`] };
    }
    const replayed = await replayFailedDeliveries(subscription);
    return {
      data: { replayed },
      lines: [`Replay of ${replayed} failed deliver${replayed === 1 ? 'y' : 'ies'} requested`],
    };
  },
};

async function findSubscription(values: OptionValues): Promise<WebhookSubscription> {
  tenantSlug(values, 'tenant');
  const subscriptionId = requiredText(values, 'id');
  const tenant = await findTenant(values);
  const subscription = await getSubscription(tenant.tenantId, subscriptionId);
  if (!subscription)
    throw new NotFoundError(`Tenant "${tenant.slug}" has no webhook subscription with ID "${subscriptionId}"`);
  return subscription;
}

async function changeEnabled(values: OptionValues, enabled: boolean): Promise<CommandResult> {
  const subscription = await findSubscription(values);
  await setSubscriptionEnabled(subscription.tenantId, subscription.subscriptionId, enabled, nowIso());
  const changed = (await getSubscription(subscription.tenantId, subscription.subscriptionId))!;
  return {
    data: view(changed),
    lines: [
      `${enabled ? 'Enabled' : 'Disabled'} webhook subscription ${changed.subscriptionId}`,
      ...subscriptionLines(changed),
    ],
  };
}

/** A subscription as printed: never its secrets, only how many sign. */
function view(subscription: WebhookSubscription) {
  const { secrets, ...shown } = subscription;
  return { ...shown, signingSecrets: secrets.length };
}

function failingSince(subscription: WebhookSubscription): string | undefined {
  return subscription.failingSince === undefined ? undefined : new Date(subscription.failingSince).toISOString();
}

function subscriptionLines(subscription: WebhookSubscription): string[] {
  return formatFields([
    ['id', subscription.subscriptionId],
    ['url', subscription.url],
    ['events', subscription.eventTypes.join(', ')],
    [
      'enabled',
      yesNo(subscription.enabled) +
        (subscription.disabledReason ? ` (disabled ${subscription.disabledAt}, ${subscription.disabledReason})` : ''),
    ],
    ['failing since', failingSince(subscription)],
    ['signing secrets', String(subscription.secrets.length)],
    ['description', subscription.description ?? undefined],
    ['created', subscription.createdAt],
  ]);
}

function lastOutcome(delivery: WebhookDelivery): string {
  const last = delivery.attemptLog.at(-1);
  if (!last) return '';
  return last.failure
    ? `${last.failure}${last.statusCode ? ` ${last.statusCode}` : ''}`
    : `ok ${last.statusCode ?? ''}`.trim();
}
