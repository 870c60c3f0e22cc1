import { Migration } from '@mikro-orm/migrations';

/**
 * feed_entity_versions.occurred_at: the platform's time of the change a row keeps the version of (the event's
 * `time`), where it matters: a tombstone's (when the entity was deleted) and the floor that an entity made again
 * after a deletion keeps (the same deletion's). A card added to, a transfer to or an application to a vacancy
 * whose deletion was applied is placed by it: made before the deletion, it is left as the deletion left the
 * vacancy's cards, whatever arrived first (docs/adr/0016-platform-feed.md). Null for every other row, and for an
 * event without a time. A nullable column without a default: no table rewrite.
 */
export class Migration20261129000000DeletionTimes extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table feed_entity_versions add column occurred_at timestamptz(3)');
  }

  override async down(): Promise<void> {
    this.addSql('alter table feed_entity_versions drop column occurred_at');
  }
}
