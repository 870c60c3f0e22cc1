import { decodeCursor, fieldsFingerprintParts, queryFingerprint, type ListFields, type Page } from '../../domain/paging/cursor.js';
import { cutPage } from '../../domain/paging/page-budget.js';
import type { VacancyStatusFilter } from '../../domain/vacancy/vacancy-status.js';
import type { ListedId } from '../ports/candidate-repository.port.js';
import type { UnitOfWork } from '../ports/unit-of-work.port.js';
import type { ListedVacancy, VacancyListQuery, VacancyRepository } from '../ports/vacancy-repository.port.js';
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

/** An identifier-only page (`fields=id`). */
export interface ListVacancyIdsResult {
  readonly page: Page<ListedId>;
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
    return this.read(command, 'all', (query) => this.vacancies.list({ ...query, maxBytes: this.pageMaxBytes }));
  }

  /** The same page with only each record's id and updatedAt (`fields=id`): its own cursors, the same limits. */
  async executeIds(command: ListVacanciesCommand): Promise<ListVacancyIdsResult> {
    return this.read(command, 'id', (query) => this.vacancies.listIds(query));
  }

  private async read<T extends Listed>(command: ListVacanciesCommand, fields: ListFields, list: (query: ListQuery) => Promise<T[]>): Promise<{ page: Page<T>; watermark: Date }> {
    const fingerprint = queryFingerprint(['vacancies', command.companyId, command.since?.toISOString() ?? null, command.status, ...fieldsFingerprintParts(fields)]);
    const after = command.cursor === null ? null : decodeCursor(command.cursor, fingerprint);
    const query = { companyId: command.companyId, since: command.since, status: command.status, after, limit: command.limit + 1 };
    return this.unitOfWork.run(command.companyId, 'read', async ({ now }) => {
      const rows = await list(query);
      const page = cutPage<T>({ rows, limit: command.limit, maxBytes: this.pageMaxBytes, bytesOf: (r) => r.bytes, positionOf, fingerprint });
      return { page, watermark: watermarkOf(now) };
    });
  }
}

const positionOf = (v: Listed) => ({ modifiedAt: v.updatedAt, id: v.id });

/** What cutting a page needs of a listed record, whole or by its id. */
type Listed = Pick<ListedId, 'id' | 'updatedAt' | 'bytes'>;

type ListQuery = Omit<VacancyListQuery, 'maxBytes'>;
