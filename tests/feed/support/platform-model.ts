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
  /** The vacancies it has a technical card on (its transfers), sorted. */
  readonly transfers: string[];
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
  readonly applications: ModelApplication[];
}

const VACANCIES = ['vac-0', 'vac-1', 'vac-2'];
/** The board a vacancy is made with (DESIGN 3): again when it is made again after a deletion. */
export const DEFAULT_COLUMNS = ['NEW', 'AI_DIALOG', 'INTERVIEW', 'OFFER', 'ONBOARDING', 'REJECTION'];
const CARDS = ['card-0', 'card-1', 'card-2', 'card-3'];
/** Applications go to these: the first is never deleted, the second may be, and is never made again. */
export const APPLICATION_VACANCY = 'vac-applications';
const APPLICATION_VACANCIES = [APPLICATION_VACANCY, 'vac-applications-2'];

interface VacancyState {
  version: number;
  title: string;
  status: string;
  columns: string[];
  deleted: boolean;
}

interface CardState {
  version: number;
  vacancyId: string | null;
  stage: string | null;
  role: string;
  deleted: boolean;
  transfers: Set<string>;
  /** The vacancy it was added to: never a transfer's target (taken off it, the card could not be told from its transfer). */
  readonly home: string;
}

interface ApplicationState {
  /** The event that took it, sent again under new ids. */
  readonly event: PlatformEvent;
  vacancyId: string | null;
  stage: string | null;
}

/**
 * The platform, played forward: a history of valid changes of one company (versions increase per entity, boards
 * only gain columns until their vacancy is deleted, a deleted card or vacancy may be made again under its id,
 * nothing else happens to a deleted record), the events it publishes, and the state it ends in. As change data
 * capture would, it publishes every entity a change touches: a vacancy's deletion comes with a `candidate.detached`
 * of each card it takes off (its own vacancy, or a transfer's target), at the card's next version. Applications'
 * cards, which the platform does not version, go to vacancies that are never made again.
 */
