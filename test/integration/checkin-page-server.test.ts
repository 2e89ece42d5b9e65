import { readFileSync } from 'node:fs';
import { join } from 'node:path';
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
  ])('sends Referrer-Policy: no-referrer with %s', async (_what, path) => {
    const response = await fetch(`${pageBase()}${path}`);
    await response.arrayBuffer();
    expect(response.status).toBe(200);
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it('serves a page that asks for no Referer itself, before it loads anything', () => {
    const html = readFileSync(join(__dirname, '..', '..', 'web', 'index.html'), 'utf8');
    const meta = html.indexOf('<meta name="referrer" content="no-referrer">');
    expect(meta).toBeGreaterThan(-1);
    expect(meta).toBeLessThan(html.search(/<link|<script/));
  });
});
