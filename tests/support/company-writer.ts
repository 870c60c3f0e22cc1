import type { VacancyStatus } from '../../domain/vacancy/vacancy-status.js';
import { aPerson, aReferral, aResume, aVacancyInput } from './builders.js';
import type { TestServer } from './http-test-server.js';

const STATUSES: readonly VacancyStatus[] = ['open', 'paused', 'closed', 'archived', 'draft'];
const STAGES = ['NEW', 'AI_DIALOG', 'INTERVIEW', 'OFFER', 'ONBOARDING', 'REJECTION'];
const NAMES = ['Айгерим Нурланова', 'Шахзод Рахимов', 'Дилноза Юсупова', 'Ержан Сапаров', 'Гульнара Ибрагимова', 'Тимур Алиев'];

/** A small deterministic generator (mulberry32), so that a failing run can be repeated. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Writes to one company the way its recruiters and the job-board import do: vacancies inserted, changed
 * (status, salary; never the title, which does not touch candidates) and deleted; cards added, moved,
 * transferred, their resumes updated, cards deleted. It knows which records live, so every write is
 * one the platform accepts, and which ids it deleted.
 */
export class CompanyWriter {
  readonly vacancyIds: string[] = [];
  readonly candidateIds: string[] = [];
  readonly deletedVacancies = new Set<string>();
  readonly deletedCandidates = new Set<string>();
  writes = 0;
  private counter = 0;
  private readonly titles = new Map<string, string>();

  constructor(
    private readonly server: TestServer,
    private readonly companyId: string,
    private readonly random: () => number,
  ) {}

  async seed(vacancies: number, candidates: number): Promise<void> {
    for (let i = 0; i < vacancies; i++) await this.insertVacancy();
    for (let i = 0; i < candidates; i++) await this.insertCandidate();
  }

  /** `count` writes, one after another. */
  async write(count: number): Promise<void> {
    for (let i = 0; i < count; i++) await this.step();
  }

  private async step(): Promise<void> {
    const roll = this.random();
    this.writes += 1;
    if (roll < 0.12 || this.vacancyIds.length < 2) return this.insertVacancy();
    if (roll < 0.27) return this.changeVacancy(this.pick(this.vacancyIds));
    if (roll < 0.32) return this.deleteVacancy(this.pick(this.vacancyIds));
    if (roll < 0.5 || this.candidateIds.length < 2) return this.insertCandidate();
    if (roll < 0.65) return this.ignoringRefusals(() => this.server.seed.moveCandidate.execute({ companyId: this.companyId, id: this.pick(this.candidateIds), stage: this.pick(STAGES) }));
    if (roll < 0.78) return this.ignoringRefusals(() => this.server.seed.updateResume.execute({ companyId: this.companyId, id: this.pick(this.candidateIds), resume: aResume({ summary: `Резюме, версия ${++this.counter}` }) }));
    if (roll < 0.86) return this.ignoringRefusals(() => this.server.seed.transferCandidate.execute({ companyId: this.companyId, id: this.pick(this.candidateIds), vacancyId: this.pick(this.vacancyIds) }));
    return this.deleteCandidate(this.pick(this.candidateIds));
  }

  private async insertVacancy(): Promise<void> {
    const title = `Вакансия №${++this.counter}`;
    const [vacancy] = await this.server.seed.upsertVacancies.execute({ companyId: this.companyId, vacancies: [aVacancyInput({ title, status: this.pick(STATUSES) })] });
    this.vacancyIds.push(vacancy!.id);
    this.titles.set(vacancy!.id, title);
  }

  private async changeVacancy(id: string): Promise<void> {
    const salary = 100_000 * (1 + Math.floor(this.random() * 20));
    // An upsert replaces the whole vacancy: the title is sent again as it was.
    await this.server.seed.upsertVacancies.execute({
      companyId: this.companyId,
      vacancies: [{ ...aVacancyInput({ title: this.titleOf(id), status: this.pick(STATUSES), salaryFrom: salary, salaryTo: salary * 2 }), id }],
    });
  }

  private async deleteVacancy(id: string): Promise<void> {
    await this.server.seed.deleteVacancy.execute({ companyId: this.companyId, id });
    this.vacancyIds.splice(this.vacancyIds.indexOf(id), 1);
    this.deletedVacancies.add(id);
  }

  private async insertCandidate(): Promise<void> {
    const vacancyId = this.pick(this.vacancyIds);
    const referral = this.random() < 0.3 ? aReferral() : null;
    const [card] = await this.server.seed.addCandidates.execute({
      companyId: this.companyId,
      candidates: [{ vacancyId, candidate: aPerson({ name: this.pick(NAMES) }), resume: aResume(), referral }],
    });
    this.candidateIds.push(card!.id);
  }

  private async deleteCandidate(id: string): Promise<void> {
    await this.server.seed.deleteCandidate.execute({ companyId: this.companyId, id });
    this.candidateIds.splice(this.candidateIds.indexOf(id), 1);
    this.deletedCandidates.add(id);
  }

  /**
   * A card whose vacancy was deleted cannot be moved or transferred, nor a card transferred to its own vacancy
   * (the writer picks vacancies at random): the platform refuses, as it should.
   */
  private async ignoringRefusals(write: () => Promise<unknown>): Promise<void> {
    try {
      await write();
    } catch (error) {
      // By code, not by class: under mocha and tsx a module can be loaded twice, making instanceof unreliable.
      const code = (error as { code?: unknown }).code;
      if (code !== 'conflict' && code !== 'transfer_to_own_vacancy') throw error;
    }
  }

  private titleOf(id: string): string {
    return this.titles.get(id)!;
  }

  private pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.random() * items.length)]!;
  }
}