export function playPlatform(companyId: string, intents: readonly Intent[]): { events: PlatformEvent[]; state: ModelState } {
  const e = eventsOf(companyId);
  const events: PlatformEvent[] = [];
  const vacancies = new Map<string, VacancyState>();
  const cards = new Map<string, CardState>();
  const applications = new Map<string, ApplicationState>();
  const live = (id: string) => {
    const v = vacancies.get(id);
    return v !== undefined && !v.deleted ? v : undefined;
  };
  const liveCard = (id: string) => {
    const card = cards.get(id);
    return card !== undefined && !card.deleted ? card : undefined;
  };
  // A new vacancy, a change of one, or one deleted before made again under its id, with a new board.
  const upsertVacancy = (vacancyId: string, b: number, c: number) => {
    const next: VacancyState = vacancies.get(vacancyId) ?? { version: 0, title: '', status: 'open', columns: [...DEFAULT_COLUMNS], deleted: false };
    if (next.deleted) next.columns = [...DEFAULT_COLUMNS];
    next.deleted = false;
    next.version++;
    next.title = `Title ${b}`;
    next.status = c % 2 === 0 ? 'open' : 'closed';
    vacancies.set(vacancyId, next);
    events.push(e.vacancyUpserted(vacancyId, next.version, { title: next.title, status: next.status }));
  };
  // A new card on a live vacancy, or one deleted before made again under its id; none while the card lives.
  const addCard = (cardId: string, vacancyId: string, c: number) => {
    const card = cards.get(cardId);
    const v = live(vacancyId);
    if ((card !== undefined && !card.deleted) || v === undefined) return;
    const stage = v.columns[c % v.columns.length] as string;
    const version = (card?.version ?? 0) + 1;
    const role = card === undefined ? 'Initial' : `Again ${version}`;
    cards.set(cardId, { version, vacancyId, stage, role, deleted: false, transfers: new Set(), home: vacancyId });
    events.push(e.candidateAdded(cardId, version, { vacancyId, name: `Name ${cardId}`, stage, resume: { role } }));
  };
  // A live vacancy deleted, with its board: each card on it, or transferred to it, is taken off it by an event of its own.
  const deleteVacancy = (vacancyId: string) => {
    const v = live(vacancyId) as VacancyState;
    v.version++;
    v.deleted = true;
    events.push(e.vacancyDeleted(vacancyId, v.version));
    for (const [cardId, card] of cards) {
      if (card.deleted || (card.vacancyId !== vacancyId && !card.transfers.has(vacancyId))) continue;
      card.version++;
      if (card.vacancyId === vacancyId) {
        card.vacancyId = null;
        card.stage = null;
      } else {
        card.transfers.delete(vacancyId);
      }
      events.push(e.candidateDetached(cardId, card.version, vacancyId));
    }
    for (const application of applications.values()) {
      if (application.vacancyId !== vacancyId) continue;
      application.vacancyId = null;
      application.stage = null;
    }
  };
  // An application taken by another channel to a live vacancy of applications, in its first column; an externalId
  // taken before: the platform sending that application again under a new event id.
  const submitApplication = (externalId: string, vacancyId: string) => {
    const taken = applications.get(externalId);
    if (taken !== undefined) {
      events.push({ ...taken.event, id: randomUUID() });
      return;
    }
    if (live(vacancyId) === undefined) return;
    const event = e.applicationSubmitted(externalId, vacancyId, `Applicant ${externalId}`);
    applications.set(externalId, { event, vacancyId, stage: DEFAULT_COLUMNS[0] as string });
    events.push(event);
  };
  for (const id of APPLICATION_VACANCIES) upsertVacancy(id, 0, 0);
  for (const { kind, a, b, c } of intents) {
    const vacancyId = VACANCIES[a % VACANCIES.length] as string;
    const cardId = CARDS[a % CARDS.length] as string;
    const card = liveCard(cardId);
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
        if (card === undefined || card.vacancyId === null) break;
        const v = vacancies.get(card.vacancyId) as VacancyState;
        card.version++;
        card.stage = v.columns[b % v.columns.length] as string;
        events.push(e.candidateMoved(cardId, card.version, card.stage));
        break;
      }
      case 4: {
        if (card === undefined) break;
        card.version++;
        card.role = `Role ${b}`;
        events.push(e.resumeUpdated(cardId, card.version, { role: card.role }));
        break;
      }
      case 5: {
        if (card === undefined) break;
        card.version++;
        card.deleted = true;
        card.transfers.clear();
        events.push(e.candidateDeleted(cardId, card.version));
        break;
      }
      case 6: {
        // A vacancy deleted: of the three, or (odd c) the second vacancy of applications, never made again.
        const target = c % 2 === 1 ? (APPLICATION_VACANCIES[1] as string) : vacancyId;
        if (live(target) !== undefined && b % 3 === 0) deleteVacancy(target);
        break;
      }
      case 7:
        submitApplication(`ext-${b % 4}`, APPLICATION_VACANCIES[c % APPLICATION_VACANCIES.length] as string);
        break;
      case 8: {
        // A deleted vacancy made again (the first from `a` on), and a card placed on it.
        const deleted = [...VACANCIES.slice(a % VACANCIES.length), ...VACANCIES].find((id) => vacancies.get(id)?.deleted === true);
        if (deleted === undefined) break;
        upsertVacancy(deleted, b, c);
        addCard(cardId, deleted, c);
        break;
      }
      case 9: {
        // A card transferred to another live vacancy, or (b % 3 === 0) the vacancy of a card deleted.
        const holder = [...CARDS.slice(a % CARDS.length), ...CARDS].map((id) => liveCard(id)).find((held) => held !== undefined && held.vacancyId !== null);
        if (b % 3 === 0) {
          if (holder?.vacancyId != null) deleteVacancy(holder.vacancyId);
          break;
        }
        const target = VACANCIES[b % VACANCIES.length] as string;
        if (card === undefined || card.home === target || card.transfers.has(target) || live(target) === undefined) break;
        card.version++;
        card.transfers.add(target);
        events.push(e.candidateTransferred(cardId, card.version, target));
        break;
      }
    }
  }
  return {
    events,
    state: {
      vacancies: [...vacancies].filter(([, v]) => !v.deleted).map(([id, v]) => ({ id, title: v.title, status: v.status })),
      cards: [...cards]
        .filter(([, card]) => !card.deleted)
        .map(([id, card]) => ({ id, vacancyId: card.vacancyId, stage: card.stage, role: card.role, transfers: [...card.transfers].sort() })),
      applications: [...applications].map(([externalId, { vacancyId, stage }]) => ({ externalId, vacancyId, stage })),
    },
  };
}
