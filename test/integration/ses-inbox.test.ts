import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { sesEmailSender } from '#lib/photos/notices/adapters/email-sender';
import { COLLAPSED_TEXT_VIEW } from '../../scripts/local/ses-local';
import { useSesEmulator } from '../support/ses';

/** The local SES's inbox page (scripts/local/ses-local.ts): the emulator's own, with each email's text open. */
const ses = useSesEmulator();

describe('the local SES inbox', () => {
  it("serves the emulator's page with each email's text view open, and the emulator's API as before", async () => {
    // Prepare
    const packagePage = readFileSync(
      join(dirname(require.resolve('aws-ses-v2-local')), '..', 'static', 'index.html'),
      'utf8',
    );
    const sender = sesEmailSender(
      new SESv2Client({
        endpoint: ses.endpoint,
        region: 'eu-central-1',
        credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      }),
    );
    // Act
    const page = await fetch(`${ses.endpoint}/`);
    const html = await page.text();
    const sent = await sender.send({
      from: 'photos@groupshoot.example',
      to: 'juergen@example.com',
      subject: 'Ihre Fotos sind fertig',
      text: 'Guten Tag Jürgen Müller,\n\nIhre Fotos …',
      html: '<p>…</p>',
    });
    // Assess: the package still writes its text view collapsed (else this change has nothing left to do), the page served does not
    expect(packagePage).toContain(COLLAPSED_TEXT_VIEW);
    expect([page.status, page.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
    expect(html).not.toContain(COLLAPSED_TEXT_VIEW);
    expect(html).toContain('<div class="email-text" id="${e.messageId}-text">');
    expect(sent.outcome).toBe('sent');
    expect((await ses.emailsTo('juergen@example.com')).map((email) => email.body.text)).toEqual([
      'Guten Tag Jürgen Müller,\n\nIhre Fotos …',
    ]);
  });
});
