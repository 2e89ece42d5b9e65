import { type DeploySettings, cdkContext, mergeSettings } from '../../../scripts/deploy/deploy-settings';

const CERTIFICATE = 'arn:aws:acm:us-east-1:123456789012:certificate/photo-0001';
const SAVED: Partial<DeploySettings> = {
  stackName: 'GroupShoot',
  region: 'eu-central-1',
  account: '123456789012',
  domains: { photoCdn: { domainName: 'photos.studio.example', certificateArn: CERTIFICATE } },
  senderAddress: 'photos@studio.example',
  checkinTenant: 'acme-photo',
  reserveConcurrency: true,
  photoSigningPublicKeyFile: 'infra/keys/photo-signing-public.pem',
};

describe('npm run deploy: the settings of a run', () => {
  it('takes each option as given, else the saved setting, and drops one given as none', () => {
    // Act
    const settings = mergeSettings({ region: 'eu-west-1', 'sender-address': 'none' }, SAVED);

    // Assess
    expect(settings).toEqual(
      expect.objectContaining({
        region: 'eu-west-1',
        account: '123456789012',
        senderAddress: undefined,
        checkinTenant: 'acme-photo',
        domains: SAVED.domains,
      }),
    );
  });

  it('takes the region from AWS_REGION on a first run without --region', () => {
    expect(mergeSettings({}, undefined, { AWS_REGION: 'eu-north-1' }).region).toBe('eu-north-1');
  });

  it.each<[string, Record<string, string>, RegExp]>([
    [
      'a domain without its certificate',
      { 'checkin-domain': 'checkin.studio.example' },
      /--checkin-domain and --checkin-certificate/,
    ],
    ['a certificate without its domain', { 'api-certificate': CERTIFICATE }, /--api-domain and --api-certificate/],
    [
      "the API front's domain without the front",
      { 'api-front-domain': 'api.studio.example', 'api-front-certificate': CERTIFICATE },
      /--api-front-domain needs --api-front-web-acl/,
    ],
  ])('refuses %s', (_case, values, message) => {
    expect(() => mergeSettings(values, SAVED)).toThrow(message);
  });

  it("writes infra/app.ts's context, and turns reservations off only when asked", () => {
    const settings = mergeSettings({ 'without-reserved-concurrency': true }, SAVED) as DeploySettings;
    expect(cdkContext(settings)).toEqual({
      stackName: 'GroupShoot',
      photoSigningPublicKeyFile: 'infra/keys/photo-signing-public.pem',
      checkinTenantSlug: 'acme-photo',
      photoNoticeSender: 'photos@studio.example',
      photoCdnDomainName: 'photos.studio.example',
      photoCdnCertificateArn: CERTIFICATE,
      reserveConcurrency: 'false',
    });
    expect(cdkContext(mergeSettings({}, SAVED) as DeploySettings)).not.toHaveProperty('reserveConcurrency');
  });
});
