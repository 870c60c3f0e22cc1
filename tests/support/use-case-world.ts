import type { Container } from 'inversify';
import type { PortToken } from '../../application/ports/port-token.js';
import type { CandidateView } from '../../application/ports/candidate-repository.port.js';
import type { VacancyView } from '../../application/ports/vacancy-repository.port.js';
import type { SubmitApplicationResult } from '../../application/use-cases/submit-application.use-case.js';
import type { InboundApplication } from '../../domain/inbound-application/inbound-application.js';
import type { VacancySnapshot, VacancyInput } from '../../domain/vacancy/vacancy.js';
import type { VacancyStatusFilter } from '../../domain/vacancy/vacancy-status.js';
import { buildContainer, disposeContainer } from '../../infrastructure/container/build-container.js';
import { IN_MEMORY_DATABASE } from '../../infrastructure/container/infrastructure.tokens.js';
import { resolve } from '../../infrastructure/container/typed-binding.js';
import { USE_CASES } from '../../infrastructure/container/use-case.tokens.js';
import { createLogger } from '../../infrastructure/logger.js';
import { anApplication, aVacancyInput } from './builders.js';
import { candidateViewOf, vacancyViewOf } from './listed-records.js';
import { ManualClock } from './manual-clock.js';

type UseCaseName = keyof typeof USE_CASES;
type UseCaseOf<K extends UseCaseName> = (typeof USE_CASES)[K] extends PortToken<infer T> ? T : never;

/** A wired container on the in-memory adapters, with a clock the test moves by hand. */
export class UseCaseWorld {
  private constructor(
    readonly container: Container,
    readonly clock: ManualClock,
  ) {}

  static async create(): Promise<UseCaseWorld> {
    const clock = new ManualClock();
    const container = await buildContainer({ profile: 'memory', clock, logger: createLogger('silent') });
    return new UseCaseWorld(container, clock);
  }

  async dispose(): Promise<void> {
    await disposeContainer(this.container);
  }

  use<K extends UseCaseName>(name: K): UseCaseOf<K> {
    return resolve(this.container, USE_CASES[name] as PortToken<UseCaseOf<K>>);
  }

  /** The stored rows, to check what is (and what is not) kept. */
  get database() {
    return resolve(this.container, IN_MEMORY_DATABASE);
  }

  async company(name = 'ТОО «Тест»'): Promise<string> {
    return (await this.use('createCompany').execute({ name })).id;
  }

  async vacancy(companyId: string, input: Partial<VacancyInput> & { id?: string } = {}): Promise<VacancySnapshot> {
    const [created] = await this.use('upsertVacancies').execute({ companyId, vacancies: [aVacancyInput(input)] });
    return created as VacancySnapshot;
  }

  async apply(companyId: string, application: Partial<InboundApplication> & { vacancyId: string }): Promise<SubmitApplicationResult> {
    return this.use('submitApplication').execute({ companyId, application: anApplication(application) });
  }

  /** Every candidate of a query, following nextCursor to the end, as the views the list's JSON shows. */
  async allCandidates(companyId: string, query: { since?: Date | null; vacancyId?: string | null; limit?: number } = {}): Promise<CandidateView[]> {
    const items: CandidateView[] = [];
    let cursor: string | null = null;
    do {
      const { page } = await this.use('listCandidates').execute({
        companyId, since: query.since ?? null, vacancyId: query.vacancyId ?? null, limit: query.limit ?? 100, cursor,
      });
      items.push(...page.items.map(candidateViewOf));
      cursor = page.nextCursor;
    } while (cursor !== null);
    return items;
  }

  /** Every vacancy of a query, following nextCursor to the end, as the views the list's JSON shows. */
  async allVacancies(companyId: string, query: { since?: Date | null; status?: VacancyStatusFilter; limit?: number } = {}): Promise<VacancyView[]> {
    const items: VacancyView[] = [];
    let cursor: string | null = null;
    do {
      const { page } = await this.use('listVacancies').execute({
        companyId, since: query.since ?? null, status: query.status ?? 'all', limit: query.limit ?? 100, cursor,
      });
      items.push(...page.items.map(vacancyViewOf));
      cursor = page.nextCursor;
    } while (cursor !== null);
    return items;
  }

  async candidate(companyId: string, id: string): Promise<CandidateView | undefined> {
    return (await this.allCandidates(companyId)).find((c) => c.id === id);
  }
}

/** A fresh world for every test of the suite that calls it. */
export function withWorld(): () => UseCaseWorld {
  let world: UseCaseWorld | undefined;
  beforeEach(async () => {
    world = await UseCaseWorld.create();
  });
  afterEach(async () => {
    await world?.dispose();
    world = undefined;
  });
  return () => {
    if (world === undefined) throw new Error('the world exists only inside a test');
    return world;
  };
}
