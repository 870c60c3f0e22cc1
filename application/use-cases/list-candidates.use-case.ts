import { decodeCursor, fieldsFingerprintParts, queryFingerprint, type ListFields, type Page } from '../../domain/paging/cursor.js';
import { cutPage } from '../../domain/paging/page-budget.js';
import type { CandidateListQuery, CandidateRepository, ListedCandidate, ListedId } from '../ports/candidate-repository.port.js';
import type { UnitOfWork } from '../ports/unit-of-work.port.js';
import { watermarkOf } from './watermark.js';
import { ProblemCollector } from '../../domain/shared/domain-error.js';
import { checkText } from '../../domain/shared/text-rules.js';
import { VACANCY_ID_MAX_LENGTH, VACANCY_ID_MIN_LENGTH } from '../../domain/inbound-application/application-limits.js';

export interface ListCandidatesCommand {
  readonly companyId: string;
  readonly since: Date | null;
  readonly vacancyId: string | null;
  readonly limit: number;
  readonly cursor: string | null;
}

export interface ListCandidatesResult {
  readonly page: Page<ListedCandidate>;
  readonly watermark: Date;
}

/** An identifier-only page (`fields=id`). */
export interface ListCandidateIdsResult {
  readonly page: Page<ListedId>;
  readonly watermark: Date;
}

export class ListCandidates {
  constructor(
    private readonly candidates: CandidateRepository,
    private readonly unitOfWork: UnitOfWork,
    /** The most bytes of a page's body (LIST_PAGE_MAX_BYTES). */
    private readonly pageMaxBytes: number,
  ) {}

  async execute(command: ListCandidatesCommand): Promise<ListCandidatesResult> {
    return this.read(command, 'all', (query) => this.candidates.list({ ...query, maxBytes: this.pageMaxBytes }));
  }

  /** The same page with only each record's id and updatedAt (`fields=id`): its own cursors, the same limits. */
  async executeIds(command: ListCandidatesCommand): Promise<ListCandidateIdsResult> {
    return this.read(command, 'id', (query) => this.candidates.listIds(query));
  }

  private async read<T extends Listed>(command: ListCandidatesCommand, fields: ListFields, list: (query: ListQuery) => Promise<T[]>): Promise<{ page: Page<T>; watermark: Date }> {
    if (command.vacancyId !== null) checkVacancyFilter(command.vacancyId);
    const fingerprint = queryFingerprint(['candidates', command.companyId, command.since?.toISOString() ?? null, command.vacancyId, ...fieldsFingerprintParts(fields)]);
    const after = command.cursor === null ? null : decodeCursor(command.cursor, fingerprint);
    const query = { companyId: command.companyId, since: command.since, vacancyId: command.vacancyId, after, limit: command.limit + 1 };
    return this.unitOfWork.run(command.companyId, 'read', async ({ now }) => {
      const rows = await list(query);
      const page = cutPage<T>({ rows, limit: command.limit, maxBytes: this.pageMaxBytes, bytesOf: (r) => r.bytes, positionOf, fingerprint });
      return { page, watermark: watermarkOf(now) };
    });
  }
}

const positionOf = (c: Listed) => ({ modifiedAt: c.updatedAt, id: c.id });

function checkVacancyFilter(vacancyId: string): void {
  const problems = new ProblemCollector();
  checkText(problems, '/vacancyId', vacancyId, { min: VACANCY_ID_MIN_LENGTH, max: VACANCY_ID_MAX_LENGTH });
  problems.throwIfAny('The query is invalid.');
}

/** What cutting a page needs of a listed record, whole or by its id. */
type Listed = Pick<ListedId, 'id' | 'updatedAt' | 'bytes'>;

type ListQuery = Omit<CandidateListQuery, 'maxBytes'>;
