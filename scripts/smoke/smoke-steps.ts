import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { GroupShootApiError, type GroupShootClient } from '#lib/client/groupshoot-client';
import type { SmokeReceiver } from './smoke-receiver';

/** Runs one admin command in this process (`--json` added) and gives back what it printed, as the caller expects it. */
export type AdminCommand = <Answer = unknown>(argv: string[]) => Promise<Answer>;

/** What the smoke check made, so that the clean-up and its test know what must be gone. */
export interface SmokeSubjects {
  tenantSlug: string;
  galleryToken?: string;
  subscriptionId?: string;
  personIds: string[];
  inboxPaths: string[];
}

/** One step of the check: its name and what it does; it throws to fail, and may say what it saw. */
export interface SmokeStep {
  name: string;
  run(): Promise<string | undefined>;
  /** A clean-up step runs even when a step before it failed. */
  cleanUp?: boolean;
}

export interface SmokeContext {
  api: GroupShootClient;
  admin: AdminCommand;
  subjects: SmokeSubjects;
  receiver?: SmokeReceiver;
  /** The URL the API delivers webhooks to: the receiver's, or a tunnel's in front of it. */
  webhookUrl?: string;
  /** How long a step waits for something the service does in the background. */
  waitMs: number;
  /** Waits between looks at the background work; tests may shorten it. */
  pause?: (ms: number) => Promise<void>;
}

const PHOTO_PATH = 'smoke/smoke-check.jpg';

/**
 * The steps of `npm run smoke`, in order: a throwaway gallery with one shooting day, a webhook
 * subscription to the receiver (when there is one), a check-in, an import of one row, the persons
 * read back, a photo through the presigned upload and its ingest, the webhook delivery, and then
 * the clean-up by erasure, checked through the API.
 */
