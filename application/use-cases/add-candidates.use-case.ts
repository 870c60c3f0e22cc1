import { CandidateCard } from '../../domain/candidate/candidate-card.js';
import type { Person, Referral } from '../../domain/candidate/person.js';
import type { Resume } from '../../domain/candidate/resume.js';
import { ProblemCollector, ValidationError } from '../../domain/shared/domain-error.js';
import type { Vacancy } from '../../domain/vacancy/vacancy.js';
import type { BoardRepository } from '../ports/board-repository.port.js';
import type { CandidateRepository, CandidateView } from '../ports/candidate-repository.port.js';
import type { CompanyRepository } from '../ports/company-repository.port.js';
import type { IdGenerator } from '../ports/id-generator.port.js';
import type { UnitOfWork } from '../ports/unit-of-work.port.js';
import type { VacancyRepository } from '../ports/vacancy-repository.port.js';
import { toCandidateView } from '../views/candidate-view.js';
import { buildAll } from './batch.js';
import { boardOf } from './card-lookup.js';
import { requireCompany } from './require-company.js';

export interface ManualCandidate {
  /** The card's id, when the caller has one (the platform feed: the platform's card id); a new one otherwise. */
  readonly id?: string | undefined;
  readonly vacancyId: string;
  readonly candidate: Person;
  readonly resume: Resume;
  readonly referral: Referral | null;
  /** The column to place the card in; the board's first column when absent. */
  readonly stage?: string | undefined;
}

export interface AddCandidatesCommand {
  readonly companyId: string;
  readonly candidates: readonly ManualCandidate[];
}

/** A recruiter's manual cards (source "manual"). All or nothing; the answer keeps the input order. */
export class AddCandidates {
  constructor(
    private readonly companies: CompanyRepository,
    private readonly vacancies: VacancyRepository,
    private readonly boards: BoardRepository,
    private readonly candidates: CandidateRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly ids: IdGenerator,
  ) {}

  async execute(command: AddCandidatesCommand): Promise<CandidateView[]> {
    await requireCompany(this.companies, command.companyId);
    return this.unitOfWork.run(command.companyId, 'write', async ({ now }) => {
      const vacancyIds = [...new Set(command.candidates.map((c) => c.vacancyId))];
      const vacancies = new Map<string, Vacancy>();
      const columns = new Map<string, readonly string[]>();
      for (const id of vacancyIds) {
        const vacancy = typeof id === 'string' ? await this.vacancies.findById(command.companyId, id) : null;
        if (vacancy === null) continue;
        vacancies.set(id, vacancy);
        columns.set(id, (await boardOf(this.boards, command.companyId, id)).columns);
      }
      const cards = buildAll(command.candidates, (input) => {
        const problems = new ProblemCollector();
        const vacancy = vacancies.get(input.vacancyId);
        const boardColumns = columns.get(input.vacancyId) ?? [];
        if (vacancy === undefined) problems.add('/vacancyId', `no vacancy ${String(input.vacancyId)} in this company`);
        else if (input.stage !== undefined && !boardColumns.includes(input.stage)) {
          problems.add('/stage', `the board has no column "${input.stage}"; its columns are ${boardColumns.join(', ')}`);
        }
        if (problems.problems.length > 0) throw new ValidationError(problems.problems);
        return CandidateCard.manual({
          id: input.id ?? this.ids.newId(),
          companyId: command.companyId,
          vacancyId: input.vacancyId,
          stage: input.stage ?? (boardColumns[0] as string),
          person: input.candidate,
          resume: input.resume,
          referral: input.referral,
          now,
        });
      });
      for (const card of cards) await this.candidates.insert(card);
      return cards.map((card) => toCandidateView(card, vacancies.get(card.vacancyId as string)?.title ?? null));
    });
  }
}
