/**
 * Probes of the public check-in endpoints (X-Tenant-Slug only): the check-in page's info, a
 * check-in with a free or a paid package, a reservation's status, a new Checkout Session for a
 * pending reservation, and the CORS preflights.
 */
import { now } from '#lib/platform/clock';
import { keys } from '../../table-keys';
import { getItem } from '../gallery-state';
import { services } from '../local-services';
import {
  type Outcome,
  answerOf,
  cacheReadiness,
  call,
  checkinBody,
  paidCheckin,
  publicHeaders,
  sessionIdOf,
} from '../requests';
import { NOTHING, type ProbeSpec, READS, fill, retryOnFailure, selfie } from './probe';

export const checkinInfoProbe: ProbeSpec = {
  label: 'check-in info',
  touches: READS,
  async prepare(f, template) {
    return {
      run: () => call(f, fill(template, f), { headers: publicHeaders() }),
      async expectSuccess(outcome) {
        const answer = answerOf(outcome);
        expect(answer.status).toBe(200);
        expect(answer.body.token).toBe(f.token);
      },
      async settle() {},
    };
  },
};

export const freeCheckinProbe: ProbeSpec = {
  label: 'submitCheckin: free package, selfie and day',
  touches: { dynamodb: true, s3: true, stripe: false, transactions: true },
  async prepare(f, template) {
    const body = checkinBody(f, { selectedPackageId: f.freePackageId, selfieBase64: selfie });
    const run = () => call(f, template, { method: 'POST', headers: publicHeaders(), body });
    const expectSuccess = async (outcome: Outcome) => {
      const answer = answerOf(outcome);
      expect(answer.status).toBe(200);
      const stored = await getItem(keys.person(f.tenantId, f.token, answer.body.personId));
      expect(stored).toEqual(
        expect.objectContaining({ name: body.name, code: answer.body.code, hasSelfie: true, shootingDayId: f.dayId }),
      );
    };
    return { run, expectSuccess, settle: retryOnFailure(run, expectSuccess) };
  },
};

/** A check-in with the paid package: a pending reservation and its Checkout Session. */
export function paidCheckinProbe(label: string, readinessCached: boolean, withSelfie: boolean): ProbeSpec {
  return {
    label,
    touches: { dynamodb: true, s3: withSelfie, stripe: true, transactions: true },
    async prepare(f, template) {
      await cacheReadiness(true, readinessCached ? now() : 0);
      const body = checkinBody(f, {
        selectedPackageId: f.paidPackageId,
        termsAccepted: true,
        ...(withSelfie ? { selfieBase64: selfie } : {}),
      });
      const run = () => call(f, template, { method: 'POST', headers: publicHeaders(), body });
      const expectSuccess = async (outcome: Outcome) => {
        const answer = answerOf(outcome);
        expect(answer.status).toBe(200);
        expect(answer.body).toEqual(
          expect.objectContaining({
            orderId: expect.any(String),
            checkoutUrl: expect.any(String),
            statusToken: expect.any(String),
            retryToken: expect.any(String),
          }),
        );
        const order = await getItem(keys.order(f.tenantId, f.token, answer.body.orderId));
        expect(order).toEqual(
          expect.objectContaining({ status: 'pending', sessionId: sessionIdOf(answer.body.checkoutUrl) }),
        );
      };
      return { run, expectSuccess, settle: retryOnFailure(run, expectSuccess) };
    },
  };
}

export const checkinStatusProbe: ProbeSpec = {
  label: 'checkinStatus of a pending reservation',
  touches: READS,
  async prepare(f, template) {
    const reserved = await paidCheckin(f);
    const run = () =>
      call(f, template, {
        method: 'POST',
        headers: publicHeaders(),
        body: { action: 'checkinStatus', statusToken: reserved.statusToken },
      });
    return {
      run,
      async expectSuccess(outcome) {
        const answer = answerOf(outcome);
        expect(answer.status).toBe(200);
        expect(answer.body).toEqual(expect.objectContaining({ orderId: reserved.orderId, status: 'pending' }));
      },
      async settle() {},
    };
  },
};

export const retryCheckoutProbe: ProbeSpec = {
  label: 'retryCheckout of a pending reservation',
  touches: { dynamodb: true, s3: false, stripe: true, transactions: false },
  async prepare(f, template) {
    const reserved = await paidCheckin(f);
    const run = () =>
      call(f, template, {
        method: 'POST',
        headers: publicHeaders(),
        body: { action: 'retryCheckout', retryToken: reserved.retryToken },
      });
    const expectSuccess = async (outcome: Outcome) => {
      const answer = answerOf(outcome);
      expect(answer.status).toBe(200);
      const fresh = sessionIdOf(answer.body.checkoutUrl);
      expect(await getItem(keys.order(f.tenantId, f.token, reserved.orderId))).toEqual(
        expect.objectContaining({ status: 'pending', sessionId: fresh }),
      );
      const sessions = services.emulator.sessions;
      const stillOpen = [...f.handedOut].filter(
        (id) =>
          id !== fresh &&
          sessions.get(id)?.metadata?.orderId === reserved.orderId &&
          sessions.get(id)?.status === 'open',
      );
      expect(stillOpen).toEqual([]);
    };
    return { run, expectSuccess, settle: retryOnFailure(run, expectSuccess) };
  },
};

/** The CORS preflight of a route answered with `method`. */
export function preflightProbe(method: 'GET' | 'POST'): ProbeSpec {
  return {
    label: 'CORS preflight',
    touches: NOTHING,
    async prepare(f, template) {
      const run = () =>
        call(f, fill(template, f), {
          method: 'OPTIONS',
          headers: {
            Origin: 'https://checkin.example.com',
            'Access-Control-Request-Method': method,
            'Access-Control-Request-Headers': 'content-type,x-tenant-slug',
          },
        });
      return {
        run,
        async expectSuccess(outcome) {
          const answer = answerOf(outcome);
          expect(answer.status).toBe(204);
          expect(answer.headers.get('access-control-allow-origin')).toBe('*');
        },
        async settle() {},
      };
    },
  };
}
