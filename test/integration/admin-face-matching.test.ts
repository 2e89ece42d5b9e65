import { createGallery, getGalleryConfiguration } from '#lib/galleries/store/galleries';
import { DEFAULT_FACE_THRESHOLDS } from '#lib/galleries/rules/face-matching';
import { admin } from '../support/admin';
import { type TestTenant, createTestTenant } from '../support/factories';
import { useTestTable } from '../support/test-table';

useTestTable();

describe('gallery face-matching (admin CLI)', () => {
  let studio: TestTenant;
  const faceMatching = (token: string, ...options: string[]) =>
    admin('gallery', 'face-matching', '--tenant', studio.slug, '--gallery', token, ...options);
  const storedSettings = async (token: string) => {
    const { gallery } = (await getGalleryConfiguration(studio.tenant.tenantId, token))!;
    return { faceMatching: gallery.faceMatching, faceThresholds: gallery.faceThresholds };
  };

  beforeEach(async () => {
    studio = await createTestTenant();
  });

  it('shows withhold and the default distances on a gallery whose check-in asks for face consent', async () => {
    // Act
    const json = await faceMatching(studio.token, '--json');
    const text = await faceMatching(studio.token);
    // Assess
    expect(json.code).toBe(0);
    expect(json.json()).toEqual({ mode: 'withhold', thresholds: DEFAULT_FACE_THRESHOLDS });
    expect(text.out).toMatch(new RegExp(`^Face matching of gallery ${studio.token}: withhold$`, 'm'));
    expect(text.out).toMatch(/match\s+0\.50\s+at most this far/);
    expect(text.out).toMatch(
      new RegExp(`mismatch\\s+${DEFAULT_FACE_THRESHOLDS.mismatch.toFixed(2)}\\s+at least this far`),
    );
    expect(await storedSettings(studio.token)).toEqual({ faceMatching: undefined, faceThresholds: undefined });
  });

  it('shows off on a gallery whose check-in does not ask for face consent, and says why', async () => {
    // Prepare
    const gallery = await createGallery(studio.tenant.tenantId, {
      galleryName: 'Without face consent',
      isGroupShoot: true,
      selfieEnabled: true,
      selfieRequired: false,
      consentRequired: false,
      showShootingDaySelector: false,
      granularConsents: { face: false, notification: false, hrExport: false },
    });
    // Act
    const json = await faceMatching(gallery.token, '--json');
    const text = await faceMatching(gallery.token);
    // Assess
    expect(json.json()).toEqual({ mode: 'off', thresholds: DEFAULT_FACE_THRESHOLDS });
    expect(text.out).toMatch(/: off \(the check-in does not ask for face consent, so nobody has a reference face\)/);
  });

  it('sets the mode and the distances it is given, and keeps the others', async () => {
    // Act
    const first = await faceMatching(studio.token, '--mode', 'fill', '--match', '0.45', '--margin', '0.15', '--json');
    const second = await faceMatching(studio.token, '--fill', '0.35');
    // Assess
    expect(first.code).toBe(0);
    expect(first.json()).toEqual({
      mode: 'fill',
      thresholds: { ...DEFAULT_FACE_THRESHOLDS, match: 0.45, margin: 0.15 },
    });
    expect(second.code).toBe(0);
    expect(second.out).toMatch(/: fill$/m);
    expect(second.out).toMatch(/match\s+0\.45/);
    expect(second.out).toMatch(/fill\s+0\.35/);
    expect(await storedSettings(studio.token)).toEqual({
      faceMatching: 'fill',
      faceThresholds: { match: 0.45, margin: 0.15, fill: 0.35 },
    });
  });

  it('goes back to the default distances with --defaults, keeping the mode', async () => {
    // Prepare
    await faceMatching(studio.token, '--mode', 'off', '--mismatch', '0.7');
    // Act
    const run = await faceMatching(studio.token, '--defaults', '--json');
    // Assess
    expect(run.code).toBe(0);
    expect(run.json()).toEqual({ mode: 'off', thresholds: DEFAULT_FACE_THRESHOLDS });
    expect((await storedSettings(studio.token)).faceMatching).toBe('off');
  });

  it.each([
    [['--match', '2.5'], /--match must be a distance between 0 and 2/],
    [['--mismatch', 'far'], /--mismatch must be a distance between 0 and 2/],
    [['--fill=-0.1'], /--fill must be a distance between 0 and 2/],
    [['--match', '0.7', '--mismatch', '0.6'], /--match must be at most --mismatch/],
    [['--match', '0.65'], /--match must be at most --mismatch/],
    [['--mode', 'sometimes'], /--mode "sometimes" is not valid: use one of off, withhold, fill/],
    [['--defaults', '--match', '0.4'], /either --defaults or distances/],
  ])('refuses %j as a usage error, changing nothing', async (options, message) => {
    // Act
    const run = await faceMatching(studio.token, ...options);
    // Assess
    expect([run.code, run.err.join('\n')]).toEqual([2, expect.stringMatching(message)]);
    expect(await storedSettings(studio.token)).toEqual({ faceMatching: undefined, faceThresholds: undefined });
  });

  it('refuses a gallery the tenant does not have (exit 1)', async () => {
    const run = await faceMatching('zzzzzzzzzzzzzzzz', '--mode', 'off');
    expect(run.code).toBe(1);
  });
});
