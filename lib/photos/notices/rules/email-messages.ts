import type { Language } from '#lib/platform/languages';

/**
 * Every sentence of the emails to participants (the photo-ready email and the photo link email),
 * in each language of lib/platform/languages.ts: the one place to translate them. A test fails
 * when a language lacks a message or leaves one empty. The greeting ends its own paragraph, and
 * what follows it starts with a capital letter, as a letter does in each of these languages.
 */
export interface EmailMessages {
  /** The locale dates are written in. */
  locale: string;
  greeting: (name: string) => string;
  noticeSubject: (gallery: string) => string;
  /** Ends with a colon: the link follows on its own line (plain text). */
  photosReady: (gallery: string, studio: string) => string;
  linkSubject: (gallery: string) => string;
  /** Ends with a colon: the link follows on its own line (plain text). */
  linkIntro: (gallery: string, studio: string) => string;
  /** The text of the link in the HTML part. */
  linkText: string;
  linkValidity: (date: string) => string;
  morePhotosMayFollow: string;
  whyThisNotice: string;
  ignoreIfNotAsked: string;
  invitationSubject: (gallery: string) => string;
  /** Ends with a colon: the link follows on its own line (plain text). */
  invitationIntro: (gallery: string, studio: string) => string;
  invitationLinkText: string;
  invitationValidity: (date: string) => string;
  invitationIgnore: string;
  /** Ends with a colon: the one-click unsubscribe link follows on its own line (plain text). */
  unsubscribeLead: string;
  unsubscribeLinkText: string;
}

