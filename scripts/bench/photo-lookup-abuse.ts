import { randomBytes } from 'node:crypto';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { handler as postGroupShoot } from '../../functions/checkin/post-group-shoot';
import { lambdaContext, publicPostEvent } from '../local/api-gateway-event';
import { resetClock, setClock } from '#lib/platform/clock';
import { type EmailSender, type OutgoingEmail, useEmailSender } from '#lib/photos/adapters/email-sender';
import { updateGallerySettings } from '#lib/galleries/store/galleries';
import { insertPersonsWithCodes } from '#lib/persons/store/access-code-allocation';
import { ACCESS_CODE_ALPHABET } from '#lib/persons/rules/access-codes';
import { NO_CONSENTS, newPersonId } from '#lib/persons/rules/person-model';
import { createTenant } from '#lib/tenants/store/tenants';
import { createBenchGallery } from './bench-api';

/**
 * The lookup scenario of the abuse section: a distributed guesser (many client networks, each at
 * its per-client volume budget) beside a legitimate participant, on a simulated clock, with the
 * default budgets. The handler runs in process, so that each request can come from an address of
 * its own; emails go to an inbox in memory (SES is not what is measured). Goals: the participant
 * is refused 0 times and always reaches their photos (directly or by the link in their inbox);
 * the guesser finds 0 pairs.
 */
export interface LookupAbuseResult {
  simulatedHours: number;
  guesserNetworks: number;
  guesserRequests: number;
  /** Wrong pairs answered with a verdict (404): what the guesser learned anything from. */
  guesserVerdicts: number;
  /** Guesses answered with the uniform answer (no verdict). */
  guesserUniform: number;
  /** Guesses refused by the per-client volume budget (429). */
  guesserThrottled: number;
  /** Guesses answered with photos (goal 0). */
  guesserSuccesses: number;
  participantLooks: number;
  /** Answers to the participant that were neither photos nor the uniform answer (goal 0). */
  participantRefusals: number;
  /** Looks after which the participant saw their photos, directly or through the emailed link. */
  participantReachedPhotos: number;
  /** Looks answered with photos at once, and through the emailed link. */
  participantDirect: number;
  participantByLink: number;
}

interface Answer {
  status: number;
  body: any;
}

/** A code other than `avoid`, the n-th in a fixed order: the guesser never repeats a code. */
function guessedCode(index: number, avoid: string): string {
  const size = ACCESS_CODE_ALPHABET.length;
  const code = [0, 1, 2, 3].map((place) => ACCESS_CODE_ALPHABET[Math.floor(index / size ** place) % size]).join('');
  return code === avoid ? guessedCode(index + size ** 4 / 2, avoid) : code;
}

