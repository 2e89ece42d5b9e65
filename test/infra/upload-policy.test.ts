import { uploadPolicy } from '../../scripts/photos/upload-policy';
import { allowsOnBucket } from './iam-evaluation';

const TENANT = 'ten_01jd0000000000000000000000';
const OTHER = 'ten_01jd9999999999999999999999';
const BUCKET = 'groupshoot-media';
const object = (key: string) => `arn:aws:s3:::${BUCKET}/${key}`;

describe('npm run photos -- iam-policy: the direct S3 upload policy', () => {
  const statements = uploadPolicy(TENANT, BUCKET).Statement;

  it.each(['s3:PutObject', 's3:AbortMultipartUpload', 's3:ListMultipartUploadParts'])(
    "allows %s below the tenant's photos folder",
    (action) => {
      expect(
        allowsOnBucket(statements, { action, resource: object(`photos/${TENANT}/gal_token/inbox/cam-a/IMG_0001.JPG`) }),
      ).toBe(true);
    },
  );

  it("lists the tenant's own photos folder only", () => {
    const list = (prefix?: string) =>
      allowsOnBucket(statements, { action: 's3:ListBucket', resource: `arn:aws:s3:::${BUCKET}`, prefix });
    expect(list(`photos/${TENANT}/gal_token/inbox/`)).toBe(true);
    expect(list(`photos/${OTHER}/`)).toBe(false);
    expect(list('photos/')).toBe(false);
    expect(list(undefined)).toBe(false);
  });

  it.each<[string, string]>([
    ["another tenant's inbox", object(`photos/${OTHER}/gal_token/inbox/IMG.jpg`)],
    ['a tenant whose ID starts alike', object(`photos/${TENANT}x/gal_token/inbox/IMG.jpg`)],
    ['selfies', object(`selfies/${TENANT}/gal_token/per_x.jpg`)],
    ['another bucket', `arn:aws:s3:::other-bucket/photos/${TENANT}/IMG.jpg`],
  ])('allows nothing on %s', (_case, resource) => {
    for (const action of ['s3:PutObject', 's3:GetObject', 's3:DeleteObject'])
      expect(allowsOnBucket(statements, { action, resource })).toBe(false);
  });

  it('reads no photo and touches no table', () => {
    expect(
      allowsOnBucket(statements, {
        action: 's3:GetObject',
        resource: object(`photos/${TENANT}/gal_token/inbox/IMG.jpg`),
      }),
    ).toBe(false);
    for (const action of ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:Scan', 'dynamodb:PutItem']) {
      expect(
        allowsOnBucket(statements, { action, resource: 'arn:aws:dynamodb:eu-central-1:123456789012:table/groupshoot' }),
      ).toBe(false);
    }
    expect(JSON.stringify(statements)).not.toMatch(/dynamodb|\*"\s*,?\s*"Resource": "\*"/);
  });
});

describe('npm run photos -- iam-policy --gallery: the policy to hand a freelancer', () => {
  const TOKEN = 'n9v9wd7vm8h9uu9v';
  const OTHER_TOKEN = 'hpfvwks795s6wvs8';
  const PERSON = 'per_01m6r25xbrbjvqqh90ejd3y8jz';
  const oneGallery = uploadPolicy(TENANT, BUCKET, TOKEN).Statement;
  const everyInbox = uploadPolicy(TENANT, BUCKET).Statement;
  const put = (statements: typeof oneGallery, key: string) =>
    allowsOnBucket(statements, { action: 's3:PutObject', resource: object(key) });

  it.each(['s3:PutObject', 's3:AbortMultipartUpload', 's3:ListMultipartUploadParts'])(
    "allows %s in the gallery's inbox, a camera folder included",
    (action) => {
      expect(
        allowsOnBucket(oneGallery, { action, resource: object(`photos/${TENANT}/${TOKEN}/inbox/IMG_0001.JPG`) }),
      ).toBe(true);
      expect(
        allowsOnBucket(oneGallery, { action, resource: object(`photos/${TENANT}/${TOKEN}/inbox/cam-a/IMG_0001.JPG`) }),
      ).toBe(true);
    },
  );

  it.each<[string, string]>([
    ["a person's folder of the gallery", `photos/${TENANT}/${TOKEN}/${PERSON}/IMG_0001.JPG`],
    ["another gallery's inbox", `photos/${TENANT}/${OTHER_TOKEN}/inbox/IMG_0001.JPG`],
    ["a person's folder of another gallery", `photos/${TENANT}/${OTHER_TOKEN}/${PERSON}/IMG_0001.JPG`],
    ['a gallery whose token starts alike', `photos/${TENANT}/${TOKEN}x/inbox/IMG_0001.JPG`],
    ['beside the inbox folder', `photos/${TENANT}/${TOKEN}/inbox-old/IMG_0001.JPG`],
    ["another tenant's gallery of the same token", `photos/${OTHER}/${TOKEN}/inbox/IMG_0001.JPG`],
    ['selfies', `selfies/${TENANT}/${TOKEN}/${PERSON}.jpg`],
  ])('allows nothing in %s', (_case, key) => {
    expect(put(oneGallery, key)).toBe(false);
  });

  it("lists the gallery's inbox only", () => {
    const list = (statements: typeof oneGallery, prefix: string) =>
      allowsOnBucket(statements, { action: 's3:ListBucket', resource: `arn:aws:s3:::${BUCKET}`, prefix });
    expect(list(oneGallery, `photos/${TENANT}/${TOKEN}/inbox/`)).toBe(true);
    expect(list(oneGallery, `photos/${TENANT}/${TOKEN}/`)).toBe(false);
    expect(list(oneGallery, `photos/${TENANT}/${OTHER_TOKEN}/inbox/`)).toBe(false);
  });

  it("without --gallery allows every gallery's inbox of the tenant, but still no person's folder", () => {
    expect(put(everyInbox, `photos/${TENANT}/${TOKEN}/inbox/IMG_0001.JPG`)).toBe(true);
    expect(put(everyInbox, `photos/${TENANT}/${OTHER_TOKEN}/inbox/cam-b/IMG_0001.JPG`)).toBe(true);
    expect(put(everyInbox, `photos/${TENANT}/${TOKEN}/${PERSON}/IMG_0001.JPG`)).toBe(false);
    expect(put(everyInbox, `photos/${OTHER}/${TOKEN}/inbox/IMG_0001.JPG`)).toBe(false);
  });
});
