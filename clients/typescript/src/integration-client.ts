import { apiRootOf, send, type TransportResponse, type TransportSettings } from './http-transport.js';
import { retryPolicy, sleep, type RetryOptions } from './retry.js';
import { runSync, type SyncOptions, type SyncReport } from './sync/sync-engine.js';
import type {
  ApplicationCreated,
  ApplicationDuplicate,
  ApplicationRequest,
  Candidate,
  CandidatePage,
  IdPage,
  ListCandidatesQuery,
  ListedId,
  ListVacanciesQuery,
  Vacancy,
  VacancyPage,
} from './types.js';

export interface IntegrationClientOptions {
  /** `{base_url}` of a regional deployment, ending in /api (the API root, …/integration/v1, is accepted too). */
  readonly baseUrl: string;
  /** The company service key; it is sent in the X-API-Key header only. */
  readonly apiKey: string;
  /** Retries of 429, 502, 503, 504 and network failures; false for none. */
  readonly retry?: RetryOptions | false;
  /** Time limit of one attempt. Default 30 s. */
  readonly timeoutMs?: number;
  readonly userAgent?: string;
  /** For tests and special transports. */
  readonly fetch?: typeof fetch;
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly random?: () => number;
}

export interface CallOptions {
  readonly signal?: AbortSignal;
  /** Sent as X-Request-Id, to find this call in the service's log. */
  readonly requestId?: string;
}

/** What a page response says besides its body. */
export interface PageMeta {
  /** X-Sync-Watermark: a safe since for the next run, when this is the first page of a pass. */
  readonly watermark: string;
  readonly requestId: string | null;
  /** The remaining request budget, from the RateLimit header. */
  readonly rateLimit: { readonly remaining: number; readonly resetSeconds: number } | null;
  /** The page's ETag: pass it to list…IfChanged to be answered NotModified while the page stays byte-identical. */
  readonly etag: string | null;
}

export type Page<P> = P & PageMeta & { readonly notModified?: false };

/**
 * The answer of list…IfChanged when the page is byte-identical to the one whose ETag was given (a 304): it has no
 * items, and spent no point of the request budget. Its watermark is of this read, so when the page held was the last
 * of a pass it is the since of the next one.
 */
export type NotModified = PageMeta & { readonly notModified: true };

export type ApplicationResult = (ApplicationCreated | ApplicationDuplicate) & {
  /** Idempotent-Replayed: the externalId was accepted before (perhaps by an earlier attempt of this very call). */
  readonly replayed: boolean;
  /** Idempotency-Conflict: body-differs — the earlier application with this externalId had another body. */
  readonly bodyDiffers: boolean;
  readonly requestId: string | null;
  readonly attempts: number;
};

/** The integration API, typed from its OpenAPI document. Every method throws ApiError for an error answer. */
export class IntegrationClient {
  private readonly transport: TransportSettings;

  constructor(options: IntegrationClientOptions) {
    this.transport = {
      apiRoot: apiRootOf(options.baseUrl),
      apiKey: options.apiKey,
      fetch: options.fetch ?? globalThis.fetch,
      retry: retryPolicy(options.retry),
      sleep: options.sleep ?? sleep,
      random: options.random ?? Math.random,
      timeoutMs: options.timeoutMs ?? 30_000,
      userAgent: options.userAgent,
    };
  }

  /** The API root this client calls: `{base_url}/integration/v1`. */
  get apiRoot(): string {
    return this.transport.apiRoot;
  }

  /** One page of vacancies (scope vacancies:read). By default only open ones: pass status 'all' to sync. */
  async listVacancies(query: ListVacanciesQuery = {}, options: CallOptions = {}): Promise<Page<VacancyPage>> {
    return (await this.listPage('/vacancies', query, options)) as Page<VacancyPage>;
  }

  /** One page of candidates (scope candidates:read). */
  async listCandidates(query: ListCandidatesQuery = {}, options: CallOptions = {}): Promise<Page<CandidatePage>> {
    return (await this.listPage('/candidates', query, options)) as Page<CandidatePage>;
  }

  /** listVacancies, unless the page is byte-identical to the one whose ETag is `etag`: then NotModified (a 304). */
  listVacanciesIfChanged(query: ListVacanciesQuery, etag: string, options: CallOptions = {}): Promise<Page<VacancyPage> | NotModified> {
    return this.listPage('/vacancies', query, options, { etag }) as Promise<Page<VacancyPage> | NotModified>;
  }

  /** listCandidates, unless the page is byte-identical to the one whose ETag is `etag`: then NotModified (a 304). */
  listCandidatesIfChanged(query: ListCandidatesQuery, etag: string, options: CallOptions = {}): Promise<Page<CandidatePage> | NotModified> {
    return this.listPage('/candidates', query, options, { etag }) as Promise<Page<CandidatePage> | NotModified>;
  }

  /** One identifier-only page of vacancies (fields=id): each item only the id and updatedAt, in the same order. */
  async listVacancyIds(query: ListVacanciesQuery = {}, options: CallOptions = {}): Promise<Page<IdPage>> {
    return (await this.listPage('/vacancies', query, options, { fields: 'id' })) as Page<IdPage>;
  }

