import { TransferToOwnVacancyError } from '../../domain/candidate/transfer-errors.js';
import { NotFoundError } from '../../domain/shared/domain-error.js';
import type { BoardRepository } from '../ports/board-repository.port.js';
import type { CandidateRepository } from '../ports/candidate-repository.port.js';
import type { IdGenerator } from '../ports/id-generator.port.js';
import type { UnitOfWork } from '../ports/unit-of-work.port.js';
import type { VacancyRepository } from '../ports/vacancy-repository.port.js';
import { boardOf, requireCard } from './card-lookup.js';

export interface TransferCandidateCommand {
  readonly companyId: string;
  readonly id: string;
  readonly vacancyId: string;
}

/**
 * Transfers a card to another vacancy: a technical card appears on that vacancy's board, and the
 * original stays the one listed, so that one application is not counted twice (spec 2.6.2).
 *
 * Idempotent: a card has at most one technical card on a vacancy, so a repeated transfer (the platform
 * feed delivers at least once) answers with the technical card already there and changes nothing. The
 * store settles it (insertTechnicalCard), so it holds without the company's write lock too.
 */
export class TransferCandidate {
  constructor(
    private readonly vacancies: VacancyRepository,
    private readonly boards: BoardRepository,
    private readonly candidates: CandidateRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly ids: IdGenerator,
  ) {}

  async execute(command: TransferCandidateCommand): Promise<{ technicalCardId: string }> {
    return this.unitOfWork.run(command.companyId, 'write', async ({ now }) => ({ technicalCardId: (await this.transfer(command, now)).technicalCardId }));
  }

  /**
   * The transfer for a caller that needs to know whether it made a technical card (the platform feed, which keeps
   * the time a technical card was placed): `transferred`, or `repeated` when the card already had one there.
   */
  async apply(command: TransferCandidateCommand): Promise<'transferred' | 'repeated'> {
    return this.unitOfWork.run(command.companyId, 'write', async ({ now }) => ((await this.transfer(command, now)).repeated ? 'repeated' : 'transferred'));
  }

  private async transfer(command: TransferCandidateCommand, now: Date): Promise<{ technicalCardId: string; repeated: boolean }> {
    const card = await requireCard(this.candidates, command.companyId, command.id);
    const target = await this.vacancies.findById(command.companyId, command.vacancyId);
    if (target === null) throw new NotFoundError('vacancy', `Vacancy ${command.vacancyId} not found.`);
    if (card.vacancyId === target.id) throw new TransferToOwnVacancyError(card.id, target.id);
    const board = await boardOf(this.boards, command.companyId, target.id);
    const technical = card.technicalCopy({ id: this.ids.newId(), vacancyId: target.id, stage: board.firstColumn, now });
    const earlier = await this.candidates.insertTechnicalCard(technical);
    return { technicalCardId: (earlier ?? technical).id, repeated: earlier !== null };
  }
}
