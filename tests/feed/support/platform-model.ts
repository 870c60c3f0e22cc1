import { randomUUID } from 'node:crypto';
import { eventsOf, type PlatformEvent } from './platform-events.js';

/** How many kinds of intent playPlatform tells apart (`kind` modulo this). */
export const INTENT_KINDS = 10;

/** One random choice of what the platform does next; interpreted against the platform's state, so always valid. */
export interface Intent {
  readonly kind: number;
  readonly a: number;
  readonly b: number;
  readonly c: number;
}

export interface ModelVacancy {
  readonly id: string;
  readonly title: string;
  readonly status: string;
}

export interface ModelCard {
  readonly id: string;
  readonly vacancyId: string | null;
  readonly stage: string | null;
  readonly role: string;
}

/** An application's card, by its externalId. */
export interface ModelApplication {
  readonly externalId: string;
  readonly vacancyId: string | null;
  readonly stage: string | null;
}

/** What integrators must see once every event has been applied, in whatever order they arrived. */
export interface ModelState {
  readonly vacancies: ModelVacancy[];
  readonly cards: ModelCard[];
  /** One card per externalId: in its vacancy's first column, or without a vacancy when that was deleted before it or since. */
  readonly applications: ModelApplication[];
}

const VACANCIES = ['vac-0', 'vac-1', 'vac-2'];
/** The board a vacancy is made with (DESIGN 3): again when it is made again after a deletion. */
const DEFAULT_COLUMNS = ['NEW', 'AI_DIALOG', 'INTERVIEW', 'OFFER', 'ONBOARDING', 'REJECTION'];
const CARDS = ['card-0', 'card-1', 'card-2', 'card-3'];
/** A vacancy that is never deleted, among those applications go to. */
export const APPLICATION_VACANCY = 'vac-applications';

interface VacancyState {
  version: number;
  title: string;
  status: string;
  columns: string[];
  deleted: boolean;
}

interface ApplicationState {
  /** The event that took it, sent again under new ids. */
  readonly event: PlatformEvent;
  vacancyId: string | null;
  stage: string | null;
  /** Taken while its vacancy was deleted: placed on it when the vacancy is made again (see submitApplication). */
  waitingFor: string | null;
}

interface CardState {
  version: number;
  vacancyId: string | null;
  stage: string | null;
  role: string;
  deleted: boolean;
}

/**
 * The platform, played forward: a history of valid changes of one company (versions increase per entity, times
 * with every change, boards only gain columns until their vacancy is deleted, a deleted card or vacancy may be
 * made again under its id, nothing else happens to a deleted record), the events it publishes, and the state
 * it ends in. Delivering the events in any order, any number of times, must end in that state.
 */
