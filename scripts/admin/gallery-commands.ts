import { NotFoundError, UsageError } from '../cli-kit/cli-errors';
import { formatFields, formatTable, yesNo } from '../cli-kit/output';
import { findGallery, findTenant } from '../cli-kit/lookups';
import {
  type OptionValues,
  flag,
  galleryToken,
  optionalChoice,
  optionalList,
  optionalText,
  optionalWholeNumber,
  requiredText,
  tenantSlug,
} from '../cli-kit/options';
import type { CommandHandlers } from './command-types';
import { dayTable, fieldTable, packageTable, sortFormFields } from './gallery-tables';
import { optionalRate } from './admin-options';
import {
  type GallerySettings,
  createGallery,
  listGalleries,
  updateGallerySettings,
} from '#lib/galleries/store/galleries';
import type { Gallery, GalleryConfiguration, GranularConsents, PhotoAccess } from '#lib/galleries/rules/gallery-model';
import { sortPackages, sortShootingDays } from '#lib/galleries/rules/gallery-views';
import { type PublicLimits, publicLimitsOf, windowInWords } from '#lib/galleries/rules/public-limits';
import { forgetFacesOfGallery } from '#lib/privacy/face-consent';
import { FACE_MATCHING_MODES, type FaceThresholds, faceMatchingOf } from '#lib/galleries/rules/face-matching';

const SELFIE_MODES = ['off', 'optional', 'required'] as const;
const GRANULAR_CONSENTS = ['face', 'notification', 'hrExport'] as const;
const NO_GRANULAR_CONSENTS: GranularConsents = { face: false, notification: false, hrExport: false };

