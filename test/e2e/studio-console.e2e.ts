import { join } from 'node:path';
import { type Studio, startStudio } from '../../scripts/studio/studio-server';
import { SCREENSHOTS, VIEWPORTS, useCheckinPageBrowser } from '../support/checkin-page-browser';
import { type TestTenant, createTestTenant } from '../support/factories';
import { reviewShoot } from '../support/review-shoot';
import { useTestTable } from '../support/test-table';
import { listPhotos } from '#lib/photos/store/photos';

useTestTable();
const browser = useCheckinPageBrowser();

describe('studio console in Chromium (npm run studio)', () => {
  let tenant: TestTenant;
  let studio: Studio;

  beforeAll(async () => {
    tenant = await createTestTenant();
    studio = await startStudio({ tenant: tenant.slug });
  });

  afterAll(async () => {
    await studio?.close();
  });

  it('opens a review queue from the galleries, releases the withheld photo and assigns an unassigned one by keyboard (typing a code), and the counts follow', async () => {
    // Prepare
    const { shoot, withheld } = await reviewShoot(tenant, { images: 'all' });
    const [first, second] = shoot.persons;
    const page = await browser.newWatchedPage({ viewport: VIEWPORTS.desktop });
    await page.goto(studio.url);
    await page.getByRole('link', { name: 'Shoot' }).click();
    const counts = page.locator('#counts');
    await counts.waitFor();
    // The first thumbnails drawn (globalThis: this project's TypeScript has no DOM types; a string would need eval, which the CSP refuses).
    await page.waitForFunction(() => [...(globalThis as any).document.querySelectorAll('article.photo img')].slice(0, 4).every((image: any) => image.complete && image.naturalWidth > 0));
    await page.screenshot({ path: join(SCREENSHOTS, 'studio-review-desktop.png'), fullPage: false });
    const release = await page.locator('button.release').textContent();
    const countsBefore = await counts.textContent();
    const position = await page.locator('article.photo').evaluateAll((cards, photoId) => cards.findIndex((card) => card.getAttribute('data-photo') === photoId), withheld.facts.photoId);
    // Act
    for (let step = 0; step < position; step += 1) await page.keyboard.press('j');
    await page.keyboard.press('r');
    await page.locator('#counts', { hasText: '0 withheld, 10 unassigned' }).waitFor();
    const assigned = await page.locator('article.photo.current').getAttribute('data-photo');
    await page.keyboard.press('a');
    await page.keyboard.type(second!.code.toLowerCase());
    await page.keyboard.press('Enter');
    await page.locator('#counts', { hasText: '0 withheld, 9 unassigned' }).waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, 'studio-review-after-desktop.png'), fullPage: false });
    // Assess
    expect(countsBefore).toBe('1 withheld, 10 unassigned');
    expect(release).toBe(`Release to Person 0 (${first!.code})`);
    expect((await listPhotos(shoot.scope, first!.personId)).map((photo) => photo.photoId)).toContain(withheld.facts.photoId);
    expect((await listPhotos(shoot.scope, second!.personId)).map((photo) => photo.photoId)).toContain(assigned);
    expect(await page.locator('#status').textContent()).toMatch(new RegExp(`^Assigned .+ to Person 1 \\(${second!.code}\\)$`));
  });
});
