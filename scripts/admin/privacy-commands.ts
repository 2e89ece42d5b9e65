import { ConflictError, NotFoundError, UsageError } from '../cli-kit/cli-errors';
import { formatTable } from '../cli-kit/output';
import { findGallery } from '../cli-kit/lookups';
import { type OptionValues, flag, optionalText, optionalWholeNumber, requiredText } from '../cli-kit/options';
import type { CommandHandlers, CommandResult } from './command-types';
import { updateGallerySettings } from '#lib/galleries/store/galleries';
import { DomainError } from '#lib/platform/domain-error';
import {
  DEFAULT_RETENTION,
  MAX_RETENTION_DAYS,
  RETENTION_SETTINGS,
  type RetentionPolicy,
  retentionOf,
} from '#lib/galleries/rules/retention-policy';
import type { ErasureSubject } from '#lib/privacy/rules/personal-data';
import type { ErasureReceipt } from '#lib/privacy/erasure';
import { withdrawFaceConsent } from '#lib/privacy/face-consent';
import { pointOrdersToParticipants } from '#lib/payments/store/order-pointers';
import { indexEventsByPerson } from '#lib/events/store/outbox';
import { getPerson } from '#lib/persons/store/persons';
import { consentStates } from '#lib/privacy/rules/consent-states';

/** Erasure reaches the media bucket: loaded by the erase commands alone, so that the others need no MEDIA_BUCKET. */
const erasure = () => import('#lib/privacy/erasure');

/** Refusals of the domain (an order still waiting for payment) are conflicts of the command. */
async function asCommand<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof DomainError) throw new ConflictError(error.message);
    throw error;
  }
}

/** Exactly one of --person, --email, --employee-id. */
function erasureSubject(values: OptionValues): ErasureSubject {
  const given = [
    ['person', optionalText(values, 'person', 40)],
    ['email', optionalText(values, 'email', 254)],
    ['employee-id', optionalText(values, 'employee-id', 100)],
  ].filter(([, value]) => value !== undefined) as [string, string][];
  if (given.length !== 1)
    throw new UsageError('Name the person with exactly one of --person, --email or --employee-id');
  const [[option, value]] = given as [[string, string]];
  if (option === 'person') return { personId: value };
  if (option === 'email') return { email: value };
  return { employeeId: value };
}

/** A count with the IDs behind it; a gallery's receipt lists only the first ones (the JSON receipt has them). */
function countWithIds(count: number, ids: readonly string[]): string {
  if (count === 0) return '0';
  return ids.length === count ? `${count} (${ids.join(', ')})` : `${count} (the first ${ids.length} in --json)`;
}

function receiptResult(receipt: ErasureReceipt): CommandResult {
  const verb = receipt.dryRun ? 'Would remove' : 'Removed';
  const rows: [string, string][] = [
    ['persons', countWithIds(receipt.personCount, receipt.persons)],
    ['access codes', String(receipt.accessCodes)],
    ['day spots given back', String(receipt.spotsGivenBack)],
    ['selfie object versions', String(receipt.selfieVersions)],
    ['photo records', String(receipt.photoRecords)],
    ['photo object versions', String(receipt.photoObjectVersions)],
    ['orders reduced to accounting data', countWithIds(receipt.ordersRedactedCount, receipt.ordersRedacted)],
    ['checkout tokens', String(receipt.checkoutTokens)],
    ['events (webhook outbox)', String(receipt.events)],
    ['consent change records', String(receipt.consentChanges)],
    ['idempotency records', String(receipt.idempotencyRecords)],
    ['shoot photos and cards (cards kept as positions without personal data)', String(receipt.shootItems)],
    ['reference faces', String(receipt.referenceFaces)],
    ['HR exports holding them (ZIP deleted)', String(receipt.hrExports)],
    ['cached portrait crop versions', String(receipt.portraitCropVersions)],
    ...(receipt.galleryItems !== undefined
      ? [['gallery configuration items', String(receipt.galleryItems)] as [string, string]]
      : []),
  ];
  return {
    data: receipt,
    lines: [
      `${verb} for ${receipt.subject}${receipt.dryRun ? ' (dry run: nothing was changed)' : ''}`,
      ...formatTable(['WHAT', 'COUNT'], rows),
    ],
  };
}

/** A consent's value in words, for the table. */
const valueInWords = (given: boolean | null) => (given === null ? 'not asked' : given ? 'given' : 'not given');