export function smokeSteps(context: SmokeContext): SmokeStep[] {
  const { api, admin, subjects } = context;
  const scope = () => ['--tenant', subjects.tenantSlug, '--gallery', token()];
  const token = () => {
    if (!subjects.galleryToken) throw new Error('no gallery was made');
    return subjects.galleryToken;
  };
  const pause = context.pause ?? ((ms: number) => new Promise((resolve) => setTimeout(resolve, ms)));
  const suffix = randomBytes(4).toString('hex');
  const steps: SmokeStep[] = [
    {
      name: 'throwaway gallery',
      async run() {
        const gallery = await admin<{ token: string }>([
          'gallery',
          'create',
          '--tenant',
          subjects.tenantSlug,
          '--name',
          `Smoke check ${suffix}`,
        ]);
        subjects.galleryToken = gallery.token;
        const date = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
        await admin([
          'day',
          'add',
          ...scope(),
          '--date',
          date,
          '--label',
          'Smoke',
          '--start',
          '09:00',
          '--end',
          '17:00',
        ]);
        return `gallery ${token()}`;
      },
    },
  ];
  if (context.receiver && context.webhookUrl) {
    const { receiver, webhookUrl } = context;
    steps.push({
      name: 'webhook subscription',
      async run() {
        const added = await admin<{ subscriptionId: string; signingSecret: string }>([
          'webhook',
          'add',
          '--tenant',
          subjects.tenantSlug,
          '--url',
          webhookUrl,
          '--events',
          'person.created',
          '--description',
          `smoke check ${suffix}`,
        ]);
        subjects.subscriptionId = added.subscriptionId;
        receiver.secret = added.signingSecret;
        return webhookUrl;
      },
    });
  }
  steps.push(
    {
      name: 'check-in',
      async run() {
        const answer = await api.submitCheckin({
          token: token(),
          name: 'Smoke Check-in',
          email: `smoke-checkin-${suffix}@example.com`,
        });
        subjects.personIds.push(String(answer.personId));
        return String(answer.personId);
      },
    },
    {
      name: 'import of one row',
      async run() {
        const result = await api.importPersons(token(), [
          { name: 'Smoke Import', email: `smoke-import-${suffix}@example.com`, employeeId: `smoke-${suffix}` },
        ]);
        const imported = result.persons.map((person) => person.personId);
        if (imported.length !== 1) throw new Error(`imported ${imported.length} persons, not 1`);
        subjects.personIds.push(...imported);
        return imported[0];
      },
    },
    {
      name: 'persons read',
      async run() {
        const listed = new Set<string>();
        for await (const person of api.allPersons(token())) listed.add(person.personId);
        const missing = subjects.personIds.filter((personId) => !listed.has(personId));
        if (missing.length > 0) throw new Error(`not listed: ${missing.join(', ')}`);
        return `${listed.size} persons`;
      },
    },
    {
      name: 'photo upload (presigned)',
      async run() {
        const bytes = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#808080' } })
          .jpeg()
          .toBuffer();
        const plan = await api.createUploads(token(), { files: [{ path: PHOTO_PATH, size: bytes.length }] });
        const upload = plan.uploads[0];
        if (upload?.kind !== 'single') throw new Error('no single upload URL was handed out');
        const response = await fetch(upload.url, { method: 'PUT', headers: upload.headers, body: bytes });
        if (!response.ok) throw new Error(`the PUT to the presigned URL answered ${response.status}`);
        subjects.inboxPaths.push(PHOTO_PATH);
        const listed: string[] = [];
        for await (const file of api.allInboxFiles(token())) listed.push(file.path);
        if (!listed.includes(PHOTO_PATH)) throw new Error('the inbox does not list the uploaded photo');
        return `${bytes.length} bytes in the inbox`;
      },
    },
    {
      name: 'photo ingest',
      async run() {
        // Erasing the gallery while ingest still reads the photo would leave its record behind.
        for (const deadline = Date.now() + context.waitMs; ; await pause(500)) {
          const review = await admin<{ counts: { unassigned: number; withheld: number } }>([
            'photo',
            'review',
            ...scope(),
          ]);
          if (review.counts.unassigned + review.counts.withheld >= 1) return "sorted: nobody's (no camera card)";
          if (Date.now() > deadline) throw new Error(`not sorted within ${context.waitMs / 1000} s`);
        }
      },
    },
  );
  if (context.receiver) {
    const { receiver } = context;
    steps.push({
      name: 'webhook delivery',
      async run() {
        const imported = subjects.personIds.at(-1);
        const event = await receiver.waitFor(
          (delivered) =>
            delivered.type === 'person.created' &&
            delivered.galleryToken === subjects.galleryToken &&
            delivered.data.personId === imported,
          context.waitMs,
        );
        if (!event) throw new Error(`no signed person.created arrived within ${context.waitMs / 1000} s`);
        return event.id;
      },
    });
  }
  steps.push(
    {
      name: 'clean-up: webhook removed',
      cleanUp: true,
      async run() {
        if (!subjects.subscriptionId) return 'none made';
        await admin(['webhook', 'remove', '--tenant', subjects.tenantSlug, '--id', subjects.subscriptionId]);
        return subjects.subscriptionId;
      },
    },
    {
      name: 'clean-up: gallery erased',
      cleanUp: true,
      async run() {
        if (!subjects.galleryToken) return 'none made';
        const receipt = await admin<{ personCount: number; photoObjectVersions: number }>([
          'gallery',
          'erase',
          ...scope(),
        ]);
        return `${receipt.personCount} persons, ${receipt.photoObjectVersions} photo object versions`;
      },
    },
    {
      name: 'clean-up: nothing left',
      cleanUp: true,
      async run() {
        if (!subjects.galleryToken) return 'none made';
        const answer = await api.listPersons(token()).then(
          () => 'listed',
          (error: unknown) => (error instanceof GroupShootApiError ? error.code : String(error)),
        );
        if (answer !== 'gallery_not_found') throw new Error(`the gallery still answers (${answer})`);
        return 'gallery_not_found';
      },
    },
  );
  return steps;
}
