import { type RunningSes, type StoredEmail, startSesLocal } from '../../scripts/local/ses-local';

/**
 * A real local SES (aws-ses-v2-local, scripts/local/ses-local.ts) on a free port for this test
 * file, with SES_ENDPOINT pointing at it and a sender address for photo-ready emails. Call
 * before starting anything that sends.
 */
export function useSesEmulator() {
  let ses: RunningSes | undefined;
  beforeAll(async () => {
    ses = await startSesLocal();
    process.env.SES_ENDPOINT = ses.endpoint;
    process.env.PHOTO_NOTICE_FROM ??= 'photos@groupshoot.example';
  });
  afterAll(async () => {
    await ses?.stop();
  });
  const running = () => {
    if (!ses) throw new Error('SES emulator not started');
    return ses;
  };
  return {
    get endpoint() {
      return running().endpoint;
    },
    /** Every email the emulator took so far. */
    emails: () => running().emails(),
    /** The emails sent to this address. */
    async emailsTo(address: string): Promise<StoredEmail[]> {
      return (await running().emails()).filter((email) => email.destination.to.includes(address));
    },
    /** The emails sent to this address, once there are `count` of them or about two seconds passed. */
    async waitForEmailsTo(address: string, count: number): Promise<StoredEmail[]> {
      for (let tries = 0; tries < 100; tries += 1) {
        const emails = await this.emailsTo(address);
        if (emails.length >= count) return emails;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return this.emailsTo(address);
    },
  };
}
