import { Migration } from '@mikro-orm/migrations';

/**
 * A card has at most one technical card on a vacancy, so that a repeated transfer finds the one there
 * (INSERT … ON CONFLICT on this index) instead of making another. Before the index can be built, the
 * repeats that earlier versions stored go: of each (card, vacancy), the first technical card made
 * (created_at, then id) stays, the one the first transfer reported. Technical cards are never listed and
 * cannot be moved, so nothing a client reads changes, except that a board column held only by a
 * removed repeat is free again.
 *
 * The index leads with (company_id, origin_card_id), so it also serves deleting a card with its
 * technical cards, and replaces candidates_origin_idx. Technical cards of a deleted vacancy have
 * vacancy_id null and are distinct for the index, as they need to be.
 */
export class Migration20261124000000TransferOncePerVacancy extends Migration {
  override async up(): Promise<void> {
    this.addSql(`delete from candidates c
      using candidates first
      where c.origin_card_id is not null
        and first.company_id = c.company_id and first.origin_card_id = c.origin_card_id and first.vacancy_id = c.vacancy_id
        and (first.created_at, first.id) < (c.created_at, c.id)`);
    this.addSql(`create unique index candidates_transfer_key on candidates (company_id, origin_card_id, vacancy_id)
      where origin_card_id is not null`);
    this.addSql('drop index candidates_origin_idx');
  }

  override async down(): Promise<void> {
    this.addSql('create index candidates_origin_idx on candidates (company_id, origin_card_id) where origin_card_id is not null');
    this.addSql('drop index candidates_transfer_key');
  }
}
