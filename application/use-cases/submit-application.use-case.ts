import { DEFAULT_APPLICATION_SOURCE } from '../../domain/application/application-limits.js';
import { canonicalApplication, checkApplicationKeys, type InboundApplication } from '../../domain/application/inbound-application.js';
import { Board } from '../../domain/board/board.js';
import { CandidateCard } from '../../domain/candidate/candidate-card.js';
import { NotFoundError } from '../../domain/shared/domain-error.js';
import type { BoardRepository } from '../ports/board-repository.port.js';
import type { CandidateRepository } from '../ports/candidate-repository.port.js';
import type { IdGenerator } from '../ports/id-generator.port.js';
import type { Secrets } from '../ports/secrets.port.js';
import type { UnitOfWork } from '../ports/unit-of-work.port.js';
import type { VacancyRepository } from '../ports/vacancy-repository.port.js';

export interface SubmitApplicationCommand {
  readonly companyId: string;
  readonly application: InboundApplication;
}

export type SubmitApplicationResult =
  | { readonly status: 'created'; readonly id: string }
  /** `bodyDiffers`: the earlier application under this externalId had another body. */
  | { readonly status: 'duplicate'; readonly id: string; readonly bodyDiffers: boolean };

/** Spec 4.3: creates a card in the first column of the vacancy's board, once per externalId and company. */
export class SubmitApplication {
  constructor(
    private readonly vacancies: VacancyRepository,
    private readonly boards: BoardRepository,
    private readonly candidates: CandidateRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly ids: IdGenerator,
    private readonly secrets: Secrets,
  ) {}

  async execute(command: SubmitApplicationCommand): Promise<SubmitApplicationResult> {
    const { companyId, application } = command;
    checkApplicationKeys(application);
    const fingerprint = this.secrets.sha256(canonicalApplication(application));
    // A repeat usually finds its card already stored: answer it without taking the company's lock at all
    // (a stored card does not stop being the answer).
    const known = await this.candidates.findByExternalId(companyId, application.externalId);
    if (known !== null) return duplicateOf(known, fingerprint);
    // An append: applications of one company are stored side by side, not one after another; two copies
    // of one externalId racing each other are settled by the store's insert (at most one card).
    return this.unitOfWork.run(companyId, 'append', async ({ now }) => {
      // Rule 5: a missing vacancy and another company's vacancy look the same.
      const vacancy = await this.vacancies.findById(companyId, application.vacancyId);
      if (vacancy === null) {
        // A repeat stays a duplicate after its vacancy was deleted, also when its first copy was stored meanwhile.
        const earlier = await this.candidates.findByExternalId(companyId, application.externalId);
        if (earlier !== null) return duplicateOf(earlier, fingerprint);
        throw new NotFoundError('vacancy', `Vacancy ${application.vacancyId} not found.`);
      }
      const board = (await this.boards.find(companyId, vacancy.id)) ?? Board.create(companyId, vacancy.id);

      const card = CandidateCard.fromApplication({
        id: this.ids.newId(),
        companyId,
        vacancyId: vacancy.id,
        stage: board.firstColumn,
        externalId: application.externalId,
        source: application.source ?? DEFAULT_APPLICATION_SOURCE,
        coverLetter: application.coverLetter,
        person: { ...application.candidate, gender: null, citizenship: [] },
        resume: application.resume,
        referral: application.referral,
        requestFingerprint: fingerprint,
        now,
      });
      // A first copy stored since the check above (a concurrent request) makes the insert a no-op.
      const raced = await this.candidates.insertApplication(card);
      if (raced !== null) return duplicateOf(raced, fingerprint);
      return { status: 'created', id: card.id };
    });
  }
}

function duplicateOf(earlier: CandidateCard, fingerprint: string): SubmitApplicationResult {
  return { status: 'duplicate', id: earlier.id, bodyDiffers: earlier.requestFingerprint !== fingerprint };
}
