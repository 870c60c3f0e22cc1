import { canonicalApplication } from '../../domain/inbound-application/inbound-application.js';
import { CandidateCard, type NewCardParams } from '../../domain/candidate/candidate-card.js';
import type { Person, Referral } from '../../domain/candidate/person.js';
import type { Resume } from '../../domain/candidate/resume.js';
import { ProblemCollector, ValidationError } from '../../domain/shared/domain-error.js';
import type { BoardRepository } from '../ports/board-repository.port.js';
import type { CandidateRepository } from '../ports/candidate-repository.port.js';
import type { CompanyRepository } from '../ports/company-repository.port.js';
import type { IdGenerator } from '../ports/id-generator.port.js';
import type { Secrets } from '../ports/secrets.port.js';
import type { UnitOfWork } from '../ports/unit-of-work.port.js';
import type { VacancyRepository } from '../ports/vacancy-repository.port.js';
import { buildAll } from './batch.js';
import { boardOf } from './card-lookup.js';
import { requireCompany } from './require-company.js';

/** How a card came to be, which decides its source, externalId, cover letter and sourceRef (spec 2.2.1). */
export type CardOrigin =
  | { readonly kind: 'manual' }
  | { readonly kind: 'application'; readonly externalId: string; readonly source: string; readonly coverLetter: string | null }
  | { readonly kind: 'job-board'; readonly source: string; readonly sourceRef: string };

export interface CandidateToLoad {
  readonly vacancyId: string;
  /** The board column; the first one when absent. */
  readonly stage?: string | undefined;
  readonly origin: CardOrigin;
  readonly person: Person;
  readonly resume: Resume;
  readonly referral: Referral | null;
}

export interface ImportCandidateBatchCommand {
  readonly companyId: string;
  readonly candidates: readonly CandidateToLoad[];
}

/**
 * Writes a batch of cards of any origin with one bulk insert, all or nothing: for data loads such as the
 * demo data set, where one transaction per card would take hours. It checks what the single-card use cases
 * check (vacancy, column, every field), but not whether an externalId or board id exists already: the
 * store's uniqueness rules refuse such a batch as a whole.
 */
export class ImportCandidateBatch {
  constructor(
    private readonly companies: CompanyRepository,
    private readonly vacancies: VacancyRepository,
    private readonly boards: BoardRepository,
    private readonly candidates: CandidateRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly ids: IdGenerator,
    private readonly secrets: Secrets,
  ) {}

  async execute(command: ImportCandidateBatchCommand): Promise<{ readonly ids: string[] }> {
    const { companyId } = command;
    await requireCompany(this.companies, companyId);
    return this.unitOfWork.run(companyId, 'write', async ({ now }) => {
      const columns = new Map<string, readonly string[]>();
      for (const vacancyId of new Set(command.candidates.map((c) => c.vacancyId))) {
        if ((await this.vacancies.findById(companyId, vacancyId)) === null) continue;
        columns.set(vacancyId, (await boardOf(this.boards, companyId, vacancyId)).columns);
      }
      const cards = buildAll(command.candidates, (input) => {
        const board = columns.get(input.vacancyId);
        const problems = new ProblemCollector();
        if (board === undefined) problems.add('/vacancyId', `no vacancy ${input.vacancyId} in this company`);
        else if (input.stage !== undefined && !board.includes(input.stage)) {
          problems.add('/stage', `the board has no column "${input.stage}"; its columns are ${board.join(', ')}`);
        }
        if (problems.problems.length > 0) throw new ValidationError(problems.problems);
        const params: NewCardParams = {
          id: this.ids.newId(),
          companyId,
          vacancyId: input.vacancyId,
          stage: input.stage ?? ((board as readonly string[])[0] as string),
          person: input.person,
          resume: input.resume,
          referral: input.referral,
          now,
        };
        return this.cardOf(params, input.origin);
      });
      await this.candidates.insertMany(cards);
      return { ids: cards.map((card) => card.id) };
    });
  }

  private cardOf(params: NewCardParams, origin: CardOrigin): CandidateCard {
    switch (origin.kind) {
      case 'manual':
        return CandidateCard.manual(params);
      case 'job-board':
        return CandidateCard.imported({ ...params, source: origin.source, sourceRef: origin.sourceRef });
      case 'application': {
        const application = {
          externalId: origin.externalId,
          vacancyId: params.vacancyId,
          source: origin.source,
          candidate: { name: params.person.name, email: params.person.email, phone: params.person.phone, location: params.person.location, birthDate: params.person.birthDate },
          coverLetter: origin.coverLetter,
          resume: params.resume,
          referral: params.referral,
        };
        // The fingerprint the application endpoint would have stored, so that a replay of it reads as one.
        const requestFingerprint = this.secrets.sha256(canonicalApplication(application));
        return CandidateCard.fromApplication({ ...params, ...origin, requestFingerprint });
      }
    }
  }
}
