import { randomUUID } from 'node:crypto';

/** A CloudEvents 1.0 event as the platform publishes it (structured JSON, DESIGN 4a). */
export interface PlatformEvent {
  readonly specversion: '1.0';
  readonly id: string;
  readonly source: string;
  readonly type: string;
  readonly time: string;
  readonly subject: string;
  readonly datacontenttype: 'application/json';
  readonly companyid: string;
  readonly entityversion?: number;
  readonly data?: unknown;
}

export interface ResumeData {
  readonly role?: string;
  readonly skills?: readonly string[];
  readonly summary?: string;
}

/** Builders of one company's events, each with a fresh id unless told otherwise, and its `time` from `clock`. */
export function eventsOf(companyId: string, source = '/platform/kz/test', clock: () => Date = () => new Date()) {
  const event = (type: string, subject: string, entityversion: number | undefined, data: unknown): PlatformEvent => ({
    specversion: '1.0',
    id: randomUUID(),
    source,
    type,
    time: clock().toISOString(),
    subject,
    datacontenttype: 'application/json',
    companyid: companyId,
    ...(entityversion === undefined ? {} : { entityversion }),
    ...(data === undefined ? {} : { data }),
  });
  return {
    vacancyUpserted: (id: string, version: number, fields: { title?: string; status?: string; city?: string } = {}) =>
      event('vacancy.upserted', id, version, { title: fields.title ?? `Vacancy ${id}`, status: fields.status ?? 'open', ...(fields.city === undefined ? {} : { city: fields.city }) }),
    vacancyDeleted: (id: string, version: number) => event('vacancy.deleted', id, version, undefined),
    columnsSet: (vacancyId: string, version: number, columns: readonly string[]) => event('board.columns-set', vacancyId, version, { columns }),
    candidateAdded: (cardId: string, version: number, card: { vacancyId: string; name: string; stage?: string; resume?: ResumeData }) =>
      event('candidate.added', cardId, version, {
        vacancyId: card.vacancyId,
        candidate: { name: card.name },
        resume: card.resume ?? { role: 'Engineer', skills: ['TypeScript'] },
        // The platform always says where it placed the card.
        stage: card.stage ?? 'NEW',
      }),
    candidateMoved: (cardId: string, version: number, stage: string) => event('candidate.moved', cardId, version, { stage }),
    candidateTransferred: (cardId: string, version: number, vacancyId: string) => event('candidate.transferred', cardId, version, { vacancyId }),
    resumeUpdated: (cardId: string, version: number, resume: ResumeData) => event('candidate.resume-updated', cardId, version, resume),
    candidateDetached: (cardId: string, version: number, vacancyId: string) => event('candidate.detached', cardId, version, { vacancyId }),
    candidateDeleted: (cardId: string, version: number) => event('candidate.deleted', cardId, version, undefined),
    applicationSubmitted: (externalId: string, vacancyId: string, name: string) =>
      event('application.submitted', externalId, undefined, { externalId, vacancyId, candidate: { name }, resume: { skills: ['Go'] } }),
  };
}