/** `gallery create|update|list|show`. */
export const galleryCommands: CommandHandlers = {
  async create(values) {
    tenantSlug(values, 'tenant');
    const galleryName = requiredText(values, 'name');
    const settings = gallerySettings(values);
    const tenant = await findTenant(values);
    const gallery = await createGallery(tenant.tenantId, {
      galleryName,
      isGroupShoot: settings.isGroupShoot ?? true,
      selfieEnabled: settings.selfieEnabled ?? false,
      selfieRequired: settings.selfieRequired ?? false,
      consentRequired: settings.consentRequired ?? false,
      consentText: settings.consentText,
      showShootingDaySelector: settings.showShootingDaySelector ?? false,
      granularConsents: settings.granularConsents ?? NO_GRANULAR_CONSENTS,
    });
    return {
      data: gallery,
      lines: [`Created gallery "${gallery.galleryName}" with token ${gallery.token}`, ...galleryLines(gallery)],
    };
  },

  async update(values) {
    tenantSlug(values, 'tenant');
    const token = galleryToken(values);
    const settings: GallerySettings = { galleryName: optionalText(values, 'name'), ...gallerySettings(values) };
    if (Object.values(settings).every((value) => value === undefined)) {
      throw new UsageError('Nothing to update: give --name or a gallery setting');
    }
    const { tenant } = await findGallery(values);
    if (!(await updateGallerySettings(tenant.tenantId, token, settings))) {
      throw new NotFoundError(`Tenant "${tenant.slug}" has no gallery with token "${token}"`);
    }
    const { configuration } = await findGallery(values);
    const forgotten =
      settings.granularConsents !== undefined && faceMatchingOf(configuration.gallery).mode === 'off'
        ? await forgetFacesOfGallery({ tenantId: tenant.tenantId, token })
        : undefined;
    return {
      data: configuration.gallery,
      lines: [
        `Updated gallery ${token}`,
        ...galleryLines(configuration.gallery),
        ...(forgotten && forgotten.referenceFaces + forgotten.candidateLists > 0
          ? [
              `Face matching is off: deleted ${forgotten.referenceFaces} reference face(s) and took everyone out of the face candidates of ${forgotten.candidateLists} photo(s)`,
            ]
          : []),
      ],
    };
  },

  async list(values) {
    const tenant = await findTenant(values);
    const galleries = await listGalleries(tenant.tenantId);
    return {
      data: galleries,
      lines: [
        `${galleries.length} galler${galleries.length === 1 ? 'y' : 'ies'} of tenant "${tenant.slug}"`,
        ...formatTable(
          ['TOKEN', 'NAME', 'GROUP SHOOT', 'CREATED'],
          galleries.map((gallery) => [
            gallery.token,
            gallery.galleryName,
            yesNo(gallery.isGroupShoot),
            gallery.createdAt,
          ]),
        ),
      ],
    };
  },

  /** The gallery's limits on the public routes; with options, sets those (the rest stay), or with --defaults drops its own. */
  async limits(values) {
    tenantSlug(values, 'tenant');
    const token = galleryToken(values);
    const percent = optionalWholeNumber(values, 'pending-payments-percent', 1);
    if (percent !== undefined && percent > 100) throw new UsageError('--pending-payments-percent must be at most 100');
    const given: Partial<PublicLimits> = Object.fromEntries(
      Object.entries({
        reads: optionalRate(values, 'reads'),
        checkins: optionalRate(values, 'checkins'),
        photoLookups: optionalRate(values, 'photo-lookups'),
        photoLookupFailures: optionalRate(values, 'photo-lookup-failures'),
        photoLookupFailuresPerSite: optionalRate(values, 'photo-lookup-failures-per-network'),
        photoLookupFailuresPerCode: optionalRate(values, 'photo-lookup-failures-per-code'),
        checkinsPerEmail: optionalWholeNumber(values, 'checkins-per-email', 1),
        retriesPerOrder: optionalWholeNumber(values, 'retries-per-order', 0),
        pendingPaymentsShare: percent === undefined ? undefined : percent / 100,
      }).filter(([, value]) => value !== undefined),
    );
    const reset = flag(values, 'defaults');
    if (reset && Object.keys(given).length > 0)
      throw new UsageError('Give either --defaults or limits to set, not both');
    const { tenant, configuration } = await findGallery(values);
    if (reset || Object.keys(given).length > 0) {
      const publicLimits = reset ? {} : { ...configuration.gallery.publicLimits, ...given };
      await updateGallerySettings(tenant.tenantId, token, { publicLimits });
      configuration.gallery.publicLimits = publicLimits;
    }
    const own = configuration.gallery.publicLimits ?? {};
    const limits = publicLimitsOf(own);
    const origin = (name: keyof PublicLimits) => (name in own ? 'set for this gallery' : 'default');
    const rate = (policy: { limit: number; windowMs: number }) =>
      `${policy.limit} per ${windowInWords(policy.windowMs)}`;
    return {
      data: limits,
      lines: [
        `Limits of gallery ${token} on the public routes`,
        ...formatTable(
          ['LIMIT', 'VALUE', 'FROM'],
          [
            ['reads per client', rate(limits.reads), origin('reads')],
            ['check-ins per client', rate(limits.checkins), origin('checkins')],
            ['photo lookups per client', rate(limits.photoLookups), origin('photoLookups')],
            ['wrong photo lookups per gallery', rate(limits.photoLookupFailures), origin('photoLookupFailures')],
            [
              'wrong photo lookups per client network',
              rate(limits.photoLookupFailuresPerSite),
              origin('photoLookupFailuresPerSite'),
            ],
            [
              'wrong photo lookups per access code',
              rate(limits.photoLookupFailuresPerCode),
              origin('photoLookupFailuresPerCode'),
            ],
            ['free check-ins per email', String(limits.checkinsPerEmail), origin('checkinsPerEmail')],
            ['retries per reservation', String(limits.retriesPerOrder), origin('retriesPerOrder')],
            [
              'pending payments per day',
              `${Math.round(limits.pendingPaymentsShare * 100)} % of capacity, at least 5`,
              origin('pendingPaymentsShare'),
            ],
          ],
        ),
      ],
    };
  },

  async 'face-matching'(values) {
    tenantSlug(values, 'tenant');
    galleryToken(values);
    const mode = optionalChoice(values, 'mode', FACE_MATCHING_MODES);
    const given: Partial<FaceThresholds> = Object.fromEntries(
      (['match', 'mismatch', 'fill', 'margin'] as const).flatMap((name) => {
        const distance = optionalDistance(values, name);
        return distance === undefined ? [] : [[name, distance]];
      }),
    );
    const reset = flag(values, 'defaults');
    if (reset && Object.keys(given).length > 0)
      throw new UsageError('Give either --defaults or distances to set, not both');
    const { tenant, configuration } = await findGallery(values);
    const scope = { tenantId: tenant.tenantId, token: configuration.gallery.token };
    const thresholds = reset
      ? {}
      : Object.keys(given).length > 0
        ? { ...configuration.gallery.faceThresholds, ...given }
        : undefined;
    const settings = faceMatchingOf({
      ...configuration.gallery,
      ...(mode ? { faceMatching: mode } : {}),
      ...(thresholds ? { faceThresholds: thresholds } : {}),
    });
    if (settings.thresholds.match > settings.thresholds.mismatch)
      throw new UsageError('--match must be at most --mismatch');
    const lines: string[] = [];
    if (mode || thresholds) {
      // The face model and the media bucket are loaded only when something changes.
      const { switchFaceMatching } = await import('#lib/privacy/face-matching');
      const change = await switchFaceMatching(scope, { mode, thresholds });
      if (change.deleted > 0)
        lines.push(`Deleted ${change.deleted} reference face(s): nothing compares with them any more`);
      if (change.candidateLists > 0)
        lines.push(`Took everyone out of the face candidates of ${change.candidateLists} photo(s)`);
      const described = Object.entries(change.described);
      if (described.length > 0)
        lines.push(
          `Reference faces of consenting persons: ${described.map(([outcome, count]) => `${count} ${outcome.replaceAll('_', ' ')}`).join(', ')}`,
        );
    }
    const { match, mismatch, fill, margin } = settings.thresholds;
    return {
      data: settings,
      lines: [
        `Face matching of gallery ${scope.token}: ${settings.mode}${configuration.gallery.granularConsents.face ? '' : ' (the check-in does not ask for face consent, so nobody has a reference face)'}`,
        ...formatTable(
          ['DISTANCE', 'VALUE', 'MEANING'],
          [
            ['match', match.toFixed(2), "at most this far from the card person's reference: delivered"],
            [
              'mismatch',
              mismatch.toFixed(2),
              'at least this far: withheld as face mismatch (between the two: face uncertain, withheld)',
            ],
            ['fill', fill.toFixed(2), 'a photo no card governs goes to the one reference at most this far...'],
            ['margin', margin.toFixed(2), '...when every other reference is this much further away (mode fill)'],
          ],
        ),
        ...lines,
      ],
    };
  },

  /** The ways into "My photos" by access code; with options, turns them on or off (a photo link by email is always on). */
  async 'photo-access'(values) {
    tenantSlug(values, 'tenant');
    const token = galleryToken(values);
    const switches = ['on', 'off'] as const;
    const email = optionalChoice(values, 'code-and-email', switches);
    const employeeId = optionalChoice(values, 'code-and-employee-id', switches);
    const { tenant, configuration } = await findGallery(values);
    const access: PhotoAccess = {
      codeAndEmail: email === undefined ? configuration.gallery.photoAccess.codeAndEmail : email === 'on',
      codeAndEmployeeId:
        employeeId === undefined ? configuration.gallery.photoAccess.codeAndEmployeeId : employeeId === 'on',
    };
    if (email !== undefined || employeeId !== undefined)
      await updateGallerySettings(tenant.tenantId, token, { photoAccess: access });
    return {
      data: access,
      lines: [
        `Ways into "My photos" of gallery ${token}`,
        ...formatTable(
          ['WAY', 'ON'],
          [
            ['photo link by email', 'yes (always)'],
            ['access code and email', yesNo(access.codeAndEmail)],
            ['access code and employee ID (persons without email)', yesNo(access.codeAndEmployeeId)],
          ],
        ),
      ],
    };
  },

  async show(values) {
    const { configuration } = await findGallery(values);
    const sorted: GalleryConfiguration = {
      ...configuration,
      shootingDays: sortShootingDays(configuration.shootingDays),
      packages: sortPackages(configuration.packages),
      formFields: sortFormFields(configuration.formFields),
    };
    return {
      data: sorted,
      lines: [
        ...galleryLines(sorted.gallery),
        '',
        `Shooting days (${sorted.shootingDays.length})`,
        ...dayTable(sorted.shootingDays),
        '',
        `Packages (${sorted.packages.length})`,
        ...packageTable(sorted.packages),
        '',
        `Form fields (${sorted.formFields.length})`,
        ...fieldTable(sorted.formFields),
      ],
    };
  },
};

