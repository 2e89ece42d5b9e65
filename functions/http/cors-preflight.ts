import { corsPreflight } from '#lib/http/endpoint';

/** OPTIONS on the public paths: the CORS preflight of browsers on tenants' check-in pages. */
export const handler = corsPreflight();
