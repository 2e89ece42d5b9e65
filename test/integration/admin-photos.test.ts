import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { handler as ingestPhoto } from '../../functions/photos/sorting/ingest-photo';
import { getPerson } from '#lib/persons/store/persons';
import { admin } from '../support/admin';
import { createTestTenant } from '../support/factories';
import { makeJpeg, objectCreatedEvent } from '../support/media';
import { useLocalApi } from '../support/local-api';

const api = useLocalApi();

describe('npm run admin -- photo', () => {
  it('uploads a photo for a person, records it once even when the S3 event follows, and lists it', async () => {
    // Prepare
    const studio = await createTestTenant();
    const imported = await api.call(`/groupshoot/${studio.token}/persons`, {
      method: 'POST',
      headers: studio.serverHeaders,
      body: { persons: [{ name: 'Admin Upload' }] },
    });
    const personId = imported.body.persons[0].personId;
    const file = join(mkdtempSync(join(tmpdir(), 'photo-')), 'shot.jpg');
    writeFileSync(file, makeJpeg(120, 80));
    const scope = ['--tenant', studio.slug, '--gallery', studio.token, '--person', personId];
    // Act
    const added = await admin('photo', 'add', ...scope, '--file', file, '--name', 'Team Day 01.jpg', '--json');
    await ingestPhoto(objectCreatedEvent(added.json().objectKey)); // what S3's notification does next
    const listed = await admin('photo', 'list', ...scope, '--json');
    // Assess
    expect(added.code).toBe(0);
    expect(added.json()).toEqual(expect.objectContaining({ outcome: 'recorded', width: 120, height: 80 }));
    expect(listed.json()).toEqual([expect.objectContaining({ fileName: 'Team Day 01.jpg', width: 120, height: 80 })]);
    expect((await getPerson({ tenantId: studio.tenant.tenantId, token: studio.token }, personId))?.photoCount).toBe(1);
    const photos = await api.call(`/groupshoot/${studio.token}/persons/${personId}/photos`, {
      headers: studio.serverHeaders,
    });
    expect((await fetch(photos.body.photos[0].url)).status).toBe(200);
  });

  it.each([
    ['an unknown person', ['--person', 'per_00000000000000000000000000'], 1, /no person/],
    ['a file that is not an image', ['--person', 'P', '--file', 'TEXT'], 2, /not an image/],
    ['a file name with a slash', ['--person', 'P', '--name', 'a/b.jpg'], 2, /--name/],
    ['a file that is not a photo format', ['--person', 'P', '--name', 'notes.txt'], 2, /\.jpg/],
  ])('refuses %s', async (_case, options, code, message) => {
    const studio = await createTestTenant();
    const dir = mkdtempSync(join(tmpdir(), 'photo-'));
    writeFileSync(join(dir, 'ok.jpg'), makeJpeg(8, 8));
    writeFileSync(join(dir, 'text.jpg'), 'not a jpeg');
    const argv = ['--tenant', studio.slug, '--gallery', studio.token, '--file', join(dir, 'ok.jpg'), ...options].map(
      (value) => (value === 'TEXT' ? join(dir, 'text.jpg') : value === 'P' ? 'per_00000000000000000000000000' : value),
    );
    const run = await admin('photo', 'add', ...argv);
    expect(run.code).toBe(code);
    expect(run.err).toEqual([expect.stringMatching(message)]);
  });
});
