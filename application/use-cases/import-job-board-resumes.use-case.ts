import { CandidateCard } from '../../domain/candidate/candidate-card.js';
import type { Person } from '../../domain/candidate/person.js';
import type { Resume } from '../../domain/candidate/resume.js';
import { NotFoundError, ValidationError } from '../../domain/shared/domain-error.js';
import type { BoardRepository } from '../ports/board-repository.port.js';
import type { CandidateRepository } from '../ports/candidate-repository.port.js';
import type { CompanyRepository } from '../ports/company-repository.port.js';
import type { IdGenerator } from '../ports/id-generator.port.js';
import type { UnitOfWork } from '../ports/unit-of-work.port.js';
import type { VacancyRepository } from '../ports/vacancy-repository.port.js';
import { boardOf } from './card-lookup.js';
import { ImportTally, sourceRefOf, type JobBoardImportResult, type JobBoardRecord } from './import-job-board-result.js';
import { checkSource } from './import-job-board-vacancies.use-case.js';
import { requireCompany } from './require-company.js';

export interface JobBoardResume {
  readonly person: Person;
  readonly resume: Resume;
}

export interface ImportJobBoardResumesCommand {
  readonly companyId: string;
  readonly source: string;
  /** New cards land in the first column of this vacancy's board. */
  readonly vacancyId: string;
  readonly records: readonly JobBoardRecord<JobBoardResume>[];
}

/**
 * Creates a candidate card per board resume (no cover letter, no externalId), or refreshes the card imported
 * earlier from the same board id, wherever it stands now: its vacancy and stage stay, the person's data and
 * the resume become the board's, and each modification time moves only when its part changed.
 */
export class ImportJobBoardResumes {
  constructor(
    private readonly companies: CompanyRepository,
    private readonly vacancies: VacancyRepository,
    private readonly boards: BoardRepository,
    private readonly candidates: CandidateRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly ids: IdGenerator,
  ) {}

  async execute(command: ImportJobBoardResumesCommand): Promise<JobBoardImportResult> {
    checkSource(command.source);
    await requireCompany(this.companies, command.companyId);
    const { companyId, source } = command;
    return this.unitOfWork.run(companyId, 'write', async ({ now }) => {
      const vacancy = await this.vacancies.findById(companyId, command.vacancyId);
      if (vacancy === null) throw new NotFoundError('vacancy', `Vacancy ${command.vacancyId} not found.`);
      const stage = (await boardOf(this.boards, companyId, vacancy.id)).firstColumn;
      const tally = new ImportTally();
      for (const record of command.records) {
        const earlier = tally.earlierWithId(record);
        if (earlier !== null) {
          tally.reject(record, `repeats board id ${record.boardId} of record ${earlier}`);
          continue;
        }
        const sourceRef = sourceRefOf(source, record.boardId);
        const { person, resume } = record.content;
        try {
          const existing = await this.candidates.findBySourceRef(companyId, sourceRef);
          if (existing !== null) {
            const changed = existing.refreshImported(person, resume, now);
            if (changed) await this.candidates.update(existing);
            tally.add(record, existing.id, changed ? 'updated' : 'unchanged');
            continue;
          }
          const card = CandidateCard.imported({
            id: this.ids.newId(), companyId, vacancyId: vacancy.id, stage, person, resume, referral: null, source, sourceRef, now,
          });
          await this.candidates.insert(card);
          tally.add(record, card.id, 'created');
        } catch (error) {
          if (!(error instanceof ValidationError)) throw error;
          tally.reject(record, error.message, error.problems);
        }
      }
      return tally.result();
    });
  }
}
