import { decodeKeyEventCursor, encodeKeyEventCursor, keyEventsQueryFingerprint } from '../../domain/service-key/key-event-cursor.js';
import { KEY_EVENTS_LIMIT_DEFAULT, KEY_EVENTS_LIMIT_MAX, KEY_EVENTS_LIMIT_MIN, type KeyEvent } from '../../domain/service-key/key-event.js';
import { ProblemCollector } from '../../domain/shared/domain-error.js';
import type { CompanyRepository } from '../ports/company-repository.port.js';
import type { ServiceKeyRepository } from '../ports/service-key-repository.port.js';
import { requireCompany } from './require-company.js';

export interface ListKeyEventsCommand {
  readonly companyId: string;
  /** KEY_EVENTS_LIMIT_MIN..KEY_EVENTS_LIMIT_MAX; KEY_EVENTS_LIMIT_DEFAULT when absent. */
  readonly limit?: number;
  /** nextCursor of the previous page; null for the first. */
  readonly cursor: string | null;
}

/** An event as the company sees it (the company is the caller's own). */
export type KeyEventListing = Omit<KeyEvent, 'companyId'>;

export interface KeyEventPage {
  readonly items: readonly KeyEventListing[];
  readonly nextCursor: string | null;
}

/**
 * The company's key events, newest first in the order they were recorded, paged by an opaque cursor. An
 * event recorded while a reader pages comes above its first page, never below a place it passed: a reader
 * that pages down to the first event it already knows has seen every event (ADR 17).
 */
export class ListKeyEvents {
  constructor(
    private readonly companies: CompanyRepository,
    private readonly keys: ServiceKeyRepository,
  ) {}

  async execute(command: ListKeyEventsCommand): Promise<KeyEventPage> {
    const limit = command.limit ?? KEY_EVENTS_LIMIT_DEFAULT;
    const problems = new ProblemCollector();
    if (!Number.isSafeInteger(limit) || limit < KEY_EVENTS_LIMIT_MIN || limit > KEY_EVENTS_LIMIT_MAX) {
      problems.add('/limit', `must be an integer from ${KEY_EVENTS_LIMIT_MIN} to ${KEY_EVENTS_LIMIT_MAX}`);
    }
    problems.throwIfAny('The query is invalid.');
    const fingerprint = keyEventsQueryFingerprint(command.companyId);
    const after = command.cursor === null ? null : decodeKeyEventCursor(command.cursor, fingerprint);
    await requireCompany(this.companies, command.companyId);
    // One more than asked, to tell whether another page exists.
    const rows = await this.keys.listEvents(command.companyId, { limit: limit + 1, after });
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      items: page.map(({ companyId: _company, ...event }) => event),
      nextCursor: rows.length > limit && last !== undefined ? encodeKeyEventCursor(last.id, fingerprint) : null,
    };
  }
}
