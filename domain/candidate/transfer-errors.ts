import { DomainError } from '../shared/domain-error.js';

/**
 * A transfer to the vacancy the card already belongs to. Its own class and code, apart from `conflict`:
 * a feed that delivers transfers more than once gets the earlier technical card back for a repeat, so
 * this error means the request itself is wrong and repeating it can never succeed.
 */
export class TransferToOwnVacancyError extends DomainError {
  readonly code = 'transfer_to_own_vacancy';
  constructor(readonly cardId: string, readonly vacancyId: string) {
    super(`Candidate ${cardId} already belongs to vacancy ${vacancyId}; a transfer needs another vacancy.`);
    this.name = 'TransferToOwnVacancyError';
  }
}
