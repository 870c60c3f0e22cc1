import { Migration } from '@mikro-orm/migrations';

/**
 * The platform feed's ledger (FeedLedger port; DESIGN 4a), in the business database beside the data it
 * guards, so that an event's record and its effect commit in one transaction.
 *
 * feed_applied_events: one row per applied event. Its key leads with company_id like every business table
 * (distribution by company later); an event is also claimed under its company, so the unique key that settles
 * two concurrent claims of one id lives on one shard. The same (source, id) sent for two companies is two
 * events, each applied once. The index on applied_at serves the purge, which spans every company.
 *
 * feed_entity_versions: the version applied to each aspect of a vacancy or card (the part of it that one
 * event type sets). A deletion is a row of the reserved aspect '#deleted', holding the deletion's version:
 * recording a deletion removes the entity's other aspects and upserts that row; recording versions removes
 * it. So the versions of an entity, tombstone included, are one index range read, and each write is one
 * statement. Only tombstones are purged (recorded_at, partial index); the aspects of a live entity stay as
 * long as it does, since nothing else can tell a late, older event from a new one.
 */
export class Migration20261125000000FeedLedger extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table feed_applied_events (
      company_id text collate "C" not null,
      source text collate "C" not null,
      event_id text collate "C" not null,
      applied_at timestamptz(3) not null,
      primary key (company_id, source, event_id)
    )`);
    this.addSql('create index feed_applied_events_applied_at_idx on feed_applied_events (applied_at)');

    this.addSql(`create table feed_entity_versions (
      company_id text collate "C" not null,
      entity_kind text collate "C" not null check (entity_kind in ('vacancy', 'candidate')),
      entity_id text collate "C" not null,
      aspect text collate "C" not null,
      version bigint not null,
      recorded_at timestamptz(3) not null,
      primary key (company_id, entity_kind, entity_id, aspect)
    )`);
    this.addSql(`create index feed_entity_versions_tombstones_idx on feed_entity_versions (recorded_at) where aspect = '#deleted'`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table feed_entity_versions');
    this.addSql('drop table feed_applied_events');
  }
}