export const EMAIL_MESSAGES: Record<Language, EmailMessages> = {
  en: {
    locale: 'en-GB',
    greeting: (name) => `Hello ${name},`,
    noticeSubject: (gallery) => `Your photos are ready: ${gallery}`,
    photosReady: (gallery, studio) => `Your photos from ${gallery} (${studio}) are ready. See and download them here:`,
    linkSubject: (gallery) => `Your photo link: ${gallery}`,
    linkIntro: (gallery, studio) => `Here is the link to your photos from ${gallery} (${studio}):`,
    linkText: 'See and download your photos',
    linkValidity: (date) =>
      `This link is yours alone and works until ${date}. After that, ask for a new one on the same page with this email address.`,
    morePhotosMayFollow:
      'More photos may still be added. The same link always shows all of them, and you will not get another email about them.',
    whyThisNotice: 'You get this email because you asked at check-in to be told when your photos are ready.',
    ignoreIfNotAsked: 'If you did not ask for it, you can ignore this email: nobody else gets the link.',
    invitationSubject: (gallery) => `Your check-in link: ${gallery}`,
    invitationIntro: (gallery, studio) =>
      `You are invited to the photo shoot ${gallery} (${studio}). Check in with this link:`,
    invitationLinkText: 'Check in',
    invitationValidity: (date) => `This link is yours alone and works until ${date}.`,
    invitationIgnore:
      'If you did not ask for it, you can ignore this email: nobody can check in in your name without it.',
    unsubscribeLead: 'No more emails about your photos? Unsubscribe with one click:',
    unsubscribeLinkText: 'Unsubscribe',
  },
  de: {
    locale: 'de-DE',
    greeting: (name) => `Guten Tag ${name},`,
    noticeSubject: (gallery) => `Ihre Fotos sind fertig: ${gallery}`,
    photosReady: (gallery, studio) =>
      `Ihre Fotos von ${gallery} (${studio}) sind fertig. Hier können Sie sie ansehen und herunterladen:`,
    linkSubject: (gallery) => `Ihr Link zu Ihren Fotos: ${gallery}`,
    linkIntro: (gallery, studio) => `Hier ist der Link zu Ihren Fotos von ${gallery} (${studio}):`,
    linkText: 'Fotos ansehen und herunterladen',
    linkValidity: (date) =>
      `Dieser Link gilt nur für Sie und ist bis zum ${date} gültig. Danach können Sie auf derselben Seite mit dieser E-Mail-Adresse einen neuen anfordern.`,
    morePhotosMayFollow:
      'Es können noch weitere Fotos hinzukommen. Unter demselben Link sehen Sie immer alle; eine weitere E-Mail dazu erhalten Sie nicht.',
    whyThisNotice:
      'Sie erhalten diese E-Mail, weil Sie beim Check-in darum gebeten haben, benachrichtigt zu werden, sobald Ihre Fotos fertig sind.',
    ignoreIfNotAsked:
      'Falls Sie diesen Link nicht angefordert haben, können Sie diese E-Mail ignorieren: Niemand sonst erhält den Link.',
    invitationSubject: (gallery) => `Ihr Link zum Einchecken: ${gallery}`,
    invitationIntro: (gallery, studio) =>
      `Sie sind zum Fotoshooting ${gallery} (${studio}) eingeladen. Checken Sie mit diesem Link ein:`,
    invitationLinkText: 'Einchecken',
    invitationValidity: (date) => `Dieser Link gilt nur für Sie und ist bis zum ${date} gültig.`,
    invitationIgnore:
      'Falls Sie ihn nicht angefordert haben, können Sie diese E-Mail ignorieren: Ohne den Link kann niemand in Ihrem Namen einchecken.',
    unsubscribeLead: 'Keine E-Mails zu Ihren Fotos mehr? Mit einem Klick abbestellen:',
    unsubscribeLinkText: 'Abbestellen',
  },
  fr: {
    locale: 'fr-FR',
    greeting: (name) => `Bonjour ${name},`,
    noticeSubject: (gallery) => `Vos photos sont prêtes : ${gallery}`,
    photosReady: (gallery, studio) =>
      `Vos photos de ${gallery} (${studio}) sont prêtes. Vous pouvez les voir et les télécharger ici :`,
    linkSubject: (gallery) => `Le lien vers vos photos : ${gallery}`,
    linkIntro: (gallery, studio) => `Voici le lien vers vos photos de ${gallery} (${studio}) :`,
    linkText: 'Voir et télécharger vos photos',
    linkValidity: (date) =>
      `Ce lien vous est personnel et fonctionne jusqu'au ${date}. Ensuite, demandez-en un nouveau sur la même page avec cette adresse e-mail.`,
    morePhotosMayFollow:
      "D'autres photos peuvent encore s'ajouter. Le même lien les affiche toujours toutes, et vous ne recevrez pas d'autre e-mail à leur sujet.",
    whyThisNotice:
      "Vous recevez cet e-mail parce que vous avez demandé, lors de l'enregistrement, à être prévenu quand vos photos seraient prêtes.",
    ignoreIfNotAsked:
      "Si vous ne l'avez pas demandé, vous pouvez ignorer cet e-mail : personne d'autre ne reçoit ce lien.",
    invitationSubject: (gallery) => `Votre lien d'enregistrement : ${gallery}`,
    invitationIntro: (gallery, studio) =>
      `Vous êtes invité(e) à la séance photo ${gallery} (${studio}). Enregistrez-vous avec ce lien :`,
    invitationLinkText: "M'enregistrer",
    invitationValidity: (date) => `Ce lien vous est personnel et fonctionne jusqu'au ${date}.`,
    invitationIgnore:
      "Si vous ne l'avez pas demandé, vous pouvez ignorer cet e-mail : personne ne peut s'enregistrer à votre place sans ce lien.",
    unsubscribeLead: "Plus d'e-mails sur vos photos ? Désabonnez-vous en un clic :",
    unsubscribeLinkText: 'Me désabonner',
  },
};

/** A date (ISO 8601) as the language writes it in a letter, in UTC: "3 December 2026", "3. Dezember 2026", "3 décembre 2026". */
export function dateInWords(isoDate: string, language: Language): string {
  return new Intl.DateTimeFormat(EMAIL_MESSAGES[language].locale, { dateStyle: 'long', timeZone: 'UTC' }).format(
    new Date(isoDate),
  );
}
