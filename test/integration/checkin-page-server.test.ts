import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkinPageSecurityHeaders } from '../../infra/checkin-page-headers';
import { useLocalApi } from '../support/local-api';

const api = useLocalApi({ checkinPage: true });
const pageBase = () => api.url.replace(/\/v1$/, '');

describe('the local server of the check-in page', () => {
  it.each([
    ['the page', '/checkin/?tenant=demo-studio&token=abcdefghjkmnpqrs'],
    ['the page under a gallery token in the path', '/checkin/abcdefghjkmnpqrs'],
    ['the page after a checkout', '/checkin/?checkout=success&statusToken=gst_0123456789&token=abcdefghjkmnpqrs'],
    ['its script', '/checkin/checkin.js'],
    ['its style sheet', '/checkin/checkin.css'],
    ['its configuration', '/checkin/config.js'],
  ])('sends Referrer-Policy: no-referrer and the other security headers with %s', async (_what, path) => {
    // Act
    const response = await fetch(`${pageBase()}${path}`);
    await response.arrayBuffer();
    // Assess: the CSP admits this API and the local photo CDN; no HSTS over plain http.
    expect(response.status).toBe(200);
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    const expected = checkinPageSecurityHeaders(
      { apiBaseUrl: api.url, photoCdnUrl: process.env.PHOTO_CDN_URL },
      { https: false },
    );
    for (const [header, value] of Object.entries(expected))
      expect([header, response.headers.get(header)]).toEqual([header, value]);
    expect(response.headers.get('content-security-policy')).toContain(
      `connect-src ${api.url}/ ${process.env.PHOTO_CDN_URL}/;`,
    );
    expect(response.headers.get('strict-transport-security')).toBeNull();
  });

  it('serves a page that asks for no Referer itself, before it loads anything', () => {
    const html = readFileSync(join(__dirname, '..', '..', 'web', 'index.html'), 'utf8');
    const meta = html.search(/<meta name="referrer" content="no-referrer"\s*\/?>/);
    expect(meta).toBeGreaterThan(-1);
    expect(meta).toBeLessThan(html.search(/<link|<script/));
  });
});
