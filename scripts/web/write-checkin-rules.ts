import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CHECKIN_RULES_FILE, buildCheckinRules } from './checkin-rules';

/** `npm run web:rules`: writes web/checkin-rules.js, the page's copy of the server's limits. */
writeFileSync(join(__dirname, '..', '..', 'web', CHECKIN_RULES_FILE), buildCheckinRules());
