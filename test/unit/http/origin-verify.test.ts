import { originVerify } from '#lib/http/origin-verify';
import { apiEvent, apiRequest, runBefore } from './request-builders';

/** With the API front on, CloudFront's secret (ORIGIN_VERIFY_SECRET locally, its ARN in AWS) must come with every request. */
describe('originVerify', () => {
  afterEach(() => {
    delete process.env.ORIGIN_VERIFY_SECRET;
  });

  const withHeader = (value?: string) =>
    apiRequest(apiEvent({ headers: value === undefined ? {} : { 'x-origin-verify': value } }));

  it('checks nothing when no front is configured', async () => {
    await expect(runBefore(originVerify(), withHeader())).resolves.toBeUndefined();
  });

  it('admits a request that carries the secret', async () => {
    process.env.ORIGIN_VERIFY_SECRET = 'front-secret-value';
    await expect(runBefore(originVerify(), withHeader('front-secret-value'))).resolves.toBeUndefined();
  });

  it.each([
    ['no header', undefined],
    ['another value', 'front-secret-valuf'],
    ['a longer value', 'front-secret-value-and-more'],
    ['an empty value', ''],
  ])('refuses a request with %s as 403 direct_access_forbidden', async (_case, value) => {
    process.env.ORIGIN_VERIFY_SECRET = 'front-secret-value';
    await expect(runBefore(originVerify(), withHeader(value))).rejects.toMatchObject({
      code: 'direct_access_forbidden',
      status: 403,
    });
  });
});