/** A face distance option: a decimal between 0 and 2 (descriptors are unit vectors, at most 2 apart). */
function optionalDistance(values: OptionValues, name: string): number | undefined {
  const text = optionalText(values, name, 10);
  if (text === undefined) return undefined;
  const distance = Number(text);
  if (!/^\d(\.\d+)?$/.test(text) || distance > 2)
    throw new UsageError(`--${name} must be a distance between 0 and 2, such as 0.5`);
  return distance;
}

/**
 * The settings options given, and only those: create fills in defaults, update leaves the
 * rest as it is. Consent is required exactly when a consent text is given.
 */
function gallerySettings(values: OptionValues): Omit<GallerySettings, 'galleryName'> {
  if (flag(values, 'group-shoot') && flag(values, 'not-group-shoot')) {
    throw new UsageError('Give either --group-shoot or --not-group-shoot, not both');
  }
  if (flag(values, 'day-selector') && flag(values, 'no-day-selector')) {
    throw new UsageError('Give either --day-selector or --no-day-selector, not both');
  }
  const consentText = optionalText(values, 'consent-text', 5000);
  if (consentText !== undefined && flag(values, 'no-consent')) {
    throw new UsageError('Give either --consent-text or --no-consent, not both');
  }
  const selfie = optionalChoice(values, 'selfie', SELFIE_MODES);
  return {
    isGroupShoot: flag(values, 'group-shoot') ? true : flag(values, 'not-group-shoot') ? false : undefined,
    selfieEnabled: selfie === undefined ? undefined : selfie !== 'off',
    selfieRequired: selfie === undefined ? undefined : selfie === 'required',
    // --no-consent keeps the stored text: it is simply no longer asked for.
    consentRequired: consentText !== undefined ? true : flag(values, 'no-consent') ? false : undefined,
    consentText,
    showShootingDaySelector: flag(values, 'day-selector') ? true : flag(values, 'no-day-selector') ? false : undefined,
    granularConsents: granularConsents(values),
  };
}

