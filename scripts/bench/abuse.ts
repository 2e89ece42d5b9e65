import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import { resetClock, setClock } from '#lib/platform/clock';
import { type OutgoingEmail, useEmailSender } from '#lib/photos/notices/adapters/email-sender';
import { db } from '#lib/platform/table/client';
import { personKeys } from '#lib/persons/store/keys';
import { queryPartition } from '#lib/platform/table/queries';
import { insertPersonsWithCodes } from '#lib/persons/store/access-code-allocation';
import { ACCESS_CODE_ALPHABET } from '#lib/persons/rules/access-codes';
import { importedPersonDraft } from '#lib/persons/rules/person-import';
import { DEFAULT_PUBLIC_LIMITS } from '#lib/galleries/rules/public-limits';
import type { RateLimitPolicy } from '#lib/rate-limits/rules/rate-limit';
import { checkinBody, createBenchStudio, postGroupShootInProcess } from './bench-api';
import { checkinRequest } from './load';
import { latencyPercentiles, rounded } from './statistics';

type Studio = Awaited<ReturnType<typeof createBenchStudio>>;

/**
 * One client floods POST /group-shoot of gallery A at ten times its check-in budget
 * (`flooderPolicy`, the default when absent) for `seconds`, beside well-behaved clients of
 * another tenant, who ran first without the flood on a third (docs/benchmarks/abuse.md). Refused
 * requests must write nothing: the writes naming tenant A are counted in the shared document client.
 */
export async function measureAbuse(baseUrl: string, seconds: number, flooderPolicy?: RateLimitPolicy) {
  const policy = flooderPolicy ?? DEFAULT_PUBLIC_LIMITS.checkins;
  const [flooded, calm, calmAlone] = await Promise.all([
    createBenchStudio('flooded', flooderPolicy && { publicLimits: { checkins: flooderPolicy } }),
    createBenchStudio('calm'),
    createBenchStudio('calm-alone'),
  ]);
  const withoutFlood = await runCalmClients(baseUrl, calmAlone, seconds);
  // The default burst plus what refills during the flood.
  const flooderBudget = policy.limit + Math.floor((seconds * 1000) / (policy.windowMs / policy.limit));
  const writes = { count: 0 };
  const WRITES = new Set(['PutItemCommand', 'UpdateItemCommand', 'DeleteItemCommand', 'TransactWriteItemsCommand']);
  db.middlewareStack.add(
    (next, context) => async (args) => {
      const result = await next(args);
      if (WRITES.has(context.commandName ?? '') && JSON.stringify(args.input).includes(flooded.tenantId))
        writes.count += 1;
      return result;
    },
    { step: 'initialize', name: 'benchWriteCounter' },
  );
  const flood = autocannon({
    url: new URL(baseUrl).origin,
    connections: 10,
    duration: seconds,
    overallRate: Math.ceil((flooderBudget * 10) / seconds),
    requests: [checkinRequest(flooded.slug, checkinBody(flooded.token, flooded.dayId, '[<id>]'))],
    idReplacement: true,
    workers: 1,
    timeout: 30,
  });
  const [floodResult, withFlood] = await Promise.all([flood, runCalmClients(baseUrl, calm, seconds)]);
  db.middlewareStack.remove('benchWriteCounter');
  const admitted = floodResult['2xx'];
  return {
    durationSeconds: seconds,
    flooderBudget,
    flooderRequests: floodResult.requests.total,
    flooderAdmitted: admitted,
    /** Persons the flood created in its gallery (spots taken; goal ≤ its budget). */
    flooderSpots: (await queryPartition(personKeys.personsOfGallery(flooded.tenantId, flooded.token))).length,
    /** Writes naming tenant A beyond the four each admitted check-in makes (client counter, tenant's share, transaction, statistics): goal 0. */
    writesByRefused: writes.count - 4 * admitted,
    calm: { withoutFlood, withFlood },
    /** The well-behaved clients' p99 with the flood over without (goal ≤ 1.5). */
    p99Ratio: rounded(withFlood.p99Milliseconds / withoutFlood.p99Milliseconds),
  };
}

/** The well-behaved clients for `seconds`: one check-in a second on `calm`, one persons read every two seconds. */
async function runCalmClients(baseUrl: string, calm: Studio, seconds: number) {
  const latencies: number[] = [];
  let refused = 0;
  const send = async (delayMs: number, path: string, init: RequestInit) => {
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    const startedAt = performance.now();
    const response = await fetch(`${baseUrl}${path}`, init);
    await response.text();
    latencies.push(performance.now() - startedAt);
    if (response.status !== 200) refused += 1;
  };
  const headers = { 'X-Tenant-Slug': calm.slug };
  await Promise.all(
    Array.from({ length: seconds }, (_, second) => [
      send(second * 1000, '/group-shoot', {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/json' },
        body: JSON.stringify(checkinBody(calm.token, calm.dayId, `calm-${second}-${randomBytes(3).toString('hex')}`)),
      }),
      second % 2 === 1
        ? Promise.resolve()
        : send(second * 1000 + 500, `/groupshoot/${calm.token}/persons?limit=10`, {
            headers: { ...headers, Authorization: `Bearer ${calm.apiKey}` },
          }),
    ]).flat(),
  );
  return { requests: latencies.length, refused, ...latencyPercentiles(latencies) };
}

/** A code other than `avoid`, the n-th in a fixed order: the guesser never repeats a code. */
function guessedCode(index: number, avoid: string): string {
  const size = ACCESS_CODE_ALPHABET.length;
  const code = [0, 1, 2, 3].map((place) => ACCESS_CODE_ALPHABET[Math.floor(index / size ** place) % size]).join('');
  return code === avoid ? guessedCode(index + size ** 4 / 2, avoid) : code;
}

/**
 * On a simulated clock, a guesser spreads `myPhotos` guesses over `networks` client networks for
 * `hours` beside a participant who looks every 30 minutes (docs/benchmarks/abuse.md), through the
 * handler in process, so that each request has an address of its own; emails go to an inbox here.
 */
export async function measureLookupAbuse(options: { hours: number; networks: number }) {
  const inbox: OutgoingEmail[] = [];
  useEmailSender({
    send: async (email) => (inbox.push(email), { outcome: 'sent', messageId: randomBytes(8).toString('hex') }),
  });
  // The page the emailed link opens (the sender, PHOTO_NOTICE_FROM, is the local stack's).
  process.env.CHECKIN_PAGE_URL ??= 'https://checkin.example.com/';
  // The uniform answer's minimum time would only make the simulated hours take longer in real time.
  const answerMs = process.env.PHOTO_LINK_ANSWER_MS;
  process.env.PHOTO_LINK_ANSWER_MS = '0';
  let clockMs = Date.parse('2030-01-15T08:00:00Z');
  setClock(() => clockMs);
  try {
    const { tenantId, slug, token } = await createBenchStudio('lookups', {
      photoAccess: { codeAndEmail: true, codeAndEmployeeId: false },
    });
    const email = `participant-${slug}@example.com`;
    const draft = importedPersonDraft(
      { name: 'Pat Participant', email, employeeId: null, shootingDayId: null },
      new Date(clockMs).toISOString(),
    );
    const participant = (await insertPersonsWithCodes({ tenantId, token }, [draft])).written[0]!;
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
    if (answerMs === undefined) delete process.env.PHOTO_LINK_ANSWER_MS;
    else process.env.PHOTO_LINK_ANSWER_MS = answerMs;
  }
}
