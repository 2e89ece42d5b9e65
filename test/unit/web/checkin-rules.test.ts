import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CHECKIN_RULES_FILE, buildCheckinRules } from '../../../scripts/web/checkin-rules';
import { WEB_DIR } from './page-scripts';

describe('web/checkin-rules.js', () => {
  it('is what `npm run web:rules` writes from the server definitions today (run it after changing a limit)', () => {
    expect(readFileSync(join(WEB_DIR, CHECKIN_RULES_FILE), 'utf8')).toBe(buildCheckinRules());
  });
});
