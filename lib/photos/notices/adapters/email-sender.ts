import type { SESv2Client } from '@aws-sdk/client-sesv2';
import { optionalEnv } from '#lib/platform/config';

/**
 * Outgoing email through Amazon SES (API v2). SES_ENDPOINT points the client at a local SES
 * emulator (aws-ses-v2-local, which `npm start` runs); tests may install a sender of their own
 * (useEmailSender).
 */

export interface OutgoingEmail {
  /** The sender address, a verified SES identity (or an address of a verified domain). */
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Headers of its own (List-Unsubscribe), sent as SES v2 Simple content's Headers. */
  headers?: readonly { name: string; value: string }[];
}

/** What became of an email: accepted by SES, or refused for good (retrying would be refused again). */
export type EmailOutcome = { outcome: 'sent'; messageId: string } | { outcome: 'rejected'; reason: string };

export interface EmailSender {
  /** Throws where the failure may pass (throttling, SES unavailable, a network error): the caller retries. */
  send(email: OutgoingEmail): Promise<EmailOutcome>;
}

/**
 * SES errors about this one message: an address SES will not send to, content it refuses. A
 * retry is refused again. Everything else (throttling, a paused account, an unverified sender,
 * a server error) may pass and is thrown.
 */
const REJECTIONS = new Set(['MessageRejected', 'BadRequestException']);

let installed: EmailSender | undefined;

/** Replaces the SES sender (tests); undefined goes back to SES. */
export function useEmailSender(sender: EmailSender | undefined): void {
  installed = sender;
}

/**
 * The sender in use: SES unless another was installed. Made on first use, so SES_ENDPOINT may be
 * set after loading; the SES client is loaded with the first email, which most requests of the
 * functions that may send one (a check-in, a photo lookup) never send: loading it costs cold-start time.
 */
export function emailSender(): EmailSender {
  return (installed ??= sesEmailSender(
    import('@aws-sdk/client-sesv2').then(
      ({ SESv2Client }) =>
        new SESv2Client({
          endpoint: optionalEnv('SES_ENDPOINT'),
          maxAttempts: 3,
          requestHandler: { socketTimeout: 5000 },
        }),
    ),
  ));
}

/** A sender on this SES client (or the client once it is loaded). */
export function sesEmailSender(client: SESv2Client | Promise<SESv2Client>): EmailSender {
  return {
    async send(email) {
      const [{ SendEmailCommand }, ses] = await Promise.all([import('@aws-sdk/client-sesv2'), client]);
      try {
        const { MessageId } = await ses.send(
          new SendEmailCommand({
            FromEmailAddress: email.from,
            Destination: { ToAddresses: [email.to] },
            Content: {
              Simple: {
                Subject: { Data: email.subject, Charset: 'UTF-8' },
                Body: { Text: { Data: email.text, Charset: 'UTF-8' }, Html: { Data: email.html, Charset: 'UTF-8' } },
                ...(email.headers?.length
                  ? { Headers: email.headers.map((header) => ({ Name: header.name, Value: header.value })) }
                  : {}),
              },
            },
          }),
        );
        return { outcome: 'sent', messageId: MessageId ?? '' };
      } catch (error) {
        if (REJECTIONS.has((error as Error).name)) return { outcome: 'rejected', reason: (error as Error).name };
        throw error;
      }
    },
  };
}