  /** One identifier-only page of candidates (fields=id). */
  async listCandidateIds(query: ListCandidatesQuery = {}, options: CallOptions = {}): Promise<Page<IdPage>> {
    return (await this.listPage('/candidates', query, options, { fields: 'id' })) as Page<IdPage>;
  }

  /** Every identifier-only page of a vacancy query: a pass without since lists every vacancy that exists. */
  vacancyIdPages(query: Omit<ListVacanciesQuery, 'cursor'> = {}, options: CallOptions = {}): AsyncGenerator<Page<IdPage>> {
    return pages((cursor) => this.listVacancyIds({ ...query, cursor }, options));
  }

  candidateIdPages(query: Omit<ListCandidatesQuery, 'cursor'> = {}, options: CallOptions = {}): AsyncGenerator<Page<IdPage>> {
    return pages((cursor) => this.listCandidateIds({ ...query, cursor }, options));
  }

  /** The id and updatedAt of every candidate of a query, page after page. */
  async *candidateIds(query: Omit<ListCandidatesQuery, 'cursor'> = {}, options: CallOptions = {}): AsyncGenerator<ListedId> {
    for await (const page of this.candidateIdPages(query, options)) yield* page.items;
  }

  async *vacancyIds(query: Omit<ListVacanciesQuery, 'cursor'> = {}, options: CallOptions = {}): AsyncGenerator<ListedId> {
    for await (const page of this.vacancyIdPages(query, options)) yield* page.items;
  }

  /** Every page of a vacancy query, following nextCursor to the end. */
  vacancyPages(query: Omit<ListVacanciesQuery, 'cursor'> = {}, options: CallOptions = {}): AsyncGenerator<Page<VacancyPage>> {
    return pages((cursor) => this.listVacancies({ ...query, cursor }, options));
  }

  /** Every vacancy of a query, page after page. */
  async *vacancies(query: Omit<ListVacanciesQuery, 'cursor'> = {}, options: CallOptions = {}): AsyncGenerator<Vacancy> {
    for await (const page of this.vacancyPages(query, options)) yield* page.items;
  }

  candidatePages(query: Omit<ListCandidatesQuery, 'cursor'> = {}, options: CallOptions = {}): AsyncGenerator<Page<CandidatePage>> {
    return pages((cursor) => this.listCandidates({ ...query, cursor }, options));
  }

  async *candidates(query: Omit<ListCandidatesQuery, 'cursor'> = {}, options: CallOptions = {}): AsyncGenerator<Candidate> {
    for await (const page of this.candidatePages(query, options)) yield* page.items;
  }

  /**
   * Sends an application (scope applications:write). Retried on 429 (after Retry-After), 502-504 and network
   * failures: safe, since the service creates at most one card per externalId. A repeat answers
   * status 'duplicate' with the id of the card, whether the earlier one was this call's own attempt or not.
   */
  async submitApplication(application: ApplicationRequest, options: CallOptions = {}): Promise<ApplicationResult> {
    const response = await send(this.transport, { method: 'POST', path: '/applications', body: application, expect: [200, 201], ...options });
    const body = response.body as ApplicationCreated | ApplicationDuplicate;
    return {
      ...body,
      replayed: response.headers.get('idempotent-replayed') === 'true',
      bodyDiffers: response.headers.get('idempotency-conflict') === 'body-differs',
      requestId: response.headers.get('x-request-id'),
      attempts: response.attempts,
    };
  }

  /** One sync run of the chosen resources into the given targets; see SyncOptions. */
  sync(options: SyncOptions): Promise<SyncReport> {
    return runSync(this, options);
  }

  private async listPage(
    path: '/vacancies' | '/candidates',
    query: ListVacanciesQuery | ListCandidatesQuery,
    options: CallOptions,
    extra: { readonly fields?: 'id'; readonly etag?: string } = {},
  ): Promise<Page<VacancyPage | CandidatePage | IdPage> | NotModified> {
    const { since, ...rest } = query;
    const conditional = extra.etag === undefined ? {} : { ifNoneMatch: extra.etag };
    const response = await send(this.transport, {
      method: 'GET',
      path,
      query: { ...rest, since: sinceOf(since), fields: extra.fields },
      expect: extra.etag === undefined ? [200] : [200, 304],
      ...options,
      ...conditional,
    });
    if (response.status === 304) return { ...metaOf(response), notModified: true };
    return { ...(response.body as VacancyPage | CandidatePage | IdPage), ...metaOf(response) };
  }
}

async function* pages<P extends { nextCursor: string | null }>(fetchPage: (cursor: string | undefined) => Promise<P>): AsyncGenerator<P> {
  let cursor: string | undefined;
  do {
    const page = await fetchPage(cursor);
    yield page;
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
}

function sinceOf(since: string | Date | null | undefined): string | undefined {
  if (since === null || since === undefined) return undefined;
  return since instanceof Date ? since.toISOString() : since;
}

const RATE_LIMIT = /"default";r=(\d+);t=(\d+)/;

function metaOf(response: TransportResponse): PageMeta {
  const rate = RATE_LIMIT.exec(response.headers.get('ratelimit') ?? '');
  return {
    etag: response.headers.get('etag'),
    watermark: response.headers.get('x-sync-watermark') ?? '',
    requestId: response.headers.get('x-request-id'),
    rateLimit: rate === null ? null : { remaining: Number(rate[1]), resetSeconds: Number(rate[2]) },
  };
}
