/**
 * Probes of the server-side endpoints (API key): the reads that answer about a gallery, and an
 * import of persons, settled the way the documented client does it.
 */
import { handler as ingestPhoto } from '../../../../functions/photos/sorting/ingest-photo';
import { keys } from '../../table-keys';
import { photoObjectKey } from '#lib/platform/media-keys';
import type { ApiAnswer } from '../../local-api';
import { makeJpeg, objectCreatedEvent, uploadObject } from '../../media';
import { getItem } from '../gallery-state';
import type { Fixture } from '../galleries';
import { answerOf, call, importOne, serverHeaders, uniqueName } from '../requests';
import { type ProbeSpec, READS, fill } from './probe';

/** A GET of a server-side endpoint that answers about the gallery (on the person `setup` answers, if any). */
export function serverRead(
  check: (answer: ApiAnswer, f: Fixture) => void,
  setup: (f: Fixture) => Promise<string> = async () => '',
): ProbeSpec {
  return {
    label: 'GET',
    touches: READS,
    async prepare(f, template) {
      const personId = await setup(f);
      const run = () => call(f, fill(template, f, personId), { headers: serverHeaders() });
      return {
        run,
        async expectSuccess(outcome) {
          const answer = answerOf(outcome);
          expect(answer.status).toBe(200);
          expect(answer.body.galleryToken).toBe(f.token);
          check(answer, f);
        },
        async settle() {},
      };
    },
  };
}

/** An imported person with one ingested photo, portrait.jpg; answers the personId. */
export async function personWithPhoto(f: Fixture): Promise<string> {
  const personId = await importOne(f);
  const objectKey = photoObjectKey({ tenantId: f.tenantId, token: f.token, personId, fileName: 'portrait.jpg' });
  await uploadObject(objectKey, makeJpeg(8, 8));
  await ingestPhoto(objectCreatedEvent(objectKey));
  return personId;
}

export const importProbe: ProbeSpec = {
  label: 'import of 3 persons',
  touches: { dynamodb: true, s3: false, stripe: false, transactions: true },
  async prepare(f, template) {
    const rows = [
      { name: uniqueName('Row'), shootingDayId: f.dayId },
      { name: uniqueName('Row'), email: 'row@example.com' },
      { name: uniqueName('Row'), employeeId: 'E-1' },
    ];
    const send = (persons: unknown[]) =>
      call(f, fill(template, f), { method: 'POST', headers: serverHeaders(), body: { persons } });
    const expectStored = async (answer: ApiAnswer) => {
      for (const person of answer.body.persons as { personId: string; code: string; name: string }[]) {
        expect(await getItem(keys.person(f.tenantId, f.token, person.personId))).toEqual(
          expect.objectContaining({ name: person.name, code: person.code, source: 'import' }),
        );
      }
    };
    return {
      run: () => send(rows),
      async expectSuccess(outcome) {
        const answer = answerOf(outcome);
        expect(answer.status).toBe(200);
        expect(answer.body).toEqual(expect.objectContaining({ imported: 3, skipped: 0 }));
        await expectStored(answer);
      },
      async settle(outcome) {
        // The documented client behaviour: resend the whole request after a 5xx, the not_written rows after a 200.
        const answer = answerOf(outcome);
        const again =
          answer.status === 200
            ? ((answer.body.skippedDetails ?? []) as { index: number; reason: string }[])
                .filter((skip) => skip.reason === 'not_written')
                .map((skip) => rows[skip.index])
            : rows;
        if (again.length === 0) return;
        const retried = answerOf(await send(again));
        expect(retried.status).toBe(200);
        expect(retried.body).toEqual(expect.objectContaining({ imported: again.length, skipped: 0 }));
        await expectStored(retried);
      },
    };
  },
};

/**
 * A server-side request the fault gallery refuses with a documented error (it does not ask for
 * the HR consent, and has no HR export): the refusal, after the gallery's read, is its success.
 */
export function serverRefusal(label: string, method: 'GET' | 'POST', status: number, error: string): ProbeSpec {
  return {
    label,
    touches: READS,
    async prepare(f, template) {
      const path = fill(template, f).replace('{exportId}', 'hrx_01m95h2r4k6m8p0r2t4v6x8z0b');
      const run = () => call(f, path, { method, headers: serverHeaders(), ...(method === 'POST' ? { body: {} } : {}) });
      return {
        run,
        async expectSuccess(outcome) {
          const answer = answerOf(outcome);
          expect([answer.status, answer.body.error]).toEqual([status, error]);
        },
        async settle() {},
      };
    },
  };
}