export function playPlatform(companyId: string, intents: readonly Intent[]): { events: PlatformEvent[]; state: ModelState } {
  // The platform's clock: a second between two changes, so that the times order every two of them (a card
  // made before or after its vacancy's deletion), as a platform's times do when its changes are not too close.
  const start = Date.now() - 86_400_000;
  let tick = 0;
  const e = eventsOf(companyId, undefined, () => new Date(start + ++tick * 1000));
  const events: PlatformEvent[] = [];
  const vacancies = new Map<string, VacancyState>();
  const cards = new Map<string, CardState>();
  const applications = new Map<string, ApplicationState>();
  const live = (id: string) => {
    const v = vacancies.get(id);
    return v !== undefined && !v.deleted ? v : undefined;
  };
  // A new vacancy, a change of one, or one deleted before made again under its id: newer than its deletion, with a
  // new board; the cards the deletion left stay without it.
  const upsertVacancy = (vacancyId: string, b: number, c: number) => {
    const next: VacancyState = vacancies.get(vacancyId) ?? { version: 0, title: '', status: 'open', columns: [...DEFAULT_COLUMNS], deleted: false };
    if (next.deleted) {
      next.deleted = false;
      next.columns = [...DEFAULT_COLUMNS];
      for (const waiting of applications.values()) {
        if (waiting.waitingFor !== vacancyId) continue;
        waiting.vacancyId = vacancyId;
        waiting.stage = DEFAULT_COLUMNS[0] as string;
        waiting.waitingFor = null;
      }
    }
    next.version++;
    next.title = `Title ${b}`;
    next.status = c % 2 === 0 ? 'open' : 'closed';
    vacancies.set(vacancyId, next);
    events.push(e.vacancyUpserted(vacancyId, next.version, { title: next.title, status: next.status }));
  };
  // A new card on a live vacancy, or one deleted before made again under its id (it lives again, newer than its
  // deletion); none while the card lives.
  const addCard = (cardId: string, vacancyId: string, c: number) => {
    const card = cards.get(cardId);
    const v = live(vacancyId);
    if ((card !== undefined && !card.deleted) || v === undefined) return;
    const stage = v.columns[c % v.columns.length] as string;
    const version = (card?.version ?? 0) + 1;
    const role = card === undefined ? 'Initial' : `Again ${version}`;
    cards.set(cardId, { version, vacancyId, stage, role, deleted: false });
    events.push(e.candidateAdded(cardId, version, { vacancyId, name: `Name ${cardId}`, stage, resume: { role } }));
  };
  // A live vacancy deleted: its cards stay, without it.
  const deleteVacancy = (vacancyId: string) => {
    const v = live(vacancyId) as VacancyState;
    v.version++;
    v.deleted = true;
    for (const other of [...cards.values(), ...applications.values()]) {
      if (other.vacancyId === vacancyId && !('deleted' in other && other.deleted)) {
        other.vacancyId = null;
        other.stage = null;
      }
    }
    events.push(e.vacancyDeleted(vacancyId, v.version));
  };
  // An application taken by another channel, to a vacancy the platform has (live or deleted): on it, in its first
  // column, while it lives (boards only gain columns at the end); without a vacancy once it is deleted, as the
  // vacancy's other cards. Taken while its vacancy is deleted: without a vacancy, and on the vacancy once it is
  // made again (the service's rule, README: such an application waits, as the upsert that made the vacancy again
  // may be on its way, and is placed once that comes; it does not compare the two times). An externalId taken
  // before: the platform sending that application again under a new event id, the same occurrence, so the same
  // body and `time` (when the platform took it).
  const submitApplication = (externalId: string, vacancyId: string) => {
    const taken = applications.get(externalId);
    if (taken !== undefined) {
      events.push({ ...taken.event, id: randomUUID() });
      return;
    }
    if (vacancyId !== APPLICATION_VACANCY && !vacancies.has(vacancyId)) return;
    const placed = vacancyId === APPLICATION_VACANCY || live(vacancyId) !== undefined;
    const event = e.applicationSubmitted(externalId, vacancyId, `Applicant ${externalId}`);
    applications.set(externalId, { event, vacancyId: placed ? vacancyId : null, stage: placed ? (DEFAULT_COLUMNS[0] as string) : null, waitingFor: placed ? null : vacancyId });
    events.push(event);
  };
  events.push(e.vacancyUpserted(APPLICATION_VACANCY, 1, { title: 'Applications' }));
  for (const { kind, a, b, c } of intents) {
    const vacancyId = VACANCIES[a % VACANCIES.length] as string;
    const cardId = CARDS[a % CARDS.length] as string;
    const card = cards.get(cardId);
    switch (kind % INTENT_KINDS) {
      case 0:
        upsertVacancy(vacancyId, b, c);
        break;
      case 1: {
        const v = live(vacancyId);
        const column = `COL${b % 4}`;
        if (v === undefined || v.columns.includes(column)) break;
        v.version++;
        v.columns = [...v.columns, column];
        events.push(e.columnsSet(vacancyId, v.version, v.columns));
        break;
      }
      case 2:
        addCard(cardId, VACANCIES[b % VACANCIES.length] as string, c);
        break;
      case 3: {
        if (card === undefined || card.deleted || card.vacancyId === null) break;
        const v = vacancies.get(card.vacancyId) as VacancyState;
        card.version++;
        card.stage = v.columns[b % v.columns.length] as string;
        events.push(e.candidateMoved(cardId, card.version, card.stage));
        break;
      }
      case 4: {
        if (card === undefined || card.deleted) break;
        card.version++;
        card.role = `Role ${b}`;
        events.push(e.resumeUpdated(cardId, card.version, { role: card.role }));
        break;
      }
      case 5: {
        if (card === undefined || card.deleted) break;
        card.version++;
        card.deleted = true;
        events.push(e.candidateDeleted(cardId, card.version));
        break;
      }
      case 6:
        if (live(vacancyId) !== undefined && b % 3 === 0) deleteVacancy(vacancyId);
        break;
      case 7:
        submitApplication(`ext-${b % 3}`, [APPLICATION_VACANCY, ...VACANCIES][c % (VACANCIES.length + 1)] as string);
        break;
      case 8: {
        // A deleted vacancy made again (the first from `a` on): the cards made around its deletion and the
        // deletion itself are the events whose order of arrival the times decide.
        const deleted = [...VACANCIES.slice(a % VACANCIES.length), ...VACANCIES].find((id) => vacancies.get(id)?.deleted === true);
        if (deleted === undefined) break;
        upsertVacancy(deleted, b, c);
        // And a card placed on it, one made after the vacancy was made again: the card of `a` when it is free, or
        // an application (of externalIds of their own, so that most are new).
        if (c % 2 === 0) addCard(cardId, deleted, c);
        else submitApplication(`ext-again-${b % 3}`, deleted);
        break;
      }
      case 9: {
        // The vacancy of a card (the first from `a` on that stands on one) or, for odd `b`, of an application deleted.
        const holder = [...CARDS.slice(a % CARDS.length), ...CARDS].map((id) => cards.get(id)).find((held) => held !== undefined && !held.deleted && held.vacancyId !== null);
        const applied = [...applications.values()].find((held) => held.vacancyId !== null && held.vacancyId !== APPLICATION_VACANCY);
        const vacancyId = b % 2 === 1 ? (applied?.vacancyId ?? holder?.vacancyId) : (holder?.vacancyId ?? applied?.vacancyId);
        if (vacancyId != null) deleteVacancy(vacancyId);
        break;
      }
    }
  }
  return {
    events,
    state: {
      vacancies: [
        { id: APPLICATION_VACANCY, title: 'Applications', status: 'open' },
        ...[...vacancies].filter(([, v]) => !v.deleted).map(([id, v]) => ({ id, title: v.title, status: v.status })),
      ],
      cards: [...cards].filter(([, card]) => !card.deleted).map(([id, card]) => ({ id, vacancyId: card.vacancyId, stage: card.stage, role: card.role })),
      applications: [...applications].map(([externalId, { vacancyId, stage }]) => ({ externalId, vacancyId, stage })),
    },
  };
}
