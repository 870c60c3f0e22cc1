import { DEFAULT_COLUMNS, type ModelApplication, type ModelCard, type ModelState, type ModelVacancy } from './platform-model.js';
import type { PlatformEvent } from './platform-events.js';

type Data = Record<string, unknown>;

/** An aspect's value and the version that set it. */
interface Set<T> {
  readonly version: number;
  readonly value: T;
}

/** The value of the highest version among those given (none when none). */
function highest<T>(sets: readonly Set<T>[]): Set<T> | undefined {
  return sets.reduce<Set<T> | undefined>((best, set) => (best === undefined || set.version > best.version ? set : best), undefined);
}

/**
 * The feed's merge rule (docs/adr/0016-platform-feed.md) as a function of the SET of events, written apart from
 * the service: per entity, its existence is the highest of its creating and deleting events; alive, each aspect
 * holds the value of the highest version above its latest deletion that set it. Order and repeats cannot matter:
 * the events are grouped by entity, and only maxima are taken.
 */
export function stateByRule(delivered: readonly PlatformEvent[]): ModelState {
  const unique = [...new Map(delivered.map((event) => [`${event.source} ${event.id}`, event])).values()];
  const bySubject = new Map<string, PlatformEvent[]>();
  for (const event of unique) {
    const kind = event.type === 'application.submitted' ? 'application' : event.type.startsWith('candidate.') ? 'card' : 'vacancy';
    const key = `${kind} ${event.subject}`;
    bySubject.set(key, [...(bySubject.get(key) ?? []), event]);
  }
  const vacancies: ModelVacancy[] = [];
  const cards: ModelCard[] = [];
  const deletedVacancies = new globalThis.Set<string>();
  for (const [key, events] of bySubject) {
    const [kind, id] = key.split(' ') as [string, string];
    const of = (type: string) => events.filter((event) => event.type === type);
    const version = (event: PlatformEvent) => event.entityversion as number;
    if (kind === 'vacancy') {
      const deleted = highest(of('vacancy.deleted').map((event) => ({ version: version(event), value: null })))?.version ?? -Infinity;
      const fields = highest(of('vacancy.upserted').map((event) => ({ version: version(event), value: event.data as Data })));
      if (fields === undefined || fields.version < deleted) deletedVacancies.add(id);
      else vacancies.push({ id, title: fields.value.title as string, status: fields.value.status as string });
    }
    if (kind === 'card') {
      const deleted = highest(of('candidate.deleted').map((event) => ({ version: version(event), value: null })))?.version ?? -Infinity;
      const added = highest(of('candidate.added').map((event) => ({ version: version(event), value: event.data as Data })));
      if (added === undefined || added.version < deleted) continue;
      const after = (event: PlatformEvent) => version(event) > deleted;
      const own = added.value.vacancyId as string;
      const detached = of('candidate.detached').filter(after);
      const detachedOwn = detached.filter((event) => (event.data as Data).vacancyId === own).map((event) => ({ version: version(event), value: null }));
      const placed = highest([{ version: added.version, value: own as string | null }, ...detachedOwn]) as Set<string | null>;
      const stage = highest<string | null>([
        { version: added.version, value: added.value.stage as string },
        ...of('candidate.moved').filter(after).map((event) => ({ version: version(event), value: (event.data as Data).stage as string })),
        ...detachedOwn,
      ]) as Set<string | null>;
      const role = highest([
        { version: added.version, value: ((added.value.resume as Data).role as string) ?? '' },
        ...of('candidate.resume-updated').filter(after).map((event) => ({ version: version(event), value: (event.data as Data).role as string })),
      ]) as Set<string>;
      const targets = new globalThis.Set(of('candidate.transferred').map((event) => (event.data as Data).vacancyId as string));
      const transfers = [...targets].filter((target) => {
        const sets = [
          ...of('candidate.transferred').filter((event) => (event.data as Data).vacancyId === target).map((event) => ({ version: version(event), value: true })),
          ...detached.filter((event) => (event.data as Data).vacancyId === target).map((event) => ({ version: version(event), value: false })),
        ].filter((set) => set.version > deleted);
        return highest(sets)?.value === true;
      });
      cards.push({ id, vacancyId: placed.value, stage: stage.value, role: role.value, transfers: transfers.sort() });
    }
  }
  // Applications' cards (not versioned): on their vacancy in its first column, without one once it is deleted.
  const applications: ModelApplication[] = [];
  for (const [key, events] of bySubject) {
    const [kind, externalId] = key.split(' ') as [string, string];
    if (kind !== 'application') continue;
    const vacancyId = ((events[0] as PlatformEvent).data as Data).vacancyId as string;
    const gone = deletedVacancies.has(vacancyId);
    applications.push({ externalId, vacancyId: gone ? null : vacancyId, stage: gone ? null : (DEFAULT_COLUMNS[0] as string) });
  }
  return { vacancies, cards, applications };
}
