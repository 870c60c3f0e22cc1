import type { IntegrationClient, Vacancy } from '../../../clients/typescript/src/index.js';

export interface VacancyCatalogOptions {
  /** How long a fetched list is shown before it is read again. */
  readonly ttlMs: number;
  /** A link to a vacancy the cached list lacks reads the list again, at most this often. */
  readonly missRefreshMs?: number;
  readonly now?: () => number;
}

/**
 * The company's open vacancies, read from the API and kept for a short while, so that visitors browsing
 * the portal do not spend the key's request budget (the API has no "one vacancy" operation: a vacancy page
 * is found in the list). Concurrent readers share one fetch.
 */
export class VacancyCatalog {
  private cached: { readonly at: number; readonly vacancies: readonly Vacancy[] } | null = null;
  private pending: Promise<readonly Vacancy[]> | null = null;
  private readonly now: () => number;

  constructor(
    private readonly client: Pick<IntegrationClient, 'vacancies'>,
    private readonly options: VacancyCatalogOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  /** Open vacancies, newest publication first. */
  async openVacancies(): Promise<readonly Vacancy[]> {
    if (this.cached !== null && this.now() - this.cached.at < this.options.ttlMs) return this.cached.vacancies;
    return this.refresh();
  }

  /** An open vacancy by id, or null when it is not (or no longer) open. */
  async find(id: string): Promise<Vacancy | null> {
    const found = (await this.openVacancies()).find((vacancy) => vacancy.id === id);
    if (found !== undefined) return found;
    const age = this.cached === null ? Infinity : this.now() - this.cached.at;
    if (age < (this.options.missRefreshMs ?? 5_000)) return null;
    return (await this.refresh()).find((vacancy) => vacancy.id === id) ?? null;
  }

  private refresh(): Promise<readonly Vacancy[]> {
    this.pending ??= this.fetchAll().finally(() => (this.pending = null));
    return this.pending;
  }

  private async fetchAll(): Promise<readonly Vacancy[]> {
    // A vacancy changed while we page moves to the end of the order and comes twice: the later copy wins.
    const byId = new Map<string, Vacancy>();
    for await (const vacancy of this.client.vacancies({ status: 'open', limit: 500 })) byId.set(vacancy.id, vacancy);
    const vacancies = [...byId.values()].filter((vacancy) => vacancy.status === 'open').sort(byPublicationDesc);
    this.cached = { at: this.now(), vacancies };
    return vacancies;
  }
}

function byPublicationDesc(a: Vacancy, b: Vacancy): number {
  const when = (v: Vacancy) => v.publishedAt ?? v.createdAt;
  return when(b).localeCompare(when(a)) || a.title.localeCompare(b.title, 'ru');
}
