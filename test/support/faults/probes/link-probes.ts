/**
 * Probes of the link routes: an email's one-click unsubscribe link of an imported person with
 * notificationConsent given, its page (GET) and its POST, settled as a mail provider does it
 * (the POST again after a failure).
 */
import { unsubscribeUrlOf } from '#lib/photos/links/unsubscribe-links';
import { keys } from '../../table-keys';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#lib/platform/table/client';
import { getItem } from '../gallery-state';
import type { Fixture } from '../galleries';
import { answerOf, call, importOne } from '../requests';
import { type ProbeSpec, READS, retryOnFailure } from './probe';

/** A person of the gallery with the notification consent, and the path of their unsubscribe link. */
async function consentingPerson(f: Fixture, template: string): Promise<{ personId: string; path: string }> {
  const personId = await importOne(f);
  // As a check-in of a gallery that asks for it would have stored it.
  await db.send(
    new UpdateCommand({
      TableName: tableName,
      Key: keys.person(f.tenantId, f.token, personId),
      UpdateExpression: 'SET consents.notificationConsent = :true',
      ExpressionAttributeValues: { ':true': true },
    }),
  );
  const url = await unsubscribeUrlOf({ tenantId: f.tenantId, token: f.token }, personId);
  const link = url.slice(url.lastIndexOf('/') + 1);
  return { personId, path: template.replace('{link}', link) };
}

export const unsubscribePageProbe: ProbeSpec = {
  label: 'the unsubscribe link: its page',
  touches: READS,
  async prepare(f, template) {
    const { path } = await consentingPerson(f, template);
    return {
      run: () => call(f, path, {}),
      async expectSuccess(outcome) {
        const answer = answerOf(outcome);
        expect(answer.status).toBe(200);
        expect(answer.body).toContain('name="List-Unsubscribe" value="One-Click"');
      },
      async settle() {},
    };
  },
};

export const unsubscribeProbe: ProbeSpec = {
  label: 'the unsubscribe link: one-click POST',
  touches: { dynamodb: true, s3: false, stripe: false, transactions: true },
  async prepare(f, template) {
    const { personId, path } = await consentingPerson(f, template);
    const run = () =>
      call(f, path, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
      });
    const expectSuccess = async (outcome: Parameters<typeof answerOf>[0]) => {
      const answer = answerOf(outcome);
      expect([answer.status, answer.body.notificationConsent]).toEqual([200, false]);
      expect(await getItem(keys.person(f.tenantId, f.token, personId))).toEqual(
        expect.objectContaining({ consents: expect.objectContaining({ notificationConsent: false }) }),
      );
    };
    return { run, expectSuccess, settle: retryOnFailure(run, expectSuccess) };
  },
};
