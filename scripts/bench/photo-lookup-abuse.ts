import { randomBytes } from 'node:crypto';
import { resetClock, setClock } from '#lib/platform/clock';
import { type OutgoingEmail, useEmailSender } from '#lib/photos/notices/adapters/email-sender';
import { updateGallerySettings } from '#lib/galleries/store/galleries';
import { insertPersonsWithCodes } from '#lib/persons/store/access-code-allocation';
import { ACCESS_CODE_ALPHABET } from '#lib/persons/rules/access-codes';
import { importedPersonDraft } from '#lib/persons/rules/person-import';
import { createTenant } from '#lib/tenants/store/tenants';
import { createBenchGallery, postGroupShootInProcess } from './bench-api';

/** A code other than `avoid`, the n-th in a fixed order: the guesser never repeats a code. */
function guessedCode(index: number, avoid: string): string {
  const size = ACCESS_CODE_ALPHABET.length;
  const code = [0, 1, 2, 3].map((place) => ACCESS_CODE_ALPHABET[Math.floor(index / size ** place) % size]).join('');
  return code === avoid ? guessedCode(index + size ** 4 / 2, avoid) : code;
}

/**
 * The lookup scenario of the abuse section: on a simulated clock and with the default budgets, a
 * guesser spreads `myPhotos` guesses over `networks` client networks (a new address for each
 * guess): first each network's burst at once (six guesses), then one guess per network every 2
 * minutes (each address's volume rate) for `hours`. Beside it the participant looks every 30
 * minutes from a network of their own, by code and email and by `sendPhotoLink` in turn, and
 * follows the link of any email that came. The handler runs in process, so that each request
 * has an address of its own; emails go to an inbox in memory. Goals: the participant is refused
 * 0 times and always reaches their photos; the guesser finds 0 pairs.
 */
export async function measureLookupAbuse(options: { hours: number; networks: number }) {
  const inbox: OutgoingEmail[] = [];
  useEmailSender({
    send: async (email) => (inbox.push(email), { outcome: 'sent', messageId: randomBytes(8).toString('hex') }),
  });
  const environment = {
    PHOTO_NOTICE_FROM: 'photos@groupshoot.example',
    CHECKIN_PAGE_URL: 'https://checkin.example.com/',
  };
  const previous = Object.fromEntries(
    ['PHOTO_LINK_ANSWER_MS', ...Object.keys(environment)].map((n) => [n, process.env[n]]),
  );
  for (const [name, value] of Object.entries(environment)) process.env[name] ??= value;
  // The uniform answer's minimum time would only make the simulated hours take longer in real time.
  process.env.PHOTO_LINK_ANSWER_MS = '0';
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
    const draft = importedPersonDraft(
      { name: 'Pat Participant', email, employeeId: null, shootingDayId: null },
      new Date(clockMs).toISOString(),
    );
    const participant = (await insertPersonsWithCodes({ tenantId: tenant.tenantId, token }, [draft])).written[0]!;
    const post = (sourceIp: string, body: Record<string, unknown>) =>
      postGroupShootInProcess(slug, sourceIp, { token, ...body }, clockMs);
    const result = {
      simulatedHours: options.hours,
      guesserNetworks: options.networks,
      guesserRequests: 0,
      /** Wrong pairs answered with a verdict (404): what the guesser learned anything from. */
      guesserVerdicts: 0,
      /** Guesses answered with the uniform answer (no verdict), refused by the volume budget (429), answered with photos (goal 0). */
      guesserUniform: 0,
      guesserThrottled: 0,
      guesserSuccesses: 0,
      participantLooks: 0,
      /** Answers to the participant that were neither photos nor the uniform answer (goal 0). */
      participantRefusals: 0,
      /** Looks after which the participant saw their photos: at once, or through the emailed link. */
      participantReachedPhotos: 0,
      participantDirect: 0,
      participantByLink: 0,
    };
    let guesses = 0;
    const guess = async (network: number) => {
      const code = guessedCode(guesses, participant.code);
      const answer = await post(`198.18.${network}.${1 + (guesses++ % 200)}`, { action: 'myPhotos', code, email });
      result.guesserRequests += 1;
      if (answer.status === 404) result.guesserVerdicts += 1;
      else if (answer.status === 429) result.guesserThrottled += 1;
      else if (answer.body.photoLinkRequested) result.guesserUniform += 1;
      else if (answer.body.photos) result.guesserSuccesses += 1;
    };
    const look = async (index: number) => {
      result.participantLooks += 1;
      const sent = inbox.length;
      const answer = await post(
        '192.0.2.10',
        index % 2 === 0 ? { action: 'myPhotos', code: participant.code, email } : { action: 'sendPhotoLink', email },
      );
      if (answer.status !== 200) result.participantRefusals += 1;
      else if (answer.body.photos) result.participantDirect += 1;
      else {
        const letter = inbox.slice(sent).find((candidate) => candidate.to === email);
        const link = letter && /#my-photos\/link\/([A-Za-z0-9_.-]+)/.exec(letter.text)?.[1];
        const opened = link ? await post('192.0.2.10', { action: 'photosByLink', photoLink: link }) : undefined;
        if (opened?.status === 200) result.participantByLink += 1;
      }
      result.participantReachedPhotos = result.participantDirect + result.participantByLink;
    };

    // The reported attack first: each network's burst at once, then each network at its volume rate.
    for (let round = 0; round < 6; round += 1)
      for (let network = 0; network < options.networks; network += 1) await guess(network);
    for (let step = 1; step <= (options.hours * 60) / 2; step += 1) {
      clockMs += 2 * 60_000;
      for (let network = 0; network < options.networks; network += 1) await guess(network);
      // Every 30 minutes, past the 5-minute email throttle.
      if (step % 15 === 0) await look(step / 15);
    }
    return result;
  } finally {
    resetClock();
    useEmailSender(undefined);
    for (const [name, value] of Object.entries(previous)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}
