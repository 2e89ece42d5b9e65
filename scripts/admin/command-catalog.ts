/**
 * Every admin command: its usage line and its options, as plain data. It loads no data
 * access, so help and option errors work without TABLE_NAME; each resource's handlers are
 * imported only once the environment has been checked.
 */
import { REPLAYABLE_HANDLERS } from '#lib/http/handlers';
import type { ResourceSpec } from './command-types';

const text = { type: 'string' } as const;
const flag = { type: 'boolean' } as const;

const inGallery = { tenant: text, gallery: text };
const galleryOptions = {
  name: text,
  'group-shoot': flag,
  'not-group-shoot': flag,
  selfie: text,
  'consent-text': text,
  'day-selector': flag,
  'granular-consents': text,
};
const gallerySettingsUsage =
  '[--group-shoot | --not-group-shoot] [--selfie off|optional|required] [--consent-text TEXT] [--day-selector] [--granular-consents face,notification,hrExport]';

const brandingOptions = { logo: text, 'no-logo': flag, 'accent-color': text, 'no-accent-color': flag };
const brandingUsage = '[--logo FILE.png|jpg|webp | --no-logo] [--accent-color #RRGGBB | --no-accent-color]';

export const COMMAND_CATALOG: Record<string, ResourceSpec> = {
  tenant: {
    summary: 'Tenants (studios): slug, name, plan tier, payment settings, return origins',
    commands: {
      create: {
        usage:
          'tenant create --slug SLUG --name NAME --plan TIER [--stripe-account acct_x] [--payment-approved] [--platform-fee-bps N]',
        options: {
          slug: text,
          name: text,
          plan: text,
          'stripe-account': text,
          'payment-approved': flag,
          'platform-fee-bps': text,
        },
      },
      update: {
        usage:
          'tenant update --slug SLUG [--name NAME] [--plan TIER] [--stripe-account acct_x] [--payment-approved true|false] [--platform-fee-bps N] [--checkins-per-second N]',
        options: {
          slug: text,
          name: text,
          plan: text,
          'stripe-account': text,
          'payment-approved': text,
          'platform-fee-bps': text,
          'checkins-per-second': text,
        },
      },
      show: { usage: 'tenant show --slug SLUG', options: { slug: text } },
      list: { usage: 'tenant list', options: {} },
      origins: { usage: 'tenant origins --slug SLUG   (return origins of paid check-ins)', options: { slug: text } },
      'allow-origin': {
        usage: 'tenant allow-origin --slug SLUG --origin https://photos.example.com',
        options: { slug: text, origin: text },
      },
      'disallow-origin': {
        usage: 'tenant disallow-origin --slug SLUG --origin https://photos.example.com',
        options: { slug: text, origin: text },
      },
      branding: {
        usage: `tenant branding --slug SLUG ${brandingUsage}   (no option: show it; galleries without their own use it)`,
        options: { slug: text, ...brandingOptions },
      },
    },
    loadHandlers: async () => ({
      ...(await import('./tenant-commands')).tenantCommands,
      ...(await import('./page-commands')).tenantPageCommands,
    }),
  },
  key: {
    summary: 'API keys of a tenant; the value is shown once, at creation',
    commands: {
      create: { usage: 'key create --tenant SLUG --name NAME', options: { tenant: text, name: text } },
      list: { usage: 'key list --tenant SLUG', options: { tenant: text } },
      revoke: { usage: 'key revoke --tenant SLUG --id KEY_ID   (final)', options: { tenant: text, id: text } },
      disable: { usage: 'key disable --tenant SLUG --id KEY_ID', options: { tenant: text, id: text } },
      enable: { usage: 'key enable --tenant SLUG --id KEY_ID', options: { tenant: text, id: text } },
    },
    loadHandlers: async () => (await import('./key-commands')).keyCommands,
  },
  gallery: {
    summary: 'Galleries of a tenant and their check-in settings',
    commands: {
      create: {
        usage: `gallery create --tenant SLUG --name NAME ${gallerySettingsUsage}`,
        options: { tenant: text, ...galleryOptions },
      },
      update: {
        usage: `gallery update --tenant SLUG --gallery TOKEN [--name NAME] ${gallerySettingsUsage} [--no-consent] [--no-day-selector]`,
        options: { ...inGallery, ...galleryOptions, 'no-consent': flag, 'no-day-selector': flag },
      },
      list: { usage: 'gallery list --tenant SLUG', options: { tenant: text } },
      show: { usage: 'gallery show --tenant SLUG --gallery TOKEN', options: inGallery },
      limits: {
        usage:
          'gallery limits --tenant SLUG --gallery TOKEN [--reads N/WINDOW] [--checkins N/WINDOW] [--photo-lookups N/WINDOW] [--photo-lookup-failures N/WINDOW] [--photo-lookup-failures-per-network N/WINDOW] [--photo-lookup-failures-per-code N/WINDOW] [--checkins-per-email N] [--retries-per-order N] [--pending-payments-percent P] [--defaults]   (no option: show them)',
        options: {
          ...inGallery,
          reads: text,
          checkins: text,
          'photo-lookups': text,
          'photo-lookup-failures': text,
          'photo-lookup-failures-per-network': text,
          'photo-lookup-failures-per-code': text,
          'checkins-per-email': text,
          'retries-per-order': text,
          'pending-payments-percent': text,
          defaults: flag,
        },
      },
      erase: {
        usage:
          'gallery erase --tenant SLUG --gallery TOKEN [--dry-run]   (final: persons, media, configuration; orders keep accounting data)',
        options: { ...inGallery, 'dry-run': flag },
        environment: ['MEDIA_BUCKET'],
      },
      'erasure-indexes': {
        usage:
          'gallery erasure-indexes --tenant SLUG --gallery TOKEN   (indexes orders and events written before erasure of one person had indexes; again, it changes nothing)',
        options: inGallery,
      },
      'face-matching': {
        usage:
          'gallery face-matching --tenant SLUG --gallery TOKEN [--mode off|withhold|fill] [--match D] [--mismatch D] [--fill D] [--margin D] [--defaults]   (no option: show it)',
        options: { ...inGallery, mode: text, match: text, mismatch: text, fill: text, margin: text, defaults: flag },
        environment: ['MEDIA_BUCKET'],
      },
      'checkin-policy': {
        usage:
          'gallery checkin-policy --tenant SLUG --gallery TOKEN [--mode open|importedOnly] [--domains DOMAIN,*.DOMAIN,...] [--any-domain]   (no option: show it)',
        options: { ...inGallery, mode: text, domains: text, 'any-domain': flag },
      },
      invitations: {
        usage:
          'gallery invitations --tenant SLUG --gallery TOKEN [--page-url URL]   (check-in links for persons imported without an email address, to hand out)',
        options: { ...inGallery, 'page-url': text },
      },
      'hr-export': {
        usage:
          'gallery hr-export --tenant SLUG --gallery TOKEN [--declared-ids on|off]   (no option: show it; on: an employee ID typed at check-in names the HR export file, never one HR gave)',
        options: { ...inGallery, 'declared-ids': text },
      },
      'photo-access': {
        usage:
          'gallery photo-access --tenant SLUG --gallery TOKEN [--code-and-email on|off] [--code-and-employee-id on|off]   (no option: show them; a photo link by email is always on)',
        options: { ...inGallery, 'code-and-email': text, 'code-and-employee-id': text },
      },
      page: {
        usage:
          'gallery page --tenant SLUG --gallery TOKEN [--default-language en|de|fr] [--terms-url https://... | --no-terms-url]   (no option: show the page settings)',
        options: { ...inGallery, 'default-language': text, 'terms-url': text, 'no-terms-url': flag },
      },
      'consent-text': {
        usage:
          'gallery consent-text --tenant SLUG --gallery TOKEN --language en|de|fr (--text TEXT | --remove)   (the consent text in that language)',
        options: { ...inGallery, language: text, text, remove: flag },
      },
      branding: {
        usage: `gallery branding --tenant SLUG --gallery TOKEN ${brandingUsage}   (no option: show it; where unset, the tenant's shows)`,
        options: { ...inGallery, ...brandingOptions },
      },
      pointers: {
        usage:
          'gallery pointers --tenant SLUG   (writes the pointers its galleries made before pointers lack; again, it writes nothing)',
        options: { tenant: text },
      },
      retention: {
        usage:
          'gallery retention --tenant SLUG --gallery TOKEN [--selfie-days N] [--order-days N] [--person-days N] [--defaults]   (no option: show them)',
        options: { ...inGallery, 'selfie-days': text, 'order-days': text, 'person-days': text, defaults: flag },
      },
    },
    loadHandlers: async () => ({
      ...(await import('./gallery-commands')).galleryCommands,
      ...(await import('./gallery-pointer-commands')).galleryPointerCommands,
      ...(await import('./privacy-commands')).galleryPrivacyCommands,
      ...(await import('./checkin-policy-commands')).checkinPolicyCommands,
      ...(await import('./hr-export-settings-commands')).hrExportSettingsCommands,
      ...(await import('./page-commands')).galleryPageCommands,
    }),
  },
  day: {
    summary: 'Shooting days of a gallery',
    commands: {
      add: {
        usage:
          'day add --tenant SLUG --gallery TOKEN --date YYYY-MM-DD --label LABEL --start HH:MM --end HH:MM [--max N]',
        options: { ...inGallery, date: text, label: text, start: text, end: text, max: text },
      },
      list: { usage: 'day list --tenant SLUG --gallery TOKEN', options: inGallery },
    },
    loadHandlers: async () => (await import('./day-commands')).dayCommands,
  },
  package: {
    summary: 'Packages offered at check-in',
    commands: {
      add: {
        usage:
          'package add --tenant SLUG --gallery TOKEN --name NAME --price MINOR_UNITS --currency eur [--description TEXT] [--position N]',
        options: { ...inGallery, name: text, price: text, currency: text, description: text, position: text },
      },
      list: { usage: 'package list --tenant SLUG --gallery TOKEN', options: inGallery },
    },
    loadHandlers: async () => (await import('./package-commands')).packageCommands,
  },
  field: {
    summary: 'Check-in form fields (name and email are always asked and are not form fields)',
    commands: {
      set: {
        usage:
          'field set --tenant SLUG --gallery TOKEN --key employeeId|phone|department|notes|custom|custom-<uuid> --label LABEL --type text|textarea|number|select [--required] [--options value=Label,value2=Label 2] [--position N] [--disabled]',
        options: {
          ...inGallery,
          key: text,
          label: text,
          type: text,
          required: flag,
          options: text,
          position: text,
          disabled: flag,
        },
      },
      list: { usage: 'field list --tenant SLUG --gallery TOKEN', options: inGallery },
    },
    loadHandlers: async () => (await import('./field-commands')).fieldCommands,
  },
  person: {
    summary:
      'Persons of a gallery: their consents with the time of each change, erasure of everything held about them, face consent withdrawn by the studio',
    commands: {
      show: {
        usage:
          "person show --tenant SLUG --gallery TOKEN --person PERSON_ID   (consents, whether the gallery asks for each, each one's last change)",
        options: { ...inGallery, person: text },
      },
      erase: {
        usage:
          'person erase --tenant SLUG --gallery TOKEN (--person PERSON_ID | --email EMAIL | --employee-id ID) [--dry-run]   (final)',
        options: { ...inGallery, person: text, email: text, 'employee-id': text, 'dry-run': flag },
        environment: ['MEDIA_BUCKET'],
      },
      'face-consent': {
        usage:
          'person face-consent --tenant SLUG --gallery TOKEN --person PERSON_ID --off   (reference face deleted, out of every face candidate list)',
        options: { ...inGallery, person: text, off: flag },
      },
    },
    loadHandlers: async () => (await import('./privacy-commands')).personCommands,
  },
  webhook: {
    summary:
      'Webhook subscriptions: signed events to an endpoint, secret rotation, delivery log, replay (docs/events.md)',
    commands: {
      add: {
        usage: 'webhook add --tenant SLUG --url URL [--events all|TYPE,TYPE] [--description TEXT]',
        options: { tenant: text, url: text, events: text, description: text },
      },
      list: { usage: 'webhook list --tenant SLUG', options: { tenant: text } },
      show: { usage: 'webhook show --tenant SLUG --id ID', options: { tenant: text, id: text } },
      enable: { usage: 'webhook enable --tenant SLUG --id ID', options: { tenant: text, id: text } },
      disable: { usage: 'webhook disable --tenant SLUG --id ID', options: { tenant: text, id: text } },
      'rotate-secret': {
        usage: 'webhook rotate-secret --tenant SLUG --id ID [--grace-hours N]',
        options: { tenant: text, id: text, 'grace-hours': text },
      },
      remove: { usage: 'webhook remove --tenant SLUG --id ID', options: { tenant: text, id: text } },
      deliveries: {
        usage:
          'webhook deliveries --tenant SLUG --id ID [--status pending|delivered|failed|gone|replay_requested] [--limit N]',
        options: { tenant: text, id: text, status: text, limit: text },
      },
      attempts: {
        usage: 'webhook attempts --tenant SLUG --id ID --event EVENT_ID',
        options: { tenant: text, id: text, event: text },
      },
      replay: {
        usage: 'webhook replay --tenant SLUG --id ID (--event EVENT_ID | --failed)',
        options: { tenant: text, id: text, event: text, failed: flag },
      },
    },
    loadHandlers: async () => (await import('./webhook-commands')).webhookCommands,
  },
  photo: {
    summary:
      "Photos of a person: upload and assign (what the S3 ingest function does), pick the portrait; a sorted shoot's review: withheld and unassigned photos, released, assigned or dismissed by hand",
    commands: {
      add: {
        usage: 'photo add --tenant SLUG --gallery TOKEN --person PERSON_ID --file PATH [--name FILE_NAME]',
        options: { ...inGallery, person: text, file: text, name: text },
        environment: ['MEDIA_BUCKET'],
      },
      list: {
        usage: 'photo list --tenant SLUG --gallery TOKEN --person PERSON_ID',
        options: { ...inGallery, person: text },
      },
      pick: {
        usage:
          "photo pick --tenant SLUG --gallery TOKEN --person PERSON_ID --photo PHOTO_ID   (the person's portrait, as the participant picks it on My photos)",
        options: { ...inGallery, person: text, photo: text },
      },
      review: {
        usage:
          'photo review --tenant SLUG --gallery TOKEN [--limit N] [--after CURSOR]   (a page of the withheld and unassigned photos, their cards and face candidates; 50 unless --limit, at most 200)',
        options: { ...inGallery, limit: text, after: text },
      },
      unassigned: {
        usage:
          'photo unassigned --tenant SLUG --gallery TOKEN [--limit N] [--after CURSOR]   (the unassigned ones of a page of the review)',
        options: { ...inGallery, limit: text, after: text },
      },
      'review-backfill': {
        usage:
          "photo review-backfill --tenant SLUG --gallery TOKEN   (once, for a shoot sorted before the review queue's index: puts its waiting photos in it, paged)",
        options: inGallery,
      },
      release: {
        usage:
          'photo release --tenant SLUG --gallery TOKEN --photo PHOTO_ID   (a withheld photo, to the person its card names)',
        options: { ...inGallery, photo: text },
      },
      assign: {
        usage: 'photo assign --tenant SLUG --gallery TOKEN --photo PHOTO_ID --person PERSON_ID',
        options: { ...inGallery, photo: text, person: text },
      },
      dismiss: {
        usage:
          "photo dismiss --tenant SLUG --gallery TOKEN --photo PHOTO_ID   (nobody's: it leaves the review, no card gives it to anyone)",
        options: { ...inGallery, photo: text },
      },
      'index-shoot': {
        usage:
          "photo index-shoot --tenant SLUG [--gallery TOKEN]   (the persons' shoot index and photo pointers that shoots sorted before them lack, a page at a time; again, it writes the same)",
        options: inGallery,
      },
    },
    loadHandlers: async () => ({
      ...(await import('./photo-commands')).photoCommands,
      ...(await import('./shoot-index-commands')).shootIndexCommands,
    }),
  },
  export: {
    summary:
      'HR exports (docs/hr-export.md): one square portrait per person who gave the HR consent, named by employee ID, with a manifest, as a ZIP',
    commands: {
      hr: {
        usage:
          'export hr --tenant SLUG --gallery TOKEN [--day DAY_ID] [--size 64-2048]   (queued with HR_EXPORT_QUEUE_URL, else built here; shows its state)',
        options: { ...inGallery, day: text, size: text },
        environment: ['MEDIA_BUCKET'],
      },
      show: {
        usage:
          'export show --tenant SLUG --gallery TOKEN --id EXPORT_ID   (its state; a ready one with a download URL)',
        options: { ...inGallery, id: text },
        environment: ['MEDIA_BUCKET'],
      },
    },
    loadHandlers: async () => (await import('./export-commands')).exportCommands,
  },
  cards: {
    summary:
      'Printable camera cards (name, shooting day, access code and its QR code; no employee ID), four per page, as a PDF (docs/photos.md)',
    commands: {
      pdf: {
        usage: 'cards pdf --tenant SLUG --gallery TOKEN [--day DAY_ID] [--paper a4|letter] --out FILE.pdf',
        options: { ...inGallery, day: text, paper: text, out: text },
      },
    },
    loadHandlers: async () => (await import('./card-commands')).cardCommands,
  },
  backfill: {
    summary:
      'Keys for items stored before an index or pointer existed: tenant ID pointers, persons by address (docs/data-model.md#backfills)',
    commands: {
      indexes: {
        usage: 'backfill indexes [--tenant SLUG [--gallery TOKEN]]   (safe to run again; writes only what is missing)',
        options: { tenant: text, gallery: text },
      },
    },
    loadHandlers: async () => (await import('./backfill-commands')).backfillCommands,
  },
  ops: {
    summary:
      'Operations: failed ingest events and stream records, kept after their retries, run again (docs/deployment.md#failure-replay)',
    commands: {
      replay: {
        usage: `ops replay [--function ${REPLAYABLE_HANDLERS.join('|')}] [--dry-run]   (FAILURE_QUEUES in AWS, else the running npm start)`,
        options: { function: text, 'dry-run': flag },
      },
    },
    loadHandlers: async () => (await import('./ops-commands')).opsCommands,
  },
};

