import { Migration } from '@mikro-orm/migrations';

/**
 * The key registry: companies and their service keys, shared by both regions (DESIGN 3, Regions).
 * service_keys.company_id has no foreign key: the use cases check the company, and the registry
 * port, like its in-memory twin, stores a key for any company id.
 */
export class Migration20251122000000RegistryTables extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table companies (
      id text collate "C" primary key,
      name text not null,
      created_at timestamptz(3) not null
    )`);
    this.addSql(`create table service_keys (
      id text collate "C" primary key,
      company_id text collate "C" not null,
      name text not null,
      scopes jsonb not null,
      secret_hash text not null,
      created_at timestamptz(3) not null,
      expires_at timestamptz(3),
      revoked_at timestamptz(3),
      last_used_at timestamptz(3)
    )`);
    // `key list`: a company's keys, oldest first.
    this.addSql('create index service_keys_company_idx on service_keys (company_id, created_at, id)');
  }

  override async down(): Promise<void> {
    this.addSql('drop table service_keys');
    this.addSql('drop table companies');
  }
}
