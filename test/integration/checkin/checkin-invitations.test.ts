import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { resetClock, setClock } from '#lib/platform/clock';
import { db, tableName } from '#lib/platform/table/client';
import { keys } from '../../support/table-keys';
import { queryPartition } from '#lib/platform/table/queries';
import { INVITATION_EMAIL_INTERVAL_MS } from '#lib/checkin/rules/invitation';
import { invitationsToHandOut } from '#lib/checkin/invitations';
import { useLocalApi } from '../../support/local-api';
import {
  type CheckinStudio,
  createCheckinStudio,
  createPayingStudio,
  importGuests,
} from '../../support/checkin-gallery';
import { useStripeEmulator } from '../../support/stripe';
import { makeJpeg } from '../../support/media';
import { useSesEmulator } from '../../support/ses';

/**
 * Check-in invitations (issue 27.3, docs/checkin-page.md#invitations): in an `importedOnly`
 * gallery of a deployment that sends email, whoever types an invited colleague's address cannot
 * complete them or learn their code; the colleague gets a link that can. Over HTTP against
 * DynamoDB Local and the local SES.
 */
const CHECKIN_PAGE = 'https://checkin.example.com/page';
process.env.CHECKIN_PAGE_URL = CHECKIN_PAGE;
const api = useLocalApi();
const ses = useSesEmulator();
const stripe = useStripeEmulator(api);

let clockOffset = 0;
beforeAll(() => setClock(() => Date.now() + clockOffset));
afterAll(() => resetClock());
beforeEach(() => {
  // Each test starts outside the email throttle of the ones before it.
  clockOffset += INVITATION_EMAIL_INTERVAL_MS + 1000;
});

const post = (studio: CheckinStudio, body: Record<string, unknown>) =>
  api.call('/group-shoot', { method: 'POST', headers: studio.publicHeaders, body });
const personItem = async (studio: CheckinStudio, personId: string) =>
  (
    await db.send(
      new GetCommand({
        TableName: tableName,
        Key: keys.person(studio.tenant.tenantId, studio.token, personId),
        ConsistentRead: true,
      }),
    )
  ).Item!;
const invitationOf = (text: string) => /#invitation\/([^\s]+)/.exec(text)![1]!;
const invitedStudio = () => createCheckinStudio({ checkinPolicy: { mode: 'importedOnly', allowedEmailDomains: [] } });

