import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SCREENSHOTS, VIEWPORTS, useCheckinPageBrowser } from '../support/checkin-page-browser';
import { type LocalStack, type StudioProcess, startLocalStack, startStudioProcess } from '../support/studio-start';
import type { Page } from 'playwright-core';
import type { listPhotos } from '#lib/photos/common/store/photos';
import type { getPerson } from '#lib/persons/store/persons';
import type { DeclaredIdentity } from '#lib/persons/rules/person-model';
import type { GalleryScope } from '#lib/galleries/rules/gallery-model';
import type { createDelivery, getDelivery } from '#lib/webhooks/store/webhook-deliveries';
import type { runCommand } from '../../scripts/studio/studio-commands';
import type { reviewShoot } from '../support/review-shoot';
import type { createTestTenant } from '../support/factories';

const browser = useCheckinPageBrowser();

/** The first thumbnails drawn (globalThis: this project's TypeScript has no DOM types; a string would need eval, which the CSP refuses). */
/** The galleries page's row of the synthetic shoot (the test tenant has a gallery of its own besides). */
const shootRow = (page: Page) => page.locator('tr', { has: page.getByRole('link', { name: 'Shoot', exact: true }) });

const thumbnailsDrawn = () =>
  [...(globalThis as any).document.querySelectorAll('article.photo img')]
    .slice(0, 4)
    .every((image: any) => image.complete && image.naturalWidth > 0);

