import { expect } from 'chai';
import type { PgUnitOfWorkOptions } from '../../adapters/persistence/postgres/pg-unit-of-work.js';
import type { CandidateView } from '../../application/ports/candidate-repository.port.js';
import type { VacancyView } from '../../application/ports/vacancy-repository.port.js';
import { anApplication, aVacancyInput } from '../support/builders.js';
import { candidateJsonOf, candidateViewOf, vacancyViewOf } from '../support/listed-records.js';
import { usePostgresTestDatabase } from '../support/postgres-test-database.js';
import { postgresUseCases, type PostgresUseCases } from '../support/postgres-use-cases.js';
import { DatabaseProbe, WriteGate } from './sync-write-gate.js';

interface Outcome {
  /** What the client saw of the record, pass after pass. */
  readonly seen: string[];
  /** Whether the client's pass waited for the open write. */
  readonly readerWaited: boolean;
}

interface Pass<T> {
  readonly items: T[];
  /** The first response's watermark: the `since` of the next run (sync rule 5). */
  readonly watermark: Date;
}

/** One pass by the sync rules: since the last watermark, page by page until nextCursor is null. */
async function candidatePass(useCases: PostgresUseCases, companyId: string, since: Date | null): Promise<Pass<CandidateView>> {
  const items: CandidateView[] = [];
  let cursor: string | null = null;
  let watermark: Date | undefined;
  do {
    const result = await useCases.listCandidates.execute({ companyId, since, vacancyId: null, limit: 2, cursor });
    watermark ??= result.watermark;
    items.push(...result.page.items.map(candidateViewOf));
    cursor = result.page.nextCursor;
  } while (cursor !== null);
  return { items, watermark: watermark as Date };
}

async function vacancyPass(useCases: PostgresUseCases, companyId: string, since: Date | null): Promise<Pass<VacancyView>> {
  const items: VacancyView[] = [];
  let cursor: string | null = null;
  let watermark: Date | undefined;
  do {
    const result = await useCases.listVacancies.execute({ companyId, since, status: 'all', limit: 2, cursor });
    watermark ??= result.watermark;
    items.push(...result.page.items.map(vacancyViewOf));
    cursor = result.page.nextCursor;
  } while (cursor !== null);
  return { items, watermark: watermark as Date };
}

