import { now } from '#lib/platform/clock';
import { requireEnv } from '#lib/platform/config';
import { emailParticipantAtMostEvery, photoEmailSender } from '#lib/photos/notices/participant-emails';
import { photoLinkKey } from '#lib/photos/links/photo-links';
import {
  INVITATION_EMAIL_INTERVAL_MS,
  invitationEmailContent,
  invitationUrl,
  signInvitation,
  verifyInvitation,
} from '#lib/checkin/rules/invitation';
import type { GalleryConfiguration, GalleryScope } from '#lib/galleries/rules/gallery-model';
import type { Person } from '#lib/persons/rules/person-model';
import type { Tenant } from '#lib/tenants/store/tenants';
import type { Language } from '#lib/platform/languages';
import { listAllPersons } from '#lib/persons/store/persons';

/**
 * Check-in invitations by email (lib/checkin/rules/invitation.ts): signed with the deployment's
 * link key (PHOTO_LINK_KEY, under their own purpose), sent from PHOTO_NOTICE_FROM, opening
 * CHECKIN_PAGE_URL. A deployment that sends no email cannot invite: its `importedOnly` galleries
 * complete a person imported with an address without an invitation (docs/checkin-page.md#invitations).
 */
export function invitationsRequired(): boolean {
  return photoEmailSender() !== undefined;
}

/** The person a check-in's invitation names in the gallery now; undefined without one, or for one that does not verify. */
export async function invitedPersonId(
  scope: GalleryScope,
  invitation: string | null | undefined,
): Promise<string | undefined> {
  if (!invitation) return undefined;
  return verifyInvitation(
    await photoLinkKey(),
    { tenantId: scope.tenantId, galleryToken: scope.token },
    invitation,
    now(),
  );
}

/** Emails the person a fresh invitation in `language`, at most once per INVITATION_EMAIL_INTERVAL_MS. */
export async function emailInvitation(
  tenant: Tenant,
  configuration: GalleryConfiguration,
  person: Pick<Person, 'personId' | 'name' | 'email'>,
  language: Language,
): Promise<void> {
  const scope = { tenantId: tenant.tenantId, token: configuration.gallery.token };
  await emailParticipantAtMostEvery(
    scope,
    person,
    { throttle: 'invitationEmails', intervalMs: INVITATION_EMAIL_INTERVAL_MS },
    async () => {
      const { invitation, expiresAt } = signInvitation(
        await photoLinkKey(),
        { tenantId: scope.tenantId, galleryToken: scope.token, personId: person.personId },
        now(),
      );
      return invitationEmailContent({
        language,
        personName: person.name,
        galleryName: configuration.gallery.galleryName,
        studioName: tenant.name,
        checkinUrl: invitationUrl(requireEnv('CHECKIN_PAGE_URL'), {
          tenantSlug: tenant.slug,
          galleryToken: scope.token,
          invitation,
        }),
        expiresAt,
      });
    },
  );
}

/** An invitation the studio hands a person imported without an address, who has no mailbox to receive one. */
export interface HandedInvitation {
  personId: string;
  name: string;
  employeeId: string | null;
  /** The check-in page with the invitation, to print (or to send by the studio's own channel). */
  checkinUrl: string;
  expiresAt: string;
}

/**
 * Fresh invitations of the gallery's persons imported without an address who have not checked in
 * yet, opening the page at `checkinPageUrl`. Their employee ID opens nothing (colleagues know it):
 * the invitation, handed to them by the studio, is what completes them.
 */
export async function invitationsToHandOut(
  tenant: Pick<Tenant, 'tenantId' | 'slug'>,
  token: string,
  checkinPageUrl: string,
): Promise<HandedInvitation[]> {
  const scope = { tenantId: tenant.tenantId, token };
  const key = await photoLinkKey();
  const persons = (await listAllPersons(scope)).filter(
    (person) => person.source === 'import' && person.email === null && person.checkedInAt === undefined,
  );
  return persons.map((person) => {
    const { invitation, expiresAt } = signInvitation(
      key,
      { tenantId: tenant.tenantId, galleryToken: token, personId: person.personId },
      now(),
    );
    return {
      personId: person.personId,
      name: person.name,
      employeeId: person.employeeId,
      checkinUrl: invitationUrl(checkinPageUrl, { tenantSlug: tenant.slug, galleryToken: token, invitation }),
      expiresAt,
    };
  });
}