describe('studio console in Chromium, against npm start and npm run studio', () => {
  let stack: LocalStack | undefined;
  let studio: StudioProcess | undefined;
  let shoot: Awaited<ReturnType<typeof reviewShoot>>;
  let tables: {
    listPhotos: typeof listPhotos;
    getPerson: typeof getPerson;
    createDelivery: typeof createDelivery;
    getDelivery: typeof getDelivery;
    runCommand: typeof runCommand;
    declare: (scope: GalleryScope, personId: string, declared: DeclaredIdentity) => Promise<unknown>;
  };
  let tenant: Awaited<ReturnType<typeof createTestTenant>>;

  beforeAll(async () => {
    stack = await startLocalStack();
    // Imported once this process reads and writes the table and bucket of that npm start.
    const [
      { createTestTenant },
      { reviewShoot },
      { listPhotos },
      { getPerson },
      { createDelivery, getDelivery },
      { runCommand },
    ] = await Promise.all([
      import('../support/factories'),
      import('../support/review-shoot'),
      import('#lib/photos/common/store/photos'),
      import('#lib/persons/store/persons'),
      import('#lib/webhooks/store/webhook-deliveries'),
      import('../../scripts/studio/studio-commands'),
    ]);
    const [{ UpdateCommand }, { db, tableName }, { keys }] = await Promise.all([
      import('@aws-sdk/lib-dynamodb'),
      import('#lib/platform/table/client'),
      import('../support/table-keys'),
    ]);
    const declare = (scope: GalleryScope, personId: string, declared: DeclaredIdentity) =>
      db.send(
        new UpdateCommand({
          TableName: tableName,
          Key: keys.person(scope.tenantId, scope.token, personId),
          UpdateExpression: 'SET declared = :declared',
          ExpressionAttributeValues: { ':declared': declared },
        }),
      );
    tables = { listPhotos, getPerson, createDelivery, getDelivery, runCommand, declare };
    tenant = await createTestTenant();
    shoot = await reviewShoot(tenant, { images: 'all' });
    studio = await startStudioProcess(tenant.slug, stack.dataDir);
  }, 180_000);

  afterAll(async () => {
    await studio?.stop();
    await stack?.stop();
  }, 30_000);

  it("opens the review queue of a synthetic shoot from the galleries, shows the reference beside the withheld photo, releases it, assigns an unassigned one and marks another nobody's by keyboard, and the counts follow", async () => {
    // Prepare
    const [first, second] = shoot.shoot.persons;
    const page = await browser.newWatchedPage({ viewport: VIEWPORTS.desktop });
    await page.goto(studio!.url);
    await shootRow(page).locator('td.stats .photo-counts').waitFor();
    const photoCounts = await shootRow(page).locator('td.stats .photo-counts').textContent();
    await page.screenshot({ path: join(SCREENSHOTS, 'studio-galleries-desktop.png'), fullPage: false });
    await page.getByRole('link', { name: 'Shoot' }).click();
    const counts = page.locator('#counts');
    await counts.waitFor();
    await page.waitForFunction(thumbnailsDrawn);
    await page.waitForFunction(() =>
      [...(globalThis as any).document.querySelectorAll('figure.reference img')].every(
        (image: any) => image.complete && image.naturalWidth > 0,
      ),
    );
    await page.locator(`article[data-photo="${shoot.withheld.facts.photoId}"]`).scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SCREENSHOTS, 'studio-review-desktop.png'), fullPage: false });
    const release = await page.locator('button.release').textContent();
    const withheldCard = page.locator(`article[data-photo="${shoot.withheld.facts.photoId}"]`);
    const reference = await withheldCard.locator('figure.reference:not(.card-photo) figcaption').textContent();
    const cardCaption = await withheldCard.locator('figure.card-photo figcaption').textContent();
    const countsBefore = await counts.textContent();
    const position = await page
      .locator('article.photo')
      .evaluateAll(
        (cards, photoId) => cards.findIndex((card) => card.getAttribute('data-photo') === photoId),
        shoot.withheld.facts.photoId,
      );
    // Act
    for (let step = 0; step < position; step += 1) await page.keyboard.press('j');
    await page.keyboard.press('r');
    await page.locator('#counts', { hasText: '0 withheld, 10 unassigned' }).waitFor();
    const assigned = await page.locator('article.photo.current').getAttribute('data-photo');
    await page.keyboard.press('a');
    await page.keyboard.type(second!.code.toLowerCase());
    await page.keyboard.press('Enter');
    await page.locator('#counts', { hasText: '0 withheld, 9 unassigned' }).waitFor();
    const assignedStatus = await page.locator('#status').textContent();
    const dismissed = await page.locator('article.photo.current').getAttribute('data-photo');
    await page.keyboard.press('n');
    await page.locator('#counts', { hasText: '0 withheld, 8 unassigned' }).waitFor();
    const dismissedStatus = await page.locator('#status').textContent();
    await page.screenshot({ path: join(SCREENSHOTS, 'studio-review-after-desktop.png'), fullPage: false });
    // Assess
    expect(photoCounts).toMatch(/^\d+ assigned, 10 unassigned, 1 withheld$/);
    expect(countsBefore).toBe('1 withheld, 10 unassigned');
    expect(release).toBe(`Release to Person 0 (${first!.code})`);
    expect(reference).toBe(`Person 0 (${first!.code}): first photo`);
    expect(cardCaption).toBe(`Card ${first!.code}`);
    expect((await tables.listPhotos(shoot.shoot.scope, first!.personId)).map((photo) => photo.photoId)).toContain(
      shoot.withheld.facts.photoId,
    );
    expect((await tables.listPhotos(shoot.shoot.scope, second!.personId)).map((photo) => photo.photoId)).toContain(
      assigned,
    );
    expect(assignedStatus).toMatch(new RegExp(`^Assigned .+ to Person 1 \\(${second!.code}\\)$`));
    expect(dismissedStatus).toMatch(/^Marked .+ as nobody's$/);
    expect(dismissed).not.toBe(assigned);
    expect(await page.locator(`article[data-photo="${dismissed}"]`).count()).toBe(0);
    for (const person of [first!, second!])
      expect((await tables.listPhotos(shoot.shoot.scope, person.personId)).map((photo) => photo.photoId)).not.toContain(
        dismissed,
      );
  });

  it('prints the camera cards of a gallery as a PDF download, and the galleries page shows the printing', async () => {
    // Prepare
    const page = await browser.newWatchedPage({ viewport: VIEWPORTS.desktop, acceptDownloads: true });
    await page.goto(studio!.url);
    // Act
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      shootRow(page).getByRole('link', { name: 'Cards (PDF)' }).click(),
    ]);
    const file = await download.path();
    await page.reload();
    const printed = await shootRow(page).locator('td.links .printed').textContent();
    // Assess
    expect(download.suggestedFilename()).toBe(`cards-${shoot.shoot.scope.token}.pdf`);
    expect(readFileSync(file).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(printed).toMatch(/^ 2 printed \d{4}-\d\d-\d\d$/);
  });

  it("opens a person from the gallery's persons, picks a photo for HR, and erases the person with the dry run, a confirmation naming them and the CLI's receipt", async () => {
    // Prepare
    const second = shoot.shoot.persons[1]!;
    const page = await browser.newWatchedPage({ viewport: VIEWPORTS.desktop });
    await page.goto(studio!.url);
    await shootRow(page).getByRole('link', { name: 'Persons' }).click();
    await page.getByRole('link', { name: 'Person 1' }).click();
    await page.locator('article.photo').first().waitFor();
    await page.waitForFunction(thumbnailsDrawn);
    // Act
    await page.locator('article.photo').last().getByRole('button', { name: 'Pick for HR' }).click();
    await page.locator('article.photo.picked').last().waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, 'studio-person-desktop.png'), fullPage: false });
    const picked = await page.locator('article.photo.picked').getAttribute('data-photo');
    const pickedInTable = (await tables.getPerson(shoot.shoot.scope, second.personId))!.pickedPhotoId;
    await page.getByRole('button', { name: 'Erase Person 1…' }).click();
    const dryRun = await page.locator('pre.receipt').textContent();
    await page.keyboard.type('Person 0');
    await page.getByRole('button', { name: 'Erase Person 1', exact: true }).click();
    await page.locator('#status', { hasText: 'Type the name' }).waitFor();
    const refusal = await page.locator('#status').textContent();
    const stillThere = await tables.getPerson(shoot.shoot.scope, second.personId);
    await page.locator('#erase-confirm').fill('Person 1');
    await page.screenshot({ path: join(SCREENSHOTS, 'studio-erase-confirm-desktop.png'), fullPage: false });
    await page.getByRole('button', { name: 'Erase Person 1', exact: true }).click();
    await page.locator('#erase-receipt').waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, 'studio-erase-receipt-desktop.png'), fullPage: false });
    // Assess
    expect(picked).toBe(pickedInTable);
    expect(dryRun).toMatch(/^Would remove for .+ \(dry run: nothing was changed\)/);
    expect(refusal).toMatch(/Type the name of the person to erase \("Person 1"\)/);
    expect(stillThere).toBeDefined();
    expect(await page.locator('#erase-receipt').textContent()).toMatch(/^Removed for [\s\S]+photo records\s+\d+/);
    expect(await tables.getPerson(shoot.shoot.scope, second.personId)).toBeUndefined();
  });

  it("shows what an imported person declared at their check-in beside HR's identity, in the persons and on their page", async () => {
    // Prepare: the first person's own check-in typed another name and employee ID (what completedPerson keeps as declared)
    const first = shoot.shoot.persons[0]!;
    await tables.declare(shoot.shoot.scope, first.personId, { name: 'Ivy Typed', employeeId: 'E-11' });
    const page = await browser.newWatchedPage({ viewport: VIEWPORTS.desktop });
    await page.goto(studio!.url);
    // Act
    await shootRow(page).getByRole('link', { name: 'Persons' }).click();
    const row = page.locator('tr', { has: page.getByRole('link', { name: 'Person 0', exact: true }) });
    const listed = await row.locator('td').last().textContent();
    const others = await page.locator('tbody tr td:last-child').allTextContents();
    await row.getByRole('link', { name: 'Person 0', exact: true }).click();
    const onPage = await page.locator('p.declared').textContent();
    // Assess
    expect(listed).toBe('name "Ivy Typed", employee ID E-11');
    expect(others.filter(Boolean)).toEqual([listed]);
    expect(onPage).toMatch(/^Declared at check-in, beside what HR imported .*: name "Ivy Typed", employee ID E-11$/);
    expect(await page.getByRole('heading', { name: /^Person 0 / }).count()).toBe(1);
  });

  it("lists the webhook subscriptions, opens one's deliveries with their outcome, and replays the failed ones", async () => {
    // Prepare: a subscription whose endpoint nothing answers, and a failed delivery of it.
    const { subscriptionId } = (await tables.runCommand('webhook', 'add', {
      tenant: tenant.slug,
      url: 'http://localhost:9/hooks',
      events: 'person.created',
    })) as { subscriptionId: string };
    const at = new Date().toISOString();
    await tables.createDelivery({
      tenantId: tenant.tenant.tenantId,
      subscriptionId,
      eventId: 'evt_studio_e2e',
      eventType: 'person.created',
      galleryToken: shoot.shoot.scope.token,
      status: 'failed',
      createdAt: at,
      attempts: 1,
      roundFailures: 1,
      nextAttemptAt: Date.now(),
      attemptLog: [{ attempt: 1, at, durationMs: 20, statusCode: 500, failure: 'http_status' }],
    });
    const page = await browser.newWatchedPage({ viewport: VIEWPORTS.desktop });
    await page.goto(studio!.url);
    // Act
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('link', { name: 'http://localhost:9/hooks' }).click();
    const row = page.locator('tr[data-event="evt_studio_e2e"]');
    const outcome = await row.textContent();
    await page.screenshot({ path: join(SCREENSHOTS, 'studio-webhook-deliveries-desktop.png'), fullPage: false });
    await page.getByRole('button', { name: 'Replay the failed ones' }).click();
    await page.locator('#status', { hasText: 'Replay of the failed deliveries requested (1)' }).waitFor();
    // Assess
    expect(outcome).toMatch(/person\.created\s*failed\s*1\s*http_status 500/);
    expect((await tables.getDelivery(tenant.tenant.tenantId, subscriptionId, 'evt_studio_e2e'))!.status).not.toBe(
      'failed',
    );
  });
});
