import { eventsOf, type PlatformEvent } from './platform-events.js';

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
 * The platform, played forward: a history of valid changes of one company (versions increase per entity,
 * boards only gain columns, a deleted card may be made again under its id, nothing else happens to a deleted
 * record), the events it publishes, and the state
 * it ends in. Delivering the events in any order, any number of times, must end in that state.
 */
export function playPlatform(companyId: string, intents: readonly Intent[]): { events: PlatformEvent[]; state: ModelState } {
  const e = eventsOf(companyId);
  const events: PlatformEvent[] = [];
  const vacancies = new Map<string, VacancyState>();
  const cards = new Map<string, CardState>();
  const applications: string[] = [];
  const live = (id: string) => {
    const v = vacancies.get(id);
    return v !== undefined && !v.deleted ? v : undefined;
  };
  events.push(e.vacancyUpserted(APPLICATION_VACANCY, 1, { title: 'Applications' }));
  for (const { kind, a, b, c } of intents) {
    const vacancyId = VACANCIES[a % VACANCIES.length] as string;
    const cardId = CARDS[a % CARDS.length] as string;
    const card = cards.get(cardId);
    switch (kind % 8) {
      case 0: {
        const v = vacancies.get(vacancyId);
        if (v?.deleted) break;
        const next: VacancyState = v ?? { version: 0, title: '', status: 'open', columns: ['NEW', 'AI_DIALOG', 'INTERVIEW', 'OFFER', 'ONBOARDING', 'REJECTION'], deleted: false };
        next.version++;
        next.title = `Title ${b}`;
        next.status = c % 2 === 0 ? 'open' : 'closed';
        vacancies.set(vacancyId, next);
        events.push(e.vacancyUpserted(vacancyId, next.version, { title: next.title, status: next.status }));
        break;
      }
      case 1: {
        const v = live(vacancyId);
        const column = `COL${b % 4}`;
        if (v === undefined || v.columns.includes(column)) break;
        v.version++;
        v.columns = [...v.columns, column];
        events.push(e.columnsSet(vacancyId, v.version, v.columns));
        break;
      }
      case 2: {
        const target = VACANCIES[b % VACANCIES.length] as string;
        const v = live(target);
        // A new card, or one deleted before made again under its id (it lives again, newer than its deletion).
        if ((card !== undefined && !card.deleted) || v === undefined) break;
        const stage = v.columns[c % v.columns.length] as string;
        const version = (card?.version ?? 0) + 1;
        const role = card === undefined ? 'Initial' : `Again ${version}`;
        cards.set(cardId, { version, vacancyId: target, stage, role, deleted: false });
        events.push(e.candidateAdded(cardId, version, { vacancyId: target, name: `Name ${cardId}`, stage, resume: { role } }));
        break;
      }
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
      case 6: {
        const v = live(vacancyId);
        if (v === undefined || b % 3 !== 0) break;
        v.version++;
        v.deleted = true;
        for (const other of cards.values()) {
          if (other.vacancyId === vacancyId && !other.deleted) {
            other.vacancyId = null;
            other.stage = null;
          }
        }
        events.push(e.vacancyDeleted(vacancyId, v.version));
        break;
      }
      case 7: {
        const externalId = `ext-${b % 3}`;
        // A repeat has the same body: the platform sending one application again under a new event id.
        if (!applications.includes(externalId)) applications.push(externalId);
        events.push(e.applicationSubmitted(externalId, APPLICATION_VACANCY, `Applicant ${externalId}`));
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
