import { decodeCursor, queryFingerprint, toPage, type Page } from '../../domain/paging/cursor.js';
import type { CandidateRepository, CandidateView } from '../ports/candidate-repository.port.js';
import type { UnitOfWork } from '../ports/unit-of-work.port.js';
import { watermarkOf } from './watermark.js';

export interface ListCandidatesCommand {
  readonly companyId: string;
  readonly since: Date | null;
  readonly vacancyId: string | null;
  readonly limit: number;
  readonly cursor: string | null;
}

export interface ListCandidatesResult {
  readonly page: Page<CandidateView>;
  readonly watermark: Date;
}

export class ListCandidates {
  constructor(
    private readonly candidates: CandidateRepository,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  async execute(command: ListCandidatesCommand): Promise<ListCandidatesResult> {
    const fingerprint = queryFingerprint(['candidates', command.companyId, command.since?.toISOString() ?? null, command.vacancyId]);
    const after = command.cursor === null ? null : decodeCursor(command.cursor, fingerprint);
    return this.unitOfWork.run(command.companyId, 'read', async ({ now }) => {
      const rows = await this.candidates.list({
        companyId: command.companyId,
        since: command.since,
        vacancyId: command.vacancyId,
        after,
        limit: command.limit + 1,
      });
      const page = toPage(rows, command.limit, (c) => ({ modifiedAt: c.updatedAt, id: c.id }), fingerprint);
      return { page, watermark: watermarkOf(now) };
    });
  }
}