/** Options every command accepts; `--data DIR` names the local server started with that data folder. */
export const COMMON_OPTIONS = { json: flag, help: { type: 'boolean', short: 'h' }, data: text } as const;

const PROGRAM = 'npm run admin --';

/** The full usage text, or one resource's part of it. */
export function usageLines(resource?: string): string[] {
  const resources = resource === undefined ? Object.keys(COMMAND_CATALOG) : [resource];
  const lines = resource === undefined ? [`Usage: ${PROGRAM} <resource> <command> [options] [--json]`, ''] : [];
  for (const name of resources) {
    const spec = COMMAND_CATALOG[name];
    if (!spec) continue;
    lines.push(`${name}: ${spec.summary}`);
    for (const command of Object.values(spec.commands)) lines.push(`  ${PROGRAM} ${command.usage}`);
    lines.push('');
  }
  if (resource === undefined) {
    lines.push(
      'Every command accepts --json (print JSON instead of text), --help, and --data DIR (the local server started with npm start -- --data DIR).',
      'Exit codes: 0 done, 1 not found or conflict or DynamoDB failure, 2 invalid command, option or environment.',
      'Environment: TABLE_NAME (else the running npm start), AWS_REGION, DYNAMODB_ENDPOINT (DynamoDB Local); MEDIA_BUCKET for photo add, export, person erase and gallery erase. See docs/admin-cli.md.',
    );
  }
  return lines;
}
