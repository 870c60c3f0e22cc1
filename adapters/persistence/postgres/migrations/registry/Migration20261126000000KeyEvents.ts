import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 14, in the key registry (shared by both regions):
 *
 * service_keys: who issued and who revoked a key (the platform user or 'admin-cli'), and the chain of a
 * roll (rolled_from on the new key, rolled_to on the old one). Keys issued before stay readable: the new
 * columns are null for them, which the domain reads as "not known" and "not rolled".
 *
 * key_events: a company's audit trail, read newest first in pages (company_id, at desc, id desc). 'expired'
 * and 'first_used' are recorded by whichever instance sees them first, so a partial unique index keeps one
 * of each per key and the inserts say ON CONFLICT DO NOTHING. Like service_keys.company_id, key_id has no
 * foreign key: the in-memory twin stores what it is given, and an event outlives nothing it points to.
 *
 * platform_tokens: the bearer tokens of the management API's callers; only the hash of the secret.
 */
export class Migration20261126000000KeyEvents extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table service_keys
      add column created_by text,
      add column revoked_by text,
      add column rolled_from text collate "C",
      add column rolled_to text collate "C"`);

    this.addSql(`create table key_events (
      id text collate "C" primary key,
      company_id text collate "C" not null,
      key_id text collate "C" not null,
      type text not null check (type in ('issued', 'rolled', 'revoked', 'expired', 'first_used')),
      at timestamptz(3) not null,
      actor text,
      via text,
      successor_key_id text collate "C",
      expires_at timestamptz(3)
    )`);
    this.addSql('create index key_events_company_idx on key_events (company_id, at desc, id desc)');
    this.addSql(`create unique index key_events_once_idx on key_events (key_id, type) where type in ('expired', 'first_used')`);

    this.addSql(`create table platform_tokens (
      id text collate "C" primary key,
      name text not null,
      secret_hash text not null,
      created_at timestamptz(3) not null,
      revoked_at timestamptz(3)
    )`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table platform_tokens');
    this.addSql('drop table key_events');
    this.addSql(`alter table service_keys
      drop column rolled_to,
      drop column rolled_from,
      drop column revoked_by,
      drop column created_by`);
  }
}