describe('an importedOnly check-in with an invited address', () => {
  it('refuses a check-in without the invitation, tells no code, stores nothing, and emails the invitation to the address', async () => {
    // Prepare
    const studio = await invitedStudio();
    const [ada] = await importGuests(api, studio, [{ name: 'Ada Lovelace', email: 'ada.inv@example.com' }]);
    // Act
    const hijack = await post(
      studio,
      studio.validBody({
        name: 'Mallory',
        email: 'ADA.inv@example.com',
        selfieBase64: makeJpeg(16, 16).toString('base64'),
      }),
    );
    // Assess
    expect([hijack.status, hijack.body.error]).toEqual([403, 'invitation_required']);
    expect(JSON.stringify(hijack.body)).not.toContain(ada!.code);
    expect(await personItem(studio, ada!.personId)).toMatchObject({ name: 'Ada Lovelace', hasSelfie: false });
    expect((await personItem(studio, ada!.personId)).checkedInAt).toBeUndefined();
    expect(await queryPartition(keys.personsOfGallery(studio.tenant.tenantId, studio.token))).toHaveLength(1);
    const [email] = await ses.waitForEmailsTo('ada.inv@example.com', 1);
    expect(email!.subject).toBe(`Your check-in link: ${studio.gallery.galleryName}`);
    expect(email!.body.text).toContain(`${CHECKIN_PAGE}?tenant=${studio.slug}&token=${studio.token}#invitation/`);
    expect(email!.body.text).not.toContain(ada!.code);
  });

  it('completes the person with the emailed invitation, answering its code', async () => {
    // Prepare
    const studio = await invitedStudio();
    const [ada] = await importGuests(api, studio, [{ name: 'Ada Lovelace', email: 'ada.link@example.com' }]);
    await post(studio, studio.validBody({ email: 'ada.link@example.com' }));
    const [email] = await ses.waitForEmailsTo('ada.link@example.com', 1);
    // Act
    const answer = await post(
      studio,
      studio.validBody({
        name: 'Ada King',
        email: 'ada.link@example.com',
        invitation: invitationOf(email!.body.text!),
      }),
    );
    // Assess
    expect([answer.status, answer.body.personId, answer.body.code, answer.body.name]).toEqual([
      200,
      ada!.personId,
      ada!.code,
      'Ada Lovelace',
    ]);
    expect(await personItem(studio, ada!.personId)).toMatchObject({
      name: 'Ada Lovelace',
      declared: { name: 'Ada King' },
      checkedInAt: expect.any(String),
    });
  });

  it('refuses a repeated check-in of a checked-in address without its invitation, and takes it with the invitation', async () => {
    // Prepare
    const studio = await invitedStudio();
    const [ada] = await importGuests(api, studio, [{ name: 'Ada Lovelace', email: 'ada.again@example.com' }]);
    await post(studio, studio.validBody({ email: 'ada.again@example.com' }));
    const [first] = await ses.waitForEmailsTo('ada.again@example.com', 1);
    await post(
      studio,
      studio.validBody({ email: 'ada.again@example.com', invitation: invitationOf(first!.body.text!) }),
    );
    clockOffset += INVITATION_EMAIL_INTERVAL_MS + 1000;
    // Act
    const stranger = await post(studio, studio.validBody({ name: 'Mallory', email: 'ada.again@example.com' }));
    const [, second] = await ses.waitForEmailsTo('ada.again@example.com', 2);
    const withInvitation = await post(
      studio,
      studio.validBody({ email: 'ada.again@example.com', invitation: invitationOf(second!.body.text!) }),
    );
    // Assess
    expect([stranger.status, stranger.body.error, stranger.body.code]).toEqual([403, 'invitation_required', undefined]);
    expect([withInvitation.status, withInvitation.body.personId === ada!.personId]).toEqual([200, false]);
  });

  it('completes a person imported without an address only with the invitation the studio hands them, never by employee ID', async () => {
    // Prepare
    const studio = await invitedStudio();
    const [grace] = await importGuests(api, studio, [{ name: 'Grace Hopper', employeeId: 'E-7' }]);
    const handed = await invitationsToHandOut(studio.tenant, studio.token, CHECKIN_PAGE);
    // Act
    const byEmployeeId = await post(
      studio,
      studio.validBody({ name: 'Mallory', email: 'mallory@example.com', employeeId: 'E-7' }),
    );
    const withInvitation = await post(
      studio,
      studio.validBody({
        name: 'Grace Hopper',
        email: 'grace@example.com',
        employeeId: 'E-70',
        invitation: invitationOf(handed[0]!.checkinUrl),
      }),
    );
    // Assess
    expect(handed.map((invitation) => [invitation.personId, invitation.employeeId])).toEqual([
      [grace!.personId, 'E-7'],
    ]);
    expect([byEmployeeId.status, byEmployeeId.body.error]).toEqual([403, 'not_on_guest_list']);
    expect([withInvitation.status, withInvitation.body.personId, withInvitation.body.code]).toEqual([
      200,
      grace!.personId,
      grace!.code,
    ]);
    expect(await personItem(studio, grace!.personId)).toMatchObject({
      email: 'grace@example.com',
      employeeId: 'E-7',
      declared: { employeeId: 'E-70' },
    });
    expect(await invitationsToHandOut(studio.tenant, studio.token, CHECKIN_PAGE)).toEqual([]);
  });

  it("does not complete a colleague with one's own invitation, and emails the colleague theirs", async () => {
    // Prepare
    const studio = await invitedStudio();
    const [, bob] = await importGuests(api, studio, [
      { name: 'Ada Lovelace', email: 'ada.own@example.com' },
      { name: 'Bob Builder', email: 'bob.own@example.com' },
    ]);
    await post(studio, studio.validBody({ email: 'ada.own@example.com' }));
    const [adaEmail] = await ses.waitForEmailsTo('ada.own@example.com', 1);
    // Act
    const answer = await post(
      studio,
      studio.validBody({ name: 'Ada', email: 'bob.own@example.com', invitation: invitationOf(adaEmail!.body.text!) }),
    );
    // Assess
    expect([answer.status, answer.body.error]).toEqual([403, 'invitation_required']);
    expect((await personItem(studio, bob!.personId)).checkedInAt).toBeUndefined();
    expect(await ses.waitForEmailsTo('bob.own@example.com', 1)).toHaveLength(1);
  });

  it('emails an address at most once in 5 minutes, however many check-ins name it', async () => {
    // Prepare
    const studio = await invitedStudio();
    await importGuests(api, studio, [{ name: 'Ada Lovelace', email: 'ada.flood@example.com' }]);
    // Act
    const answers = [];
    for (let attempt = 0; attempt < 3; attempt += 1)
      answers.push(await post(studio, studio.validBody({ email: 'ada.flood@example.com' })));
    const within = await ses.waitForEmailsTo('ada.flood@example.com', 2);
    clockOffset += INVITATION_EMAIL_INTERVAL_MS + 1000;
    await post(studio, studio.validBody({ email: 'ada.flood@example.com' }));
    // Assess
    expect(answers.map((answer) => answer.body.error)).toEqual([
      'invitation_required',
      'invitation_required',
      'invitation_required',
    ]);
    expect(within).toHaveLength(1);
    expect(await ses.waitForEmailsTo('ada.flood@example.com', 2)).toHaveLength(2);
  });

  it('takes the invitation for a paid package too, and the payment completes the invited person', async () => {
    // Prepare
    const studio = await createPayingStudio({ checkinPolicy: { mode: 'importedOnly', allowedEmailDomains: [] } });
    const [ada] = await importGuests(api, studio, [{ name: 'Ada Lovelace', email: 'ada.paid@example.com' }]);
    const paid = { email: 'ada.paid@example.com', selectedPackageId: studio.paidPackage.id, termsAccepted: true };
    // Act
    const without = await post(studio, studio.validBody(paid));
    const [email] = await ses.waitForEmailsTo('ada.paid@example.com', 1);
    const reserved = await post(studio, studio.validBody({ ...paid, invitation: invitationOf(email!.body.text!) }));
    await stripe.emulator.pay(reserved.body.checkoutUrl.split('/').pop());
    const status = await post(studio, { action: 'checkinStatus', statusToken: reserved.body.statusToken });
    // Assess
    expect([without.status, without.body.error]).toEqual([403, 'invitation_required']);
    expect(reserved.status).toBe(200);
    expect(status.body).toEqual(expect.objectContaining({ status: 'paid', personId: ada!.personId, code: ada!.code }));
  });

  it('refuses an invitation that is no string or too long with invalid_field', async () => {
    // Prepare
    const studio = await invitedStudio();
    // Act
    const answers = [
      await post(studio, studio.validBody({ invitation: 42 })),
      await post(studio, studio.validBody({ invitation: 'x'.repeat(121) })),
    ];
    // Assess
    expect(answers.map((answer) => [answer.status, answer.body.error, answer.body.field])).toEqual([
      [400, 'invalid_field', 'invitation'],
      [400, 'invalid_field', 'invitation'],
    ]);
  });
});
