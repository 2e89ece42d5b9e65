import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildOpenApiDocument } from './build-openapi';

/** `npm run openapi`: writes docs/openapi.json, the document npm start also serves at /docs. */
writeFileSync(
  join(__dirname, '..', '..', 'docs', 'openapi.json'),
  `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`,
);
