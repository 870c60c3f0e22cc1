import { SOURCE_MAX_LENGTH } from '../../domain/inbound-application/application-limits.js';
import { Board } from '../../domain/board/board.js';
import { ProblemCollector, ValidationError } from '../../domain/shared/domain-error.js';
import { checkText } from '../../domain/shared/text-rules.js';
import { Vacancy, type VacancyInput } from '../../domain/vacancy/vacancy.js';
import type { BoardRepository } from '../ports/board-repository.port.js';
import type { CompanyRepository } from '../ports/company-repository.port.js';
import type { IdGenerator } from '../ports/id-generator.port.js';
import type { UnitOfWork } from '../ports/unit-of-work.port.js';
import type { VacancyRepository } from '../ports/vacancy-repository.port.js';
import { ImportTally, sourceRefOf, type JobBoardImportResult, type JobBoardRecord } from './import-job-board-result.js';
import { requireCompany } from './require-company.js';

/** What the board says about a vacancy. The recruiter is the platform's own and survives a re-import. */
export type JobBoardVacancy = Omit<VacancyInput, 'recruiter' | 'sourceRef'>;

export interface ImportJobBoardVacanciesCommand {
  readonly companyId: string;
  /** The job-board label (DESIGN 3): `source` of the records and prefix of their sourceRef. */
  readonly source: string;
  readonly records: readonly JobBoardRecord<JobBoardVacancy>[];
}

/**
 * Creates a vacancy per board record, or refreshes the one imported earlier from the same board id: the
 * board's wording replaces the content, and the modification time moves only when something changed.
 * An invalid record is reported and skipped; the others are stored, in one transaction.
 */
export class ImportJobBoardVacancies {
  constructor(
    private readonly companies: CompanyRepository,
    private readonly vacancies: VacancyRepository,
    private readonly boards: BoardRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly ids: IdGenerator,
  ) {}

  async execute(command: ImportJobBoardVacanciesCommand): Promise<JobBoardImportResult> {
    checkSource(command.source);
    await requireCompany(this.companies, command.companyId);
    const { companyId, source } = command;
    return this.unitOfWork.run(companyId, 'write', async ({ now }) => {
      const tally = new ImportTally();
      for (const record of command.records) {
        const earlier = tally.earlierWithId(record);
        if (earlier !== null) {
          tally.reject(record, `repeats board id ${record.boardId} of record ${earlier}`);
          continue;
        }
        const sourceRef = sourceRefOf(source, record.boardId);
        try {
          const existing = await this.vacancies.findBySourceRef(companyId, sourceRef);
          if (existing !== null) {
            const recruiter = existing.toSnapshot().recruiter;
            const changed = existing.replace({ ...record.content, recruiter, sourceRef }, now);
            if (changed) await this.vacancies.update(existing);
            tally.add(record, existing.id, changed ? 'updated' : 'unchanged');
            continue;
          }
          const vacancy = Vacancy.create({ id: this.ids.newId(), companyId, input: { ...record.content, recruiter: null, sourceRef }, now });
          await this.vacancies.insert(vacancy);
          await this.boards.save(Board.create(companyId, vacancy.id));
          tally.add(record, vacancy.id, 'created');
        } catch (error) {
          // Validation happens before any write of the record, so a rejected record leaves nothing behind.
          if (!(error instanceof ValidationError)) throw error;
          tally.reject(record, error.message, error.problems);
        }
      }
      return tally.result();
    });
  }
}

export function checkSource(source: string): void {
  const problems = new ProblemCollector();
  checkText(problems, '/source', source, { min: 1, max: SOURCE_MAX_LENGTH, required: true });
  problems.throwIfAny('The job-board label is invalid.');
}
