import { Migration } from '@mikro-orm/migrations';

/**
 * A region's business data. Every table and index leads with company_id, so that the tables can be
 * distributed by company (Citus) later; company_id has no foreign key into the key registry, which may
 * live in another database. Ids are text in the "C" collation: keyset comparisons of (time, id) then
 * order ids by code unit, like the in-memory adapter's JS string comparison.
 */
export class Migration20251122000000BusinessTables extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table vacancies (
      company_id text collate "C" not null,
      id text collate "C" not null check (char_length(id) between 1 and 64),
      title text not null,
      status text not null check (status in ('open', 'paused', 'closed', 'archived', 'draft')),
      city text,
      office_address text,
      experience text,
      work_format text check (work_format in ('remote', 'office', 'hybrid', 'other')),
      work_formats jsonb not null default '[]',
      salary_from double precision,
      salary_to double precision,
      salary_currency text,
      salary_gross boolean,
      employment_form text,
      work_schedule jsonb not null default '[]',
      skills jsonb not null default '[]',
      languages jsonb not null default '[]',
      professional_roles jsonb not null default '[]',
      description text,
      responsibilities text,
      positions_count integer,
      source_url text,
      published_at timestamptz(3),
      recruiter text,
      source_ref text,
      created_at timestamptz(3) not null,
      updated_at timestamptz(3) not null,
      primary key (company_id, id)
    )`);
    this.addSql('create index vacancies_sync_idx on vacancies (company_id, updated_at, id)');
    this.addSql('create index vacancies_status_sync_idx on vacancies (company_id, status, updated_at, id)');
    this.addSql('create unique index vacancies_source_ref_key on vacancies (company_id, source_ref) where source_ref is not null');

    this.addSql(`create table boards (
      company_id text collate "C" not null,
      vacancy_id text collate "C" not null,
      columns jsonb not null,
      primary key (company_id, vacancy_id)
    )`);

    this.addSql(`create table candidates (
      company_id text collate "C" not null,
      id text collate "C" not null,
      vacancy_id text collate "C",
      stage text,
      source text not null,
      external_id text,
      cover_letter text,
      person jsonb not null,
      resume jsonb not null,
      referral jsonb,
      technical boolean not null default false,
      origin_card_id text collate "C",
      request_fingerprint text,
      source_ref text,
      created_at timestamptz(3) not null,
      card_updated_at timestamptz(3) not null,
      resume_updated_at timestamptz(3) not null,
      modified_at timestamptz(3) generated always as (greatest(card_updated_at, resume_updated_at)) stored,
      primary key (company_id, id)
    )`);
    // The candidate list: listed cards in sync order, for the whole company or one vacancy.
    this.addSql('create index candidates_sync_idx on candidates (company_id, modified_at, id) where not technical');
    this.addSql('create index candidates_vacancy_sync_idx on candidates (company_id, vacancy_id, modified_at, id)');
    // Idempotent applications (spec 4.3) and re-imports from the job board.
    this.addSql('create unique index candidates_external_id_key on candidates (company_id, external_id) where external_id is not null');
    this.addSql('create unique index candidates_source_ref_key on candidates (company_id, source_ref) where source_ref is not null');
    // Deleting a card deletes the technical cards transferred from it.
    this.addSql('create index candidates_origin_idx on candidates (company_id, origin_card_id) where origin_card_id is not null');
  }

  override async down(): Promise<void> {
    this.addSql('drop table candidates');
    this.addSql('drop table boards');
    this.addSql('drop table vacancies');
  }
}
