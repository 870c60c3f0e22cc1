import type { IntegrationClient } from '../integration-client.js';
import type { SyncResource } from './sync-state.js';
import type { SyncRecord } from './sync-target.js';

/** A page as a pass handles it: whole records, or ids only; a 304 (notModified) has no items and ends the pass. */
export interface FetchedPage {
  readonly items: readonly SyncRecord[];
  readonly nextCursor: string | null;
  readonly watermark: string;
  readonly etag: string | null;
  readonly notModified: boolean;
}

export interface PageQuery {
  readonly since: string | undefined;
  readonly cursor: string | undefined;
  readonly limit: number;
}

/** How a pass reads one page: records (optionally only if changed since the page of `etag`), or identifiers. */
export interface Lister {
  records(query: PageQuery, etag: string | undefined, signal?: AbortSignal): Promise<FetchedPage>;
  ids(query: PageQuery, signal?: AbortSignal): Promise<FetchedPage>;
}

export function listerOf(client: IntegrationClient, resource: SyncResource): Lister {
  const vacancies = resource === 'vacancies';
  return {
    async records(query, etag, signal) {
      const q = vacancies ? { ...query, status: 'all' as const } : query;
      const options = signalOf(signal);
      if (etag === undefined) return pageOf(vacancies ? await client.listVacancies(q, options) : await client.listCandidates(q, options));
      const answer = vacancies ? await client.listVacanciesIfChanged(q, etag, options) : await client.listCandidatesIfChanged(q, etag, options);
      return answer.notModified === true ? { items: [], nextCursor: null, watermark: answer.watermark, etag: answer.etag, notModified: true } : pageOf(answer);
    },
    async ids(query, signal) {
      const options = signalOf(signal);
      return pageOf(vacancies ? await client.listVacancyIds({ ...query, status: 'all' }, options) : await client.listCandidateIds(query, options));
    },
  };
}

function pageOf(page: { items: readonly SyncRecord[]; nextCursor: string | null; watermark: string; etag: string | null }): FetchedPage {
  return { items: page.items, nextCursor: page.nextCursor, watermark: page.watermark, etag: page.etag, notModified: false };
}

function signalOf(signal: AbortSignal | undefined) {
  return signal === undefined ? {} : { signal };
}
