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

/** What integrators must see once every event has been applied, in whatever order they arrived. */
export interface ModelState {
  readonly vacancies: ModelVacancy[];
  readonly cards: ModelCard[];
  /** externalIds of applications: one card each, on the applications' vacancy, in its first column. */
  readonly applications: string[];
}

const VACANCIES = ['vac-0', 'vac-1', 'vac-2'];
/** The board a vacancy is made with (DESIGN 3): again when it is made again after a deletion. */
const DEFAULT_COLUMNS = ['NEW', 'AI_DIALOG', 'INTERVIEW', 'OFFER', 'ONBOARDING', 'REJECTION'];
const CARDS = ['card-0', 'card-1', 'card-2', 'card-3'];
/** Applications go to a vacancy that is never deleted (one to a vacancy deleted since is stored without a vacancy: tests/unit/apply-platform-event-revival.test.ts). */
export const APPLICATION_VACANCY = 'vac-applications';

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
  const applications: string[] = [];
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
    for (const other of cards.values()) {
      if (other.vacancyId === vacancyId && !other.deleted) {
        other.vacancyId = null;
        other.stage = null;
      }
    }
    events.push(e.vacancyDeleted(vacancyId, v.version));
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
      case 7: {
        const externalId = `ext-${b % 3}`;
        // A repeat has the same body: the platform sending one application again under a new event id.
        if (!applications.includes(externalId)) applications.push(externalId);
        events.push(e.applicationSubmitted(externalId, APPLICATION_VACANCY, `Applicant ${externalId}`));
        break;
      }
      case 8: {
        // A deleted vacancy made again (the first from `a` on): the cards made around its deletion and the
        // deletion itself are the events whose order of arrival the times decide.
        const deleted = [...VACANCIES.slice(a % VACANCIES.length), ...VACANCIES].find((id) => vacancies.get(id)?.deleted === true);
        if (deleted === undefined) break;
        upsertVacancy(deleted, b, c);
        // And a card placed on it, when the card of `a` is free: one made after the vacancy was made again.
        addCard(cardId, deleted, c);
        break;
      }
      case 9: {
        // The vacancy of a card (the first from `a` on that stands on one) deleted.
        const holder = [...CARDS.slice(a % CARDS.length), ...CARDS].map((id) => cards.get(id)).find((held) => held !== undefined && !held.deleted && held.vacancyId !== null);
        if (holder !== undefined) deleteVacancy(holder.vacancyId as string);
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
      applications,
    },
  };
}
