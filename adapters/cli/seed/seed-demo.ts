import { ADMIN_CLI_ACTOR } from '../../../application/use-cases/actor.js';
import { SCOPES } from '../../../domain/service-key/scope.js';
import type { VacancyStatus } from '../../../domain/vacancy/vacancy-status.js';
import type { AdminServices } from '../admin-services.js';
import type { CliIo } from '../cli-io.js';
import { demoCandidate, type DemoCandidate } from './demo-candidates.js';
import { demoVacancies, type DemoVacancy } from './demo-vacancies.js';
import { Progress } from './progress.js';
import { SeededRandom } from './seeded-random.js';

export interface SeedDemoOptions {
  readonly vacancies: number;
  readonly candidates: number;
  readonly seed: number;
  /** Cards per transaction (and per bulk insert). */
  readonly batchSize: number;
}

export interface SeedDemoResult {
  readonly companyId: string;
  readonly companyName: string;
  readonly key: string;
  readonly keyId: string;
  readonly scopes: readonly string[];
  readonly vacancies: number;
  readonly vacanciesByStatus: Record<string, number>;
  readonly customBoards: number;
  readonly candidates: number;
  readonly candidatesBySource: Record<string, number>;
  readonly referrals: number;
  readonly technicalCards: number;
  readonly seed: number;
}

const VACANCY_BATCH = 200;
const MAX_TRANSFERS = 100;

type StoredVacancy = DemoVacancy & { readonly id: string };

/**
 * A demo company with a key of every scope, vacancies of every status (some with custom boards) and
 * candidates of every origin (some referrals, some transferred), all through the use cases. The content
 * follows from the seed alone; ids, timestamps and the key differ from run to run.
 */
export async function seedDemo(services: AdminServices, io: CliIo, options: SeedDemoOptions): Promise<SeedDemoResult> {
  const random = new SeededRandom(options.seed);
  const company = await services.createCompany.execute({ name: `Демо-компания «Шёлковый путь» (seed ${options.seed})` });
  const companyId = company.id;
  const key = await services.issueKey.execute({ companyId, scopes: [...SCOPES], name: 'demo key, all scopes', expiresAt: null, actor: ADMIN_CLI_ACTOR });

  const vacancies = await storeVacancies(services, io, companyId, demoVacancies(random, options.vacancies));
  const customBoards = vacancies.filter((v) => v.customBoard);
  for (const v of customBoards) await services.setBoardColumns.execute({ companyId, vacancyId: v.id, columns: v.columns });

  const counts = apportion(options.candidates, vacancies.map((v) => v.appeal));
  const transferCount = vacancies.length < 2 || options.candidates === 0 ? 0 : Math.min(MAX_TRANSFERS, Math.ceil(options.candidates / 100));
  const stride = transferCount === 0 ? Number.POSITIVE_INFINITY : Math.floor(options.candidates / transferCount);
  const toTransfer: { id: string; vacancyIndex: number }[] = [];
  const bySource: Record<string, number> = {};
  let referrals = 0;

  const progress = new Progress(io, 'candidates', options.candidates);
  let batch: DemoCandidate[] = [];
  let batchStart = 0;
  let pending: Promise<void> = Promise.resolve();
  const flush = () => {
    const cards = batch;
    const first = batchStart;
    batch = [];
    batchStart += cards.length;
    // One batch is written while the next is generated; the company's write lock keeps them in order anyway.
    const previous = pending;
    pending = (async () => {
      await previous;
      const { ids } = await services.importCandidateBatch.execute({ companyId, candidates: cards.map((c) => c.load) });
      ids.forEach((id, i) => {
        if ((first + i) % stride === 0 && toTransfer.length < transferCount) {
          toTransfer.push({ id, vacancyIndex: vacancies.findIndex((v) => v.id === cards[i]?.load.vacancyId) });
        }
      });
      progress.advance(cards.length);
    })();
    // A failure surfaces where the next batch or the end awaits it, not as an unhandled rejection.
    pending.catch(() => undefined);
    return previous;
  };

  let sequence = 0;
  for (const [index, vacancy] of vacancies.entries()) {
    for (let k = 0; k < (counts[index] as number); k++) {
      const candidate = demoCandidate(random, vacancy, sequence++, services.jobBoardLabel);
      const source = candidate.load.origin.kind === 'manual' ? 'manual' : candidate.load.origin.source;
      bySource[source] = (bySource[source] ?? 0) + 1;
      if (candidate.load.referral !== null) referrals++;
      batch.push(candidate);
      if (batch.length >= options.batchSize) await flush();
    }
  }
  if (batch.length > 0) await flush();
  await pending;
  progress.finish();

  for (const card of toTransfer) {
    const target = (card.vacancyIndex + 1 + random.int(vacancies.length - 1)) % vacancies.length;
    await services.transferCandidate.execute({ companyId, id: card.id, vacancyId: (vacancies[target] as StoredVacancy).id });
  }

  return {
    companyId,
    companyName: company.name,
    key: key.key,
    keyId: key.id,
    scopes: key.scopes,
    vacancies: vacancies.length,
    vacanciesByStatus: countBy(vacancies.map((v) => v.input.status)),
    customBoards: customBoards.length,
    candidates: options.candidates,
    candidatesBySource: bySource,
    referrals,
    technicalCards: toTransfer.length,
    seed: options.seed,
  };
}

async function storeVacancies(services: AdminServices, io: CliIo, companyId: string, planned: readonly DemoVacancy[]): Promise<StoredVacancy[]> {
  const progress = new Progress(io, 'vacancies', planned.length);
  const stored: StoredVacancy[] = [];
  for (let start = 0; start < planned.length; start += VACANCY_BATCH) {
    const slice = planned.slice(start, start + VACANCY_BATCH);
    const saved = await services.upsertVacancies.execute({ companyId, vacancies: slice.map((v) => v.input) });
    saved.forEach((snapshot, i) => stored.push({ ...(slice[i] as DemoVacancy), id: snapshot.id }));
    progress.advance(slice.length);
  }
  progress.finish();
  return stored;
}

/** `total` split in proportion to the weights, whole numbers that add up (largest remainders get the rest). */
export function apportion(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, w) => a + w, 0);
  if (weights.length === 0) return [];
  if (sum <= 0) return weights.map((_, i) => Math.floor(total / weights.length) + (i < total % weights.length ? 1 : 0));
  const exact = weights.map((w) => (total * w) / sum);
  const counts = exact.map(Math.floor);
  let rest = total - counts.reduce((a, c) => a + c, 0);
  const order = exact.map((e, i) => ({ i, fraction: e - Math.floor(e) })).sort((a, b) => b.fraction - a.fraction || a.i - b.i);
  for (const { i } of order) {
    if (rest-- <= 0) break;
    counts[i] = (counts[i] as number) + 1;
  }
  return counts;
}

function countBy(values: readonly VacancyStatus[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const v of values) out[v] = (out[v] ?? 0) + 1;
  return out;
}
