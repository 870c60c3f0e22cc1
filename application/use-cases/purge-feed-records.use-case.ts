import type { Clock } from '../ports/clock.port.js';
import type { FeedLedger } from '../ports/feed-ledger.port.js';

const DAY_MS = 86_400_000;

/**
 * Forgets what the feed applied more than `retentionDays` ago: the ids of applied events and the tombstones of
 * deleted entities (FEED_TOMBSTONE_DAYS). An event redelivered after that is still stale by its version,
 * unless it comes after its entity's tombstone is gone: the window the platform's redelivery must stay within.
 */
export class PurgeFeedRecords {
  constructor(
    private readonly ledger: FeedLedger,
    private readonly clock: Clock,
  ) {}

  async execute(command: { readonly retentionDays: number }): Promise<{ events: number; tombstones: number }> {
    // As FEED_TOMBSTONE_DAYS: a fraction of a day would pass `> 0` and purge records a redelivery still needs.
    if (!(Number.isInteger(command.retentionDays) && command.retentionDays >= 1)) throw new RangeError('The feed keeps its records at least a day (a whole number of days).');
    const before = new Date(this.clock.now().getTime() - command.retentionDays * DAY_MS);
    const { events, tombstones } = await this.ledger.purge(before);
    return { events, tombstones };
  }
}
