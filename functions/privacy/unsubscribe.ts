import { linkEndpoint } from '#lib/http/endpoint';
import { headerValue } from '#lib/http/json-response';
import { invalidField } from '#lib/platform/domain-error';
import { unsubscribeByLink, unsubscribeView } from '#lib/privacy/unsubscribe';
import { isOneClickBody, unsubscribePage } from '#lib/privacy/rules/unsubscribe-page';

/**
 * GET and POST /unsubscribe/{link}: a notification email's one-click unsubscribe. GET shows the
 * page and changes nothing; POST with `List-Unsubscribe=One-Click` withdraws notificationConsent
 * and answers JSON, or the page again for a browser that asks for HTML (the page's own button).
 */
export const handler = linkEndpoint(
  ['unsubscribePage', 'unsubscribe'],
  async ({ method, pathParameters, rawBody, headers }) => {
    const link = pathParameters.link ?? '';
    if (method === 'GET') return { html: unsubscribePage(await unsubscribeView(link)) };
    if (!isOneClickBody(rawBody, headerValue(headers, 'content-type')))
      throw invalidField('List-Unsubscribe', 'The body must be List-Unsubscribe=One-Click (RFC 8058).');
    const outcome = await unsubscribeByLink(link);
    if (headerValue(headers, 'accept')?.includes('text/html'))
      return { html: unsubscribePage({ ...outcome, done: true }) };
    return { json: { notificationConsent: false, changed: outcome.changed } };
  },
);
