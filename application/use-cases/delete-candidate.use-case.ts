import type { CandidateRepository } from '../ports/candidate-repository.port.js';
import type { UnitOfWork } from '../ports/unit-of-work.port.js';
import { requireCard } from './card-lookup.js';

/** Hard delete: the card stops appearing in the list (spec 2.6.3), with its technical copies. */
export class DeleteCandidate {
  constructor(
    private readonly candidates: CandidateRepository,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  async execute(command: { readonly companyId: string; readonly id: string }): Promise<{ id: string; deleted: true }> {
    return this.unitOfWork.run(command.companyId, 'write', async () => {
      await requireCard(this.candidates, command.companyId, command.id);
      await this.candidates.delete(command.companyId, command.id);
      return { id: command.id, deleted: true };
    });
  }
}
