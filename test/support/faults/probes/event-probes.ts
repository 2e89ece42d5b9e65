/**
 * Probes of what arrives as events rather than requests of a participant or a client: Stripe's
 * checkout.session.completed webhook, and the photo ingest function that S3 ObjectCreated invokes.
 */
import Stripe from 'stripe';
import { handler as ingestPhoto } from '../../../../functions/photos/sorting/ingest-photo';
import { keys } from '../../table-keys';
import { queryPartition } from '#lib/platform/table/queries';
import { photoIdOf, photoObjectKey } from '#lib/platform/media-keys';
import { makeJpeg, objectCreatedEvent, uploadObject } from '../../media';
import { getItem } from '../gallery-state';
import { services } from '../local-services';
import { type Outcome, answerOf, call, importOne, paidCheckin, sessionIdOf } from '../requests';
import { type Probe, type ProbeSpec, retryOnFailure } from './probe';

const webhookSigner = new Stripe('sk_test_faults');

/** checkout.session.completed of a paid session, as Stripe delivers it, signed. */
export const webhookProbe: ProbeSpec = {
  label: 'checkout.session.completed of a pending reservation',
  touches: { dynamodb: true, s3: false, stripe: false, transactions: true },
  async prepare(f, template) {
    const reserved = await paidCheckin(f);
    const emulator = services.emulator;
    const session = emulator.sessions.get(sessionIdOf(reserved.checkoutUrl))!;
    Object.assign(session, { status: 'complete', payment_status: 'paid', payment_intent: `pi_${reserved.orderId}` });
    const { account: _account, ...object } = session;
    const payload = JSON.stringify({
      id: `evt_${reserved.orderId}`,
      object: 'event',
      api_version: '2026-10-28.endive',
      created: Math.floor(Date.now() / 1000),
      type: 'checkout.session.completed',
      account: session.account,
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      data: { object },
    });
    const run = () =>
      call(f, template, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'Stripe-Signature': webhookSigner.webhooks.generateTestHeaderString({
            payload,
            secret: emulator.webhookSecret,
          }),
        },
        body: payload,
      });
    const expectSuccess = async (outcome: Outcome, first: boolean) => {
      const answer = answerOf(outcome);
      const order = await getItem(keys.order(f.tenantId, f.token, reserved.orderId));
      expect({ status: answer.status, outcome: answer.body.outcome, reservation: order?.status }).toEqual({
        status: 200,
        outcome: first ? 'handled' : expect.any(String),
        reservation: 'paid',
      });
      expect(await getItem(keys.person(f.tenantId, f.token, order!.person.personId))).toEqual(
        expect.objectContaining({ code: order!.code, source: 'checkin' }),
      );
    };
    return {
      run,
      expectSuccess,
      // Stripe redelivers an event until it is answered with a 2xx.
      async settle(outcome) {
        if (answerOf(outcome).status >= 300) await expectSuccess(await run(), false);
        else await expectSuccess(outcome, false);
      },
    };
  },
};

/** The S3 ObjectCreated function: not a route, but the one that reads S3 for photos. */
export const ingestProbe: Probe = {
  routeId: 'ingestPhoto',
  method: 'INVOKE',
  template: 'functions/photos/sorting/ingest-photo',
  label: 'photo ingest (S3 ObjectCreated)',
  touches: { dynamodb: true, s3: true, stripe: false, transactions: true },
  async prepare(f) {
    const personId = await importOne(f);
    const objectKey = photoObjectKey({ tenantId: f.tenantId, token: f.token, personId, fileName: 'portrait.jpg' });
    await uploadObject(objectKey, makeJpeg(24, 16));
    const run = async (): Promise<Outcome> => {
      try {
        await ingestPhoto(objectCreatedEvent(objectKey));
        return { kind: 'invocation' };
      } catch (error) {
        return { kind: 'invocation', error: error as Error };
      }
    };
    const expectSuccess = async (outcome: Outcome) => {
      expect(outcome).toEqual({ kind: 'invocation' });
      const photos = await queryPartition(keys.photosOfPerson(f.tenantId, f.token, personId));
      expect(photos).toEqual([expect.objectContaining({ photoId: photoIdOf(objectKey), width: 24, height: 16 })]);
    };
    return { run, expectSuccess, settle: retryOnFailure(run, expectSuccess) };
  },
};
