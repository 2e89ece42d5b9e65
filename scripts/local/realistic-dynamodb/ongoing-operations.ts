import type { RequestShape, TouchedItem } from './request-items';

interface Holders {
  transactionWrites: number;
  /** Plain writes and batch writes. */
  writes: number;
}

/**
 * The writes in progress, by item: what a new operation may conflict with (assumptions.ts).
 * An operation holds its items from the moment it is admitted until it is answered.
 */
export class OngoingOperations {
  private readonly byItem = new Map<string, Holders>();

  /** The indexes of the request's items that conflict with an ongoing operation. */
  conflicts(shape: RequestShape): Set<number> {
    const conflicting = new Set<number>();
    for (const item of shape.items) {
      if (this.conflictsAt(shape.conflictRule, item)) conflicting.add(keyOf(shape, item));
    }
    return conflicting;
  }

  private conflictsAt(rule: RequestShape['conflictRule'], item: TouchedItem): boolean {
    const holders = this.byItem.get(item.itemId);
    if (!holders) return false;
    if (rule === 'transactGet') return holders.transactionWrites > 0 || holders.writes > 0;
    return rule !== 'none' && holders.transactionWrites > 0;
  }

  /** Holds the items (all of them, or those of `only`) until the returned release is called. */
  hold(shape: RequestShape, only?: (item: TouchedItem) => boolean): () => void {
    if (shape.conflictRule === 'transactGet' || shape.conflictRule === 'none') return () => {};
    const field = shape.conflictRule === 'transactWrite' ? 'transactionWrites' : 'writes';
    const held = shape.items.filter((item) => !only || only(item));
    for (const item of held) {
      const holders = this.byItem.get(item.itemId) ?? { transactionWrites: 0, writes: 0 };
      holders[field] += 1;
      this.byItem.set(item.itemId, holders);
    }
    return () => {
      for (const item of held) {
        const holders = this.byItem.get(item.itemId)!;
        holders[field] -= 1;
        if (holders.transactionWrites === 0 && holders.writes === 0) this.byItem.delete(item.itemId);
      }
    };
  }
}

/** An item's place in its request: the action index, or a batch position made unique across tables. */
export function keyOf(shape: RequestShape, item: TouchedItem): number {
  return shape.conflictRule === 'batchWrite' ? shape.items.indexOf(item) : item.index;
}
