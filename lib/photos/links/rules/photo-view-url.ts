/**
 * The participant's photo view on the check-in page: the page's address with the tenant and
 * gallery token, opening the "My photos" view, with a photo link in the fragment
 * (`#my-photos/link/<photoLink>`) where one is given. The one place that knows this form.
 */
export function photoViewUrl(
  checkinPageUrl: string,
  address: { tenantSlug: string; galleryToken: string; photoLink?: string },
): string {
  const url = new URL(checkinPageUrl);
  url.searchParams.set('tenant', address.tenantSlug);
  url.searchParams.set('token', address.galleryToken);
  url.hash = address.photoLink === undefined ? 'my-photos' : `my-photos/link/${address.photoLink}`;
  return url.toString();
}
