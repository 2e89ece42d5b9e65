import { useLocalApi } from '../../support/local-api';
import { type CheckinStudio, createCheckinStudio, createPayingStudio } from '../../support/checkin-gallery';
import { useStripeEmulator } from '../../support/stripe';

/**
 * The participant's language (issue 28): sent by the page with submitCheckin, stored on the
 * person on every path (a free check-in, an imported person's own check-in, a paid reservation
 * once paid) and shown by GET persons.
 */
const api = useLocalApi();
const stripe = useStripeEmulator(api);

const post = (studio: CheckinStudio, body: Record<string, unknown>) =>
  api.call('/group-shoot', { method: 'POST', headers: studio.publicHeaders, body });
const listedLanguages = async (studio: CheckinStudio) => {
  const listed = await api.call(`/groupshoot/${studio.token}/persons`, { headers: studio.serverHeaders });
  return Object.fromEntries(
    listed.body.persons.map((person: { name: string; language: string | null }) => [person.name, person.language]),
  );
};

describe("the participant's language, stored with the check-in", () => {
  it('keeps the language of a paid check-in in its reservation until payment creates the person', async () => {
    // Prepare
    const studio = await createPayingStudio();
    // Act
    const reserved = await post(
      studio,
      studio.validBody({ selectedPackageId: studio.paidPackage.id, termsAccepted: true, language: 'fr' }),
    );
    await stripe.emulator.pay(reserved.body.checkoutUrl.split('/').pop());
    const paid = await post(studio, { action: 'checkinStatus', statusToken: reserved.body.statusToken });
    // Assess
    expect([reserved.status, paid.body.status]).toEqual([200, 'paid']);
    expect(await listedLanguages(studio)).toEqual({ 'Ada Lovelace': 'fr' });
  });

  it('gives an imported person the language of its own check-in (importedOnly), and none before', async () => {
    // Prepare
    const studio = await createCheckinStudio({ checkinPolicy: { mode: 'importedOnly', allowedEmailDomains: [] } });
    const imported = await api.call(`/groupshoot/${studio.token}/persons`, {
      method: 'POST',
      headers: studio.serverHeaders,
      body: {
        persons: [
          { name: 'Grace Hopper', email: 'grace@example.com' },
          { name: 'Alan Turing', email: 'alan@example.com' },
        ],
      },
    });
    // Act
    const checkedIn = await post(
      studio,
      studio.validBody({ name: 'Grace Hopper', email: 'grace@example.com', language: 'de' }),
    );
    // Assess
    expect([imported.status, checkedIn.status]).toEqual([200, 200]);
    expect(await listedLanguages(studio)).toEqual({ 'Grace Hopper': 'de', 'Alan Turing': null });
  });
});