describe('Sync on PostgreSQL never loses a change whose write was open during a pass', () => {
  const database = usePostgresTestDatabase();
  let probe: DatabaseProbe;
  beforeEach(async () => {
    probe = await DatabaseProbe.open(database().businessUrl);
  });
  afterEach(() => probe.close());

  /**
   * With a write held open at the gate: the client's pass from `since`, whether it waited for the write,
   * then the write let go, and one more pass from the watermark that pass gave.
   */
  async function passesAroundHeldWrite<T>(gate: WriteGate, writer: Promise<unknown>, pass: (since: Date) => Promise<Pass<T>>, since: Date) {
    const second = pass(since);
    const readerWaited = await probe.waitsForLock(second);
    gate.release();
    await writer;
    const secondPass = await second;
    const third = await pass(secondPass.watermark);
    return { passes: [secondPass, third], readerWaited };
  }

  /** A company with one vacancy and three applications (externalIds a, b, c), on use cases with a write gate. */
  async function threeApplications(options: Omit<PgUnitOfWorkOptions, 'beforeCommit'>) {
    const gate = new WriteGate();
    const useCases = postgresUseCases(database(), { ...options, beforeCommit: gate.seam });
    const { id: companyId } = await useCases.createCompany.execute({ name: 'ТОО «Синхрон»' });
    const [vacancy] = await useCases.upsertVacancies.execute({ companyId, vacancies: [aVacancyInput()] });
    const vacancyId = vacancy?.id as string;
    const ids: string[] = [];
    for (const externalId of ['a', 'b', 'c']) ids.push((await useCases.submitApplication.execute({ companyId, application: anApplication({ vacancyId, externalId }) })).id);
    return { gate, useCases, companyId, vacancyId, ids };
  }

  /**
   * A client synced up to a watermark. A write (a candidate moves to INTERVIEW) is held open at COMMIT
   * while the client makes its next pass; it commits; the client makes one more pass from the watermark
   * it was given. Returns the stages the client saw for that candidate, in order, and whether its pass
   * had to wait for the write.
   */
  async function candidateScenario(options: Omit<PgUnitOfWorkOptions, 'beforeCommit'>): Promise<Outcome> {
    const { gate, useCases, companyId, ids } = await threeApplications(options);
    const moved = ids[1] as string;
    const first = await candidatePass(useCases, companyId, null);
    const seen = first.items.filter((c) => c.id === moved).map((c) => c.stage as string);

    gate.arm();
    const writer = useCases.moveCandidate.execute({ companyId, id: moved, stage: 'INTERVIEW' });
    const writeNow = await gate.held;
    // Make "the change is older than the reader's clock" certain, not a matter of milliseconds.
    await probe.waitForClockPast(writeNow);
    const { passes, readerWaited } = await passesAroundHeldWrite(gate, writer, (since) => candidatePass(useCases, companyId, since), first.watermark);

    for (const pass of passes) seen.push(...pass.items.filter((c) => c.id === moved).map((c) => c.stage as string));
    return { seen, readerWaited };
  }

  /**
   * The same with a new application (an append: appends do not wait for each other, but reads wait for
   * them): returns the externalIds of the new cards the client saw, pass after pass.
   */
  async function applicationScenario(options: Omit<PgUnitOfWorkOptions, 'beforeCommit'>): Promise<Outcome> {
    const { gate, useCases, companyId, vacancyId } = await threeApplications(options);
    const first = await candidatePass(useCases, companyId, null);

    gate.arm();
    const writer = useCases.submitApplication.execute({ companyId, application: anApplication({ vacancyId, externalId: 'late' }) });
    await probe.waitForClockPast(await gate.held);
    // Another application is stored meanwhile: appends do not queue behind the open one.
    await useCases.submitApplication.execute({ companyId, application: anApplication({ vacancyId, externalId: 'alongside' }) });
    const { passes, readerWaited } = await passesAroundHeldWrite(gate, writer, (since) => candidatePass(useCases, companyId, since), first.watermark);

    const seen = [first, ...passes].flatMap((pass) => pass.items.map((c) => c.externalId as string).filter((id) => id === 'late'));
    return { seen, readerWaited };
  }

  it('delivers an application stored while a pass was running, with the company lock', async () => {
    expect(await applicationScenario({ barrierReuseMs: 0 })).to.deep.equal({ seen: ['late'], readerWaited: true });
  });

  it('loses that application without the company lock', async () => {
    expect(await applicationScenario({ companyLock: false, barrierReuseMs: 0 })).to.deep.equal({ seen: [], readerWaited: false });
  });

  it('delivers a candidate change committed while a pass was running, with the company lock', async () => {
    expect(await candidateScenario({ barrierReuseMs: 0 })).to.deep.equal({ seen: ['NEW', 'INTERVIEW'], readerWaited: true });
  });

  it('delivers it as well when the pass reuses a barrier taken before the write began, without waiting for it', async () => {
    // The first pass's barrier serves the second: the write took the lock after it, so its stamp is later.
    expect(await candidateScenario({ barrierReuseMs: 60_000 })).to.deep.equal({ seen: ['NEW', 'INTERVIEW'], readerWaited: false });
  });

  it('loses that change without the company lock: the protocol is what delivers it', async () => {
    expect(await candidateScenario({ companyLock: false, barrierReuseMs: 0 })).to.deep.equal({ seen: ['NEW'], readerWaited: false });
  });

  /** The same with a vacancy whose status changes; returns the statuses the client saw. */
  async function vacancyScenario(options: Omit<PgUnitOfWorkOptions, 'beforeCommit'>): Promise<Outcome> {
    const gate = new WriteGate();
    const useCases = postgresUseCases(database(), { ...options, beforeCommit: gate.seam });
    const { id: companyId } = await useCases.createCompany.execute({ name: 'ТОО «Синхрон»' });
    await useCases.upsertVacancies.execute({ companyId, vacancies: ['v1', 'v2', 'v3'].map((id) => ({ ...aVacancyInput(), id })) });
    const first = await vacancyPass(useCases, companyId, null);
    const seen = first.items.filter((v) => v.id === 'v2').map((v) => v.status as string);

    gate.arm();
    const changed = { ...aVacancyInput({ status: 'paused' }), id: 'v2' };
    const writer = useCases.upsertVacancies.execute({ companyId, vacancies: [changed] });
    await probe.waitForClockPast(await gate.held);
    const { passes, readerWaited } = await passesAroundHeldWrite(gate, writer, (since) => vacancyPass(useCases, companyId, since), first.watermark);

    for (const pass of passes) seen.push(...pass.items.filter((v) => v.id === 'v2').map((v) => v.status as string));
    return { seen, readerWaited };
  }

  it('delivers a vacancy change committed while a pass was running, with the company lock', async () => {
    expect(await vacancyScenario({ barrierReuseMs: 0 })).to.deep.equal({ seen: ['open', 'paused'], readerWaited: true });
  });

  it('loses that vacancy change without the company lock', async () => {
    expect(await vacancyScenario({ companyLock: false, barrierReuseMs: 0 })).to.deep.equal({ seen: ['open'], readerWaited: false });
  });

  it('lets concurrent reads of a company share one barrier, each seeing the write it waited for', async () => {
    const gate = new WriteGate();
    const useCases = postgresUseCases(database(), { beforeCommit: gate.seam, barrierReuseMs: 0 });
    const { id: companyId } = await useCases.createCompany.execute({ name: 'ТОО «Синхрон»' });
    const [vacancy] = await useCases.upsertVacancies.execute({ companyId, vacancies: [aVacancyInput()] });
    const { id } = await useCases.submitApplication.execute({ companyId, application: anApplication({ vacancyId: vacancy?.id as string, externalId: 'a' }) });

    gate.arm();
    const writer = useCases.moveCandidate.execute({ companyId, id, stage: 'INTERVIEW' });
    const writeNow = await gate.held;
    const reads = Array.from({ length: 6 }, () => useCases.listCandidates.execute({ companyId, since: null, vacancyId: null, limit: 10, cursor: null }));
    for (let i = 0; i < 200 && (await probe.lockWaiters()) === 0; i++) await new Promise((resolve) => setTimeout(resolve, 5));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const waiters = await probe.lockWaiters();
    gate.release();
    await writer;
    const results = await Promise.all(reads);

    expect(waiters, 'one barrier statement waits for the write, not one per read').to.equal(1);
    expect(results.map((r) => r.page.items.map((c) => candidateJsonOf(c).stage))).to.deep.equal(results.map(() => ['INTERVIEW']));
    expect(new Set(results.map((r) => r.watermark.getTime())).size).to.equal(1);
    expect(results[0]?.watermark.getTime()).to.be.at.least(writeNow.getTime());
  });
});
