import { Migration } from '@mikro-orm/migrations';

/**
 * feed_entity_versions.occurred_at is no longer read: the feed merges each entity's events by their versions
 * alone (docs/adr/0016-platform-feed.md), and what a change does to other entities comes as their own events, so
 * no event's time is compared with another's. Dropping a column rewrites no table.
 */
export class Migration20261202000000DropEventTimes extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table feed_entity_versions drop column occurred_at');
  }

  override async down(): Promise<void> {
    this.addSql('alter table feed_entity_versions add column occurred_at timestamptz(3)');
  }
}
