import { listGalleriesPage } from '#lib/galleries/store/galleries';
import { listTenants } from '#lib/tenants/store/tenants';
import { type RetentionMessage, retentionQueues } from '#lib/privacy/adapters/retention-queues';

/**
 * The planner of the daily retention run: it walks every tenant's galleries a page at a time and
 * queues one message per gallery (lib/privacy/retain-queued-galleries.ts applies each), so that
 * no gallery's size or failure holds up another. It checks its time before each page; when
 * `keepGoing` says stop, it queues a continuation with its position (a cursor) instead, and the
 * planner run that takes it up starts from there: a run cut off never starts over, nor starves
 * the galleries at the end.
 */

/** Galleries read and queued per step (one Query of a tenant's galleries). */
export const RETENTION_PLAN_PAGE = 100;

/** Where the planner stands: the tenant it is at (tenants go in ID order) and the key after its last gallery queued. */
interface PlanPosition {
  tenantId: string;
  galleryKey?: Record<string, unknown>;
}

export interface PlanOutcome {
  galleriesQueued: number;
  /** Whether the planner stopped early and queued its continuation. */
  continued: boolean;
}

export interface PlanOptions {
  /** Where an earlier run left off (a continuation's cursor); from the first tenant when absent. */
  cursor?: string;
  /** Asked before each page; false cuts the run off with a continuation. */
  keepGoing: () => boolean;
  pageSize?: number;
}

export async function planRetention({
  cursor,
  keepGoing,
  pageSize = RETENTION_PLAN_PAGE,
}: PlanOptions): Promise<PlanOutcome> {
  const from = cursor === undefined ? undefined : decodeCursor(cursor);
  const tenantIds = (await listTenants()).map((tenant) => tenant.tenantId).sort();
  let galleriesQueued = 0;
  for (const tenantId of tenantIds.filter((id) => from === undefined || id >= from.tenantId)) {
    let galleryKey = tenantId === from?.tenantId ? from.galleryKey : undefined;
    do {
      if (!keepGoing()) {
        await retentionQueues().send([{ kind: 'plan', cursor: encodeCursor({ tenantId, galleryKey }) }]);
        return { galleriesQueued, continued: true };
      }
      const page = await listGalleriesPage(tenantId, galleryKey, pageSize);
      const messages: RetentionMessage[] = page.galleries.map((gallery) => ({
        kind: 'gallery',
        tenantId,
        token: gallery.token,
      }));
      await retentionQueues().send(messages);
      galleriesQueued += messages.length;
      galleryKey = page.nextKey;
    } while (galleryKey !== undefined);
  }
  return { galleriesQueued, continued: false };
}

function encodeCursor(position: PlanPosition): string {
  return Buffer.from(JSON.stringify(position), 'utf8').toString('base64url');
}

/** The position a cursor names; a cursor that is not one of ours is refused, not read as "from the start". */
function decodeCursor(cursor: string): PlanPosition {
  const position = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Partial<PlanPosition>;
  if (
    typeof position.tenantId !== 'string' ||
    (position.galleryKey !== undefined && typeof position.galleryKey !== 'object')
  ) {
    throw new Error('Not a retention plan cursor');
  }
  return position as PlanPosition;
}
