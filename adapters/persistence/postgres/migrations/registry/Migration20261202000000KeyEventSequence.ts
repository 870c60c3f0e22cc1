import { Migration } from '@mikro-orm/migrations';

/**
 * The key events' order becomes the order they were recorded in (ADR 17): `sequence`, taken from a
 * sequence while the writer holds the trail's lock, so that it grows in commit order. Events stored before
 * are numbered in their old order, (at, id), so a reader sees the trail as it was; the listing's index
 * follows the new order.
 */
export class Migration20261202000000KeyEventSequence extends Migration {
  override async up(): Promise<void> {
    this.addSql('create sequence key_events_sequence_seq as bigint');
    this.addSql('alter table key_events add column sequence bigint');
    this.addSql(`update key_events e set sequence = numbered.n
      from (select id, row_number() over (order by at, id) as n from key_events) numbered
      where e.id = numbered.id`);
    this.addSql(`select setval('key_events_sequence_seq', coalesce(max(sequence), 0) + 1, false) from key_events`);
    this.addSql(`alter table key_events
      alter column sequence set default nextval('key_events_sequence_seq'),
      alter column sequence set not null`);
    this.addSql('alter sequence key_events_sequence_seq owned by key_events.sequence');
    this.addSql('drop index key_events_company_idx');
    this.addSql('create unique index key_events_company_idx on key_events (company_id, sequence desc)');
  }

  override async down(): Promise<void> {
    this.addSql('drop index key_events_company_idx');
    this.addSql('create index key_events_company_idx on key_events (company_id, at desc, id desc)');
    this.addSql('alter table key_events drop column sequence');
  }
}
