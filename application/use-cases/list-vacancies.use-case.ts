import { decodeCursor, queryFingerprint, type Page } from '../../domain/paging/cursor.js';
import { cutPage } from '../../domain/paging/page-budget.js';
import type { VacancyStatusFilter } from '../../domain/vacancy/vacancy-status.js';
import type { UnitOfWork } from '../ports/unit-of-work.port.js';
import type { ListedVacancy, VacancyRepository } from '../ports/vacancy-repository.port.js';
import { watermarkOf } from './watermark.js';

export interface ListVacanciesCommand {
  readonly companyId: string;
  readonly since: Date | null;
  readonly status: VacancyStatusFilter;
  readonly limit: number;
  readonly cursor: string | null;
}

export interface ListVacanciesResult {
  readonly page: Page<ListedVacancy>;
  /** A safe `since` for the client's next run (DESIGN 3). */
  readonly watermark: Date;
}

export class ListVacancies {
  constructor(
    private readonly vacancies: VacancyRepository,
    private readonly unitOfWork: UnitOfWork,
    /** The most bytes of a page's body (LIST_PAGE_MAX_BYTES). */
    private readonly pageMaxBytes: number,
  ) {}

  async execute(command: ListVacanciesCommand): Promise<ListVacanciesResult> {
    const fingerprint = queryFingerprint(['vacancies', command.companyId, command.since?.toISOString() ?? null, command.status]);
    const after = command.cursor === null ? null : decodeCursor(command.cursor, fingerprint);
    return this.unitOfWork.run(command.companyId, 'read', async ({ now }) => {
      const rows = await this.vacancies.list({
        companyId: command.companyId,
        since: command.since,
        status: command.status,
        after,
        limit: command.limit + 1,
        maxBytes: this.pageMaxBytes,
      });
      const page = cutPage({ rows, limit: command.limit, maxBytes: this.pageMaxBytes, bytesOf: (v) => v.bytes, positionOf, fingerprint });
      return { page, watermark: watermarkOf(now) };
    });
  }
}

const positionOf = (v: ListedVacancy) => ({ modifiedAt: v.updatedAt, id: v.id });