/** `face,notification,hrExport` (any of them), or `none`, into the consents asked for. */
function granularConsents(values: OptionValues): GranularConsents | undefined {
  const names = optionalList(values, 'granular-consents');
  if (names === undefined) return undefined;
  const consents = { ...NO_GRANULAR_CONSENTS };
  if (names.length === 1 && names[0] === 'none') return consents;
  if (names.length === 0) throw new UsageError('--granular-consents needs face, notification, hrExport or none');
  for (const name of names) {
    if (!(GRANULAR_CONSENTS as readonly string[]).includes(name)) {
      throw new UsageError(`--granular-consents "${name}" is not valid: use ${GRANULAR_CONSENTS.join(', ')} or none`);
    }
    consents[name as keyof GranularConsents] = true;
  }
  return consents;
}

function galleryLines(gallery: Gallery): string[] {
  const consents = GRANULAR_CONSENTS.filter((name) => gallery.granularConsents[name]);
  return [
    `Gallery ${gallery.token}`,
    ...formatFields([
      ['name', gallery.galleryName],
      ['group shoot', yesNo(gallery.isGroupShoot)],
      ['selfie', gallery.selfieRequired ? 'required' : gallery.selfieEnabled ? 'optional' : 'off'],
      ['consent', gallery.consentRequired ? `required: "${gallery.consentText ?? ''}"` : 'not asked'],
      ['day selector', gallery.showShootingDaySelector ? 'shown' : 'hidden'],
      ['granular consents', consents.length > 0 ? consents.join(', ') : 'none'],
      ['created', gallery.createdAt],
    ]),
  ];
}