export async function measureLookupAbuse(options: { hours: number; networks: number }): Promise<LookupAbuseResult> {
  const inbox: OutgoingEmail[] = [];
  const sender: EmailSender = {
    send: async (email) => (inbox.push(email), { outcome: 'sent', messageId: randomBytes(8).toString('hex') }),
  };
  const previous = {
    from: process.env.PHOTO_NOTICE_FROM,
    page: process.env.CHECKIN_PAGE_URL,
    answerMs: process.env.PHOTO_LINK_ANSWER_MS,
  };
  process.env.PHOTO_NOTICE_FROM ??= 'photos@groupshoot.example';
  process.env.CHECKIN_PAGE_URL ??= 'https://checkin.example.com/';
  // The uniform answer's minimum time would only make the simulated hours take longer in real time.
  process.env.PHOTO_LINK_ANSWER_MS = '0';
  useEmailSender(sender);
  let clockMs = Date.parse('2030-01-15T08:00:00Z');
  setClock(() => clockMs);
  try {
    const slug = `bench-lookups-${randomBytes(3).toString('hex')}`;
    const tenant = await createTenant({ slug, name: 'Bench lookups', plan: 'creator' });
    const { token } = await createBenchGallery(tenant.tenantId, 'Bench lookups');
    await updateGallerySettings(tenant.tenantId, token, {
      photoAccess: { codeAndEmail: true, codeAndEmployeeId: false },
    });
    const email = `participant-${slug}@example.com`;
    const { written } = await insertPersonsWithCodes({ tenantId: tenant.tenantId, token }, [
      {
        personId: newPersonId(),
        name: 'Pat Participant',
        email,
        employeeId: null,
        phone: null,
        department: null,
        notes: null,
        shootingDayId: null,
        packageId: null,
        orderNotes: null,
        consents: NO_CONSENTS,
        customFields: {},
        source: 'import',
        createdAt: new Date(clockMs).toISOString(),
        hasSelfie: false,
        photoCount: 0,
      },
    ]);
    const participant = written[0]!;
    const post = async (sourceIp: string, body: Record<string, unknown>): Promise<Answer> => {
      const event = publicPostEvent(
        { routeKey: 'POST /group-shoot', path: '/group-shoot' },
        { 'x-tenant-slug': slug },
        sourceIp,
        { token, ...body },
        clockMs,
      );
      const answer = (await postGroupShoot(event as any, lambdaContext('bench'))) as APIGatewayProxyStructuredResultV2;
      return { status: answer.statusCode ?? 200, body: JSON.parse(String(answer.body)) };
    };

    const result: LookupAbuseResult = {
      simulatedHours: options.hours,
      guesserNetworks: options.networks,
      guesserRequests: 0,
      guesserVerdicts: 0,
      guesserUniform: 0,
      guesserThrottled: 0,
      guesserSuccesses: 0,
      participantLooks: 0,
      participantRefusals: 0,
      participantReachedPhotos: 0,
      participantDirect: 0,
      participantByLink: 0,
    };
    let guesses = 0;
    const guess = async (network: number) => {
      const answer = await post(`198.18.${network}.${1 + (guesses % 200)}`, {
        action: 'myPhotos',
        code: guessedCode(guesses++, participant.code),
        email,
      });
      result.guesserRequests += 1;
      if (answer.status === 404) result.guesserVerdicts += 1;
      else if (answer.status === 429) result.guesserThrottled += 1;
      else if (answer.body.photoLinkRequested) result.guesserUniform += 1;
      else if (answer.body.photos) result.guesserSuccesses += 1;
    };
    /** The participant looks, by code and email and by asking for a link in turn, from their own network. */
    const look = async (index: number) => {
      result.participantLooks += 1;
      const sent = inbox.length;
      const answer =
        index % 2 === 0
          ? await post('192.0.2.10', { action: 'myPhotos', code: participant.code, email })
          : await post('192.0.2.10', { action: 'sendPhotoLink', email });
      if (answer.status !== 200) {
        result.participantRefusals += 1;
        return;
      }
      if (answer.body.photos) {
        result.participantDirect += 1;
        result.participantReachedPhotos += 1;
        return;
      }
      const letter = inbox.slice(sent).find((candidate) => candidate.to === email);
      const link = letter && /#my-photos\/link\/([A-Za-z0-9_.-]+)/.exec(letter.text)?.[1];
      const opened = link ? await post('192.0.2.10', { action: 'photosByLink', photoLink: link }) : undefined;
      if (opened?.status === 200) {
        result.participantByLink += 1;
        result.participantReachedPhotos += 1;
      }
    };

    // The reported attack first: each network's burst at once (six guesses each), then each
    // network at its volume rate (one every 2 minutes), the participant looking every 30 minutes.
    for (let round = 0; round < 6; round += 1)
      for (let network = 0; network < options.networks; network += 1) await guess(network);
    const steps = (options.hours * 60) / 2;
    for (let step = 1; step <= steps; step += 1) {
      clockMs += 2 * 60_000;
      for (let network = 0; network < options.networks; network += 1) await guess(network);
      // Every 30 minutes, past the 5-minute email throttle.
      if (step % 15 === 0) await look(step / 15);
    }
    return result;
  } finally {
    resetClock();
    useEmailSender(undefined);
    for (const [name, value] of [
      ['PHOTO_NOTICE_FROM', previous.from],
      ['CHECKIN_PAGE_URL', previous.page],
      ['PHOTO_LINK_ANSWER_MS', previous.answerMs],
    ] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

/** The scenario's figures as a Markdown table with its heading. */
export function formatLookupAbuse(result: LookupAbuseResult): string {
  const line = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
  return [
    `### Abuse: a distributed guesser of photo lookups (${result.guesserNetworks} networks, ${result.simulatedHours} simulated hours, default budgets) beside a participant`,
    '',
    line(['Guesser requests', 'Verdicts (404)', 'Uniform answers', 'Throttled (429)', 'Successes (goal 0)']),
    line(['---', '---', '---', '---', '---']),
    line([
      result.guesserRequests,
      result.guesserVerdicts,
      result.guesserUniform,
      result.guesserThrottled,
      result.guesserSuccesses,
    ]),
    '',
    line(['Participant looks', 'Refusals (goal 0)', 'Reached the photos', 'at once', 'by the emailed link']),
    line(['---', '---', '---', '---', '---']),
    line([
      result.participantLooks,
      result.participantRefusals,
      result.participantReachedPhotos,
      result.participantDirect,
      result.participantByLink,
    ]),
  ].join('\n');
}