/** `person show`, `person erase` and `person face-consent`. */
export const personCommands: CommandHandlers = {
  /** A person's consents: each with its value, whether the gallery asks for it, and its last change since check-in. */
  async show(values) {
    const personId = requiredText(values, 'person', 40);
    const { configuration } = await findGallery(values);
    const scope = { tenantId: configuration.gallery.tenantId, token: configuration.gallery.token };
    const person = await getPerson(scope, personId, { consistent: true });
    if (!person) throw new NotFoundError(`Gallery ${scope.token} has no person ${personId}`);
    const consents = consentStates(configuration.gallery, person);
    const checkedIn = person.checkedInAt ?? (person.source === 'checkin' ? person.createdAt : null);
    return {
      data: {
        personId,
        name: person.name,
        source: person.source,
        createdAt: person.createdAt,
        checkedInAt: checkedIn,
        consents,
      },
      lines: [
        `Person ${personId}: ${person.name} (${person.source === 'import' ? 'imported' : 'checked in'} ${person.createdAt})`,
        ...formatTable(
          ['CONSENT', 'VALUE', 'ASKED', 'LAST CHANGE', 'BY'],
          consents.map((consent) => [
            consent.consent,
            valueInWords(consent.given),
            consent.asked ? 'yes' : 'no',
            consent.changedAt ?? (checkedIn && consent.given !== null ? `at check-in ${checkedIn}` : '-'),
            consent.changedBy ?? '-',
          ]),
        ),
        "consentGiven, the studio's own consent, ends only with erasure (person erase).",
      ],
    };
  },

  /** The studio withdraws a person's face consent on their word: the reference face goes at once, and they leave every photo's candidates. */
  async 'face-consent'(values) {
    const personId = requiredText(values, 'person', 40);
    if (!flag(values, 'off'))
      throw new UsageError('Give --off: the studio can only withdraw a face consent (the person gives it at check-in)');
    const { tenant, configuration } = await findGallery(values);
    const scope = { tenantId: tenant.tenantId, token: configuration.gallery.token };
    const withdrawal = await withdrawFaceConsent(scope, personId);
    if (withdrawal.outcome === 'unknown_person')
      throw new NotFoundError(`Gallery ${scope.token} has no person ${personId}`);
    return {
      data: withdrawal,
      lines: [
        `Face consent of person ${personId} withdrawn`,
        ...formatTable(
          ['WHAT', 'COUNT'],
          [
            ['reference faces deleted', String(withdrawal.referenceFaces)],
            ["photos' face candidate lists they were taken out of", String(withdrawal.candidateLists)],
          ],
        ),
      ],
    };
  },

  async erase(values) {
    const subject = erasureSubject(values);
    const { tenant, configuration } = await findGallery(values);
    const scope = { tenantId: tenant.tenantId, token: configuration.gallery.token };
    return receiptResult(
      await asCommand(async () => (await erasure()).erasePersons(scope, subject, { dryRun: flag(values, 'dry-run') })),
    );
  },
};

const RETENTION_OPTIONS: Record<keyof RetentionPolicy, string> = {
  selfieDays: 'selfie-days',
  personDays: 'person-days',
  orderDays: 'order-days',
};

/** `gallery erase`, `gallery erasure-indexes` and `gallery retention`. */
export const galleryPrivacyCommands: CommandHandlers = {
  /**
   * The backfill of what erasure of one person reads instead of the whole gallery, for what was
   * written before it existed: the participants' pointers to their orders, and the events' listing
   * under their person (events expire after 30 days, so after that only the orders need it).
   */
  async 'erasure-indexes'(values) {
    const { tenant, configuration } = await findGallery(values);
    const scope = { tenantId: tenant.tenantId, token: configuration.gallery.token };
    const orders = await pointOrdersToParticipants(scope);
    const events = await indexEventsByPerson(scope);
    return {
      data: { orders, events },
      lines: [
        `Erasure indexes of gallery ${scope.token}`,
        ...formatTable(
          ['WHAT', 'COUNT'],
          [
            ['orders pointed to from their participant', String(orders)],
            ['events listed under their person', String(events)],
          ],
        ),
      ],
    };
  },

  async erase(values) {
    const { tenant, configuration } = await findGallery(values);
    const scope = { tenantId: tenant.tenantId, token: configuration.gallery.token };
    return receiptResult(
      await asCommand(async () => (await erasure()).eraseGallery(scope, { dryRun: flag(values, 'dry-run') })),
    );
  },

  async retention(values) {
    const given: Partial<RetentionPolicy> = {};
    for (const name of RETENTION_SETTINGS) {
      const days = optionalWholeNumber(values, RETENTION_OPTIONS[name], 1);
      if (days !== undefined && days > MAX_RETENTION_DAYS)
        throw new UsageError(`--${RETENTION_OPTIONS[name]} must be at most ${MAX_RETENTION_DAYS}`);
      if (days !== undefined) given[name] = days;
    }
    const reset = flag(values, 'defaults');
    if (reset && Object.keys(given).length > 0) throw new UsageError('Give either --defaults or days to set, not both');
    const { tenant, configuration } = await findGallery(values);
    const { gallery } = configuration;
    if (reset || Object.keys(given).length > 0) {
      gallery.retention = reset ? {} : { ...gallery.retention, ...given };
      await updateGallerySettings(tenant.tenantId, gallery.token, { retention: gallery.retention });
    }
    const policy = retentionOf(gallery.retention);
    const own = gallery.retention ?? {};
    const row = (name: keyof RetentionPolicy, what: string) => [
      what,
      `${policy[name]} days`,
      name in own ? 'set for this gallery' : `default (${DEFAULT_RETENTION[name]})`,
    ];
    return {
      data: policy,
      lines: [
        `Retention of gallery ${gallery.token}, counted from its last shooting day`,
        ...formatTable(
          ['DATA', 'KEPT', 'FROM'],
          [
            row('selfieDays', 'selfies'),
            row('orderDays', 'participant data in ended orders'),
            row('personDays', 'persons, codes, photos'),
          ],
        ),
        ...(policy.selfieDays < (own.selfieDays ?? DEFAULT_RETENTION.selfieDays)
          ? ['Selfies are never kept longer than their persons.']
          : []),
      ],
    };
  },
};
