import { Migration } from '@mikro-orm/migrations';

/**
 * The lists' read model (ADR 18): each vacancy and each listed card keeps its API JSON as the presenters
 * render it, written with the row, so that a page is assembled from texts instead of being built again on
 * every read.
 *
 * Expand only, as a rolling upgrade needs (docs/running-at-scale.md): instances of the previous version keep
 * writing the tables while this one starts, and know nothing of the columns. So the columns come nullable,
 * with no constraint and no backfill: an old instance's insert leaves a rendering null, its update leaves the
 * old text, and the list queries render such a row from its columns when they meet it (isRenderingCurrent:
 * the text must end with the row's updatedAt). Nothing here rewrites the tables, so the migration holds its
 * ACCESS EXCLUSIVE locks only for two catalogue changes.
 *
 * Getting those locks is what can take long: an ALTER TABLE waits behind every open transaction that touched
 * the table (a long sync page, a bulk import of the previous version), and while it waits in the queue every
 * later read and write of the table waits behind it, which stalls the service running beside the migration.
 * So both statements run under `lock_timeout = 5s` (SET LOCAL: the set's one transaction, migrate-databases.ts,
 * set back to the default after them so later migrations keep theirs): on a busy table the migration fails
 * with 55P03 lock_not_available, the transaction rolls back (neither column is added, no history row), the
 * instance cannot start and exits 1, and its supervisor starts it again, which tries again; the previous
 * version keeps serving meanwhile.
 *
 * The backfill is `admin check renderings --repair`, run once the last instance of the previous version is
 * gone: it renders every null or stale rendering in keyset batches of short statements, with no long lock,
 * and exits 1 if any still differ. The constraints (`vacancies.rendering` not null; `check (technical or
 * rendering is not null)` on candidates) come in a later release, when no writer of the previous version can
 * run any more: added `not valid` (no scan, a brief lock), then `validate constraint`, which scans without
 * blocking writes (for the not-null, a validated `check (rendering is not null)` lets `set not null` skip its
 * scan).
 *
 * Pure SQL, importing no code of the service: a migration must do the same thing whichever version of the
 * presenters and the row mapping is deployed with it.
 */
export class Migration20261127000000Renderings extends Migration {
  override async up(): Promise<void> {
    this.addSql("set local lock_timeout = '5s'");
    this.addSql('alter table vacancies add column rendering text');
    this.addSql('alter table candidates add column rendering text');
    this.addSql('set local lock_timeout to default');
  }

  override async down(): Promise<void> {
    this.addSql('alter table candidates drop column rendering');
    this.addSql('alter table vacancies drop column rendering');
  }
}
