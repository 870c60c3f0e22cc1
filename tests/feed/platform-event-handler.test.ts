import { expect } from 'chai';
import { PlatformEventHandler, type FeedDecision } from '../../adapters/feed/platform-event-handler.js';
import { DETAIL_MAX_LENGTH } from '../../adapters/feed/event-problems.js';
import { PrometheusFeedMetrics } from '../../adapters/feed/feed-metrics.js';
import { StoreUnavailableError } from '../../application/ports/store-unavailable.error.js';
import type { ItemOutcome } from '../../application/use-cases/company-batches.js';
import { ChangeNotYetApplicableError, type PlatformEventCommand, type PlatformEventOutcome } from '../../application/use-cases/platform-change.js';
import { TransferToOwnVacancyError } from '../../domain/candidate/transfer-errors.js';
import { ConflictError, NotFoundError, ValidationError } from '../../domain/shared/domain-error.js';
import { withWorld } from '../support/use-case-world.js';

const COMPANY = '019a44f1-0000-7c3e-a5b1-3f6d9a2e4b10';
const META = { id: 'evt-1', type: 'candidate.moved', companyId: COMPANY, source: '/platform/kz' };

function movedEvent(overrides: Record<string, unknown> = {}): string {
  return JSON.stringify({
    specversion: '1.0', id: 'evt-1', source: '/platform/kz', type: 'candidate.moved', time: '2026-11-02T09:41:27.318Z',
    subject: 'card-1', companyid: COMPANY, entityversion: 2, data: { stage: 'OFFER' }, ...overrides,
  });
}

/** A stand-in for ApplyPlatformEvent: records the commands it gets and answers each, or fails it, as told. */
class FakeApply {
  readonly commands: PlatformEventCommand[] = [];
  constructor(private readonly answer: () => PlatformEventOutcome) {}
  async executeAll(commands: readonly PlatformEventCommand[]): Promise<ItemOutcome<PlatformEventOutcome>[]> {
    return commands.map((command) => {
      this.commands.push(command);
      try {
        return { value: this.answer() };
      } catch (error) {
        return { error };
      }
    });
  }
}

function failingWith(error: unknown): FakeApply {
  return new FakeApply(() => {
    throw error;
  });
}

async function decide(apply: FakeApply, attempt: number, maxAttempts = 3, body: Buffer | string = movedEvent()): Promise<FeedDecision> {
  return new PlatformEventHandler(apply, { maxAttempts }).handle({ body, attempt });
}

describe('PlatformEventHandler', () => {
  it('acks with the outcome of the use case, the command it read and the event time', async () => {
    for (const outcome of ['applied', 'duplicate', 'stale'] as const) {
      const apply = new FakeApply(() => outcome);
      expect(await decide(apply, 0, 3, Buffer.from(movedEvent()))).to.deep.equal({ action: 'ack', outcome, event: META, time: new Date('2026-11-02T09:41:27.318Z') });
      expect(apply.commands).to.deep.equal([
        { source: '/platform/kz', eventId: 'evt-1', companyId: COMPANY, subject: 'card-1', version: 2, change: { type: 'candidate.moved', stage: 'OFFER' } },
      ]);
    }
  });

  it('sets aside an event it cannot read, with the reason of the parser, and calls nothing', async () => {
    const apply = new FakeApply(() => 'applied');
    expect(await decide(apply, 0, 3, movedEvent({ type: 'candidate.archived' }))).to.deep.include({
      action: 'dead',
      reason: 'unknown_type',
      event: { ...META, type: 'candidate.archived' },
    });
    expect(await decide(apply, 0, 3, 'not json')).to.deep.equal({ action: 'dead', reason: 'invalid_json', detail: '(event): must be valid JSON', event: {} });
    expect(await decide(apply, 0, 3, movedEvent({ data: {} }))).to.deep.include({ action: 'dead', reason: 'invalid_data', detail: '/data/stage: is required' });
    expect(apply.commands).to.deep.equal([]);
  });

  it('retries while the database is away, past any number of attempts, never setting the event aside for that', async () => {
    for (const attempt of [0, 2, 50, 10_000]) {
      expect(await decide(failingWith(new StoreUnavailableError('ECONNREFUSED')), attempt)).to.deep.equal({
        action: 'retry',
        reason: 'store_unavailable',
        detail: 'The database cannot be reached (ECONNREFUSED).',
        event: META,
      });
    }
  });

  it('retries an event whose work the database ended at a timeout (a lock held elsewhere), past any number of attempts, as no outage', async () => {
    for (const attempt of [0, 2, 50]) {
      expect(await decide(failingWith(new StoreUnavailableError('57014', { workOnly: true })), attempt)).to.deep.equal({
        action: 'retry',
        reason: 'store_timeout',
        detail: "The database ended the event's work (57014: a statement or lock timeout, DB_STATEMENT_TIMEOUT_MS).",
        event: META,
      });
    }
  });

  it("names what ended an event's work in the retry's detail: a timeout, or a prepared statement its connection could no longer use", async () => {
    const detailOf = async (reason: string) => ((await decide(failingWith(new StoreUnavailableError(reason, { workOnly: true })), 0)) as { detail: string }).detail;
    expect(await detailOf('25P03')).to.equal("The database ended the event's work (25P03: an idle-in-transaction timeout, DB_IDLE_IN_TRANSACTION_TIMEOUT_MS).");
    for (const reason of ['26000', '0A000']) {
      expect(await detailOf(reason)).to.equal(`The database ended the event's work (${reason}: a prepared statement its connection could no longer use).`);
    }
  });

  it('retries a change not yet applicable until the event was taken maxAttempts times, then sets it aside', async () => {
    const error = new ChangeNotYetApplicableError('Candidate card-1 not found.');
    expect(await decide(failingWith(error), 0)).to.deep.equal({ action: 'retry', reason: 'not_yet_applicable', detail: 'Candidate card-1 not found.', event: META });
    expect(await decide(failingWith(error), 1)).to.include({ action: 'retry', reason: 'not_yet_applicable' });
    expect(await decide(failingWith(error), 2)).to.deep.equal({
      action: 'dead',
      reason: 'not_applicable',
      detail: 'Still not applicable after 3 attempts: Candidate card-1 not found.',
      event: META,
    });
    expect(await decide(failingWith(error), 0, 1)).to.include({ action: 'dead', reason: 'not_applicable' });
  });

  it('sets aside at once an event of a company that does not exist', async () => {
    expect(await decide(failingWith(new NotFoundError('company', `Company ${COMPANY} not found.`)), 0)).to.deep.equal({
      action: 'dead',
      reason: 'unknown_company',
      detail: `Company ${COMPANY} not found.`,
      event: META,
    });
  });

  it('sets aside at once a change that breaks a rule, naming where and which rule', async () => {
    const error = new ValidationError(
      [{ pointer: '/0/salaryFrom', message: 'must not be greater than salaryTo' }, { pointer: '/0/title', message: 'must not be blank' }],
      'The vacancy is invalid.',
    );
    expect(await decide(failingWith(error), 0)).to.deep.equal({
      action: 'dead',
      reason: 'rule_violated',
      detail: 'The vacancy is invalid. /0/salaryFrom: must not be greater than salaryTo; /0/title: must not be blank',
      event: META,
    });
    const many = new ValidationError(Array.from({ length: 500 }, (_, i) => ({ pointer: `/0/skills/${i}`, message: 'must be at most 200 characters' })));
    const decision = await decide(failingWith(many), 0);
    expect(decision.action === 'dead' && decision.detail.length).to.be.within(DETAIL_MAX_LENGTH - 60, DETAIL_MAX_LENGTH);
  });

  it('sets aside at once any other refusal of the domain, with its code', async () => {
    expect(await decide(failingWith(new TransferToOwnVacancyError('card-1', 'vac-1')), 0)).to.deep.equal({
      action: 'dead',
      reason: 'transfer_to_own_vacancy',
      detail: 'Candidate card-1 already belongs to vacancy vac-1; a transfer needs another vacancy.',
      event: META,
    });
    expect(await decide(failingWith(new ConflictError('Columns OFFER still hold cards.')), 0)).to.include({ action: 'dead', reason: 'conflict' });
    expect(await decide(failingWith(new NotFoundError('vacancy', 'Vacancy vac-9 not found.')), 0)).to.include({ action: 'dead', reason: 'not_found' });
  });

  it('retries an unexpected error until maxAttempts, then sets it aside, keeping its message out of the detail', async () => {
    const bug = new TypeError('Cannot read "Иван Петров"');
    const first = await decide(failingWith(bug), 0);
    expect(first).to.deep.equal({
      action: 'retry',
      reason: 'unexpected_error',
      detail: 'An unexpected TypeError stopped the event (attempt 1 of 3).',
      event: META,
      cause: bug,
    });
    const last = await decide(failingWith(bug), 2);
    expect(last).to.deep.equal({ action: 'dead', reason: 'unexpected_error', detail: 'An unexpected TypeError stopped the event (attempt 3 of 3).', event: META, cause: bug });
    expect(await decide(failingWith('a string'), 0)).to.include({ action: 'retry', reason: 'unexpected_error', detail: 'An unexpected string stopped the event (attempt 1 of 3).' });
  });

  it('refuses a maxAttempts that is not a whole number of at least 1', () => {
    for (const maxAttempts of [0, -1, 1.5, Number.NaN]) {
      expect(() => new PlatformEventHandler(new FakeApply(() => 'applied'), { maxAttempts }), String(maxAttempts)).to.throw(RangeError);
    }
  });

  it('hands the events of a company that queued while its earlier ones applied to the use case together, in order; other companies apart', async () => {
    const batches: string[][] = [];
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const apply = {
      executeAll: async (commands: readonly PlatformEventCommand[]): Promise<ItemOutcome<PlatformEventOutcome>[]> => {
        batches.push(commands.map((command) => `${command.companyId}:${command.eventId}`));
        if (batches.length === 1) await held;
        return commands.map(() => ({ value: 'applied' as const }));
      },
    };
    const sizes: number[] = [];
    const handler = new PlatformEventHandler(apply, { maxAttempts: 3, onBatch: (events) => sizes.push(events) });
    const of = (company: string, id: string) => handler.handle({ body: movedEvent({ id, companyid: company }), attempt: 0 });
    const first = of('a', 'e1');
    const queued = [of('a', 'e2'), of('a', 'e3'), of('b', 'e4')];
    await new Promise((resolve) => setImmediate(resolve));
    expect(batches, 'a\'s later events wait for its first; b goes on').to.deep.equal([['a:e1'], ['b:e4']]);
    release();
    const decisions = await Promise.all([first, ...queued]);
    expect(decisions.map((decision) => decision.action)).to.deep.equal(['ack', 'ack', 'ack', 'ack']);
    expect(batches).to.deep.equal([['a:e1'], ['b:e4'], ['a:e2', 'a:e3']]);
    expect(sizes, 'told of each batch, for the feed_batch_events histogram').to.deep.equal([1, 1, 2]);
  });

  it('applies at most maxConcurrentBatches batches at once, of all companies; the others wait their turn, and what their companies receive meanwhile joins the batch that waits', async () => {
    const started: string[][] = [];
    const releases: (() => void)[] = [];
    let running = 0;
    let most = 0;
    const apply = {
      executeAll: async (commands: readonly PlatformEventCommand[]): Promise<ItemOutcome<PlatformEventOutcome>[]> => {
        started.push(commands.map((command) => `${command.companyId}:${command.eventId}`));
        running++;
        most = Math.max(most, running);
        await new Promise<void>((resolve) => releases.push(resolve));
        running--;
        return commands.map(() => ({ value: 'applied' as const }));
      },
    };
    const handler = new PlatformEventHandler(apply, { maxAttempts: 3, maxConcurrentBatches: 2 });
    const of = (company: string, id: string) => handler.handle({ body: movedEvent({ id, companyid: company }), attempt: 0 });
    const settle = () => new Promise((resolve) => setImmediate(resolve));
    const decisions = [of('a', 'e1'), of('b', 'e2'), of('c', 'e3'), of('a', 'e4')];
    await settle();
    expect(started, 'two batches at once; c waits, holding nothing').to.deep.equal([['a:e1'], ['b:e2']]);
    decisions.push(of('c', 'e5'));
    releases.shift()?.();
    await settle();
    expect(started.slice(2), 'a freed a place: c\'s batch takes it, with what c received while it waited').to.deep.equal([['c:e3', 'c:e5']]);
    while (started.length < 4 || releases.length > 0) {
      releases.shift()?.();
      await settle();
    }
    expect((await Promise.all(decisions)).map((decision) => decision.action)).to.deep.equal(['ack', 'ack', 'ack', 'ack', 'ack']);
    expect(started.slice(3)).to.deep.equal([['a:e4']]);
    expect(most).to.equal(2);
    expect(() => new PlatformEventHandler(apply, { maxAttempts: 3, maxConcurrentBatches: 0 })).to.throw(RangeError);
  });

  it('counts the batches in feed_batch_events', async () => {
    const metrics = new PrometheusFeedMetrics({ processMetrics: false });
    for (const events of [1, 1, 3, 32]) metrics.batchApplied(events);
    const text = (await metrics.render()).text;
    expect(text).to.match(/^feed_batch_events_bucket\{le="1"\} 2$/m);
    expect(text).to.match(/^feed_batch_events_bucket\{le="4"\} 3$/m);
    expect(text).to.match(/^feed_batch_events_count 4$/m);
    expect(text).to.match(/^feed_batch_events_sum 37$/m);
  });

  describe('on the in-memory container', () => {
    const world = withWorld();

    function event(companyId: string, id: string, type: string, subject: string, entityversion: number, data?: unknown): string {
      return JSON.stringify({ specversion: '1.0', id, source: '/platform/kz', type, subject, companyid: companyId, entityversion, ...(data === undefined ? {} : { data }) });
    }

    it('applies an event once, retries a move whose card has not come yet, and sets aside what never applies', async () => {
      const companyId = await world().company();
      const handler = new PlatformEventHandler(world().use('applyPlatformEvent'), { maxAttempts: 3 });
      const handle = (body: string, attempt = 0) => handler.handle({ body, attempt });
      const move = event(companyId, 'e-3m', 'candidate.moved', 'card-1', 2, { stage: 'OFFER' });

      expect(await handle(move)).to.include({ action: 'retry', reason: 'not_yet_applicable' });
      const vacancy = event(companyId, 'e-1', 'vacancy.upserted', 'vac-1', 1, { title: 'Бэкенд-разработчик', status: 'open' });
      expect(await handle(vacancy)).to.include({ action: 'ack', outcome: 'applied' });
      expect(await handle(vacancy)).to.include({ action: 'ack', outcome: 'duplicate' });
      expect(await handle(event(companyId, 'e-2', 'candidate.added', 'card-1', 1, { vacancyId: 'vac-1', candidate: { name: 'Ержан Сапаров' }, stage: 'NEW' }))).to.include({ action: 'ack', outcome: 'applied' });
      expect(await handle(move, 1)).to.include({ action: 'ack', outcome: 'applied' });
      expect((await world().allCandidates(companyId)).map((c) => [c.id, c.vacancyId, c.stage])).to.deep.equal([['card-1', 'vac-1', 'OFFER']]);

      expect(await handle(event(companyId, 'e-3', 'vacancy.upserted', 'vac-1', 1, { title: 'Старое', status: 'open' }))).to.include({ action: 'ack', outcome: 'stale' });
      expect(await handle(event(companyId, 'e-4', 'vacancy.upserted', 'vac-1', 2, { title: 'Бэкенд', status: 'open', salaryFrom: 9, salaryTo: 1 }))).to.deep.include({
        action: 'dead',
        reason: 'rule_violated',
      });
      expect(await handle(event('no-such-company', 'e-5', 'vacancy.deleted', 'vac-1', 3))).to.deep.include({ action: 'dead', reason: 'unknown_company' });
      expect((await world().allVacancies(companyId)).map((v) => v.title)).to.deep.equal(['Бэкенд-разработчик']);
    });

    it('puts an added card in the column the platform names, even after a reordering of the board delivered before it', async () => {
      const companyId = await world().company();
      const handler = new PlatformEventHandler(world().use('applyPlatformEvent'), { maxAttempts: 3 });
      const handle = (body: string) => handler.handle({ body, attempt: 0 });
      expect(await handle(event(companyId, 'e-1', 'vacancy.upserted', 'vac-1', 1, { title: 'Бэкенд-разработчик', status: 'open' }))).to.include({ action: 'ack' });
      // The platform placed the card in NEW, then made SCREEN the first column; the feed delivers the two the other way round.
      expect(await handle(event(companyId, 'e-3', 'board.columns-set', 'vac-1', 2, { columns: ['SCREEN', 'NEW', 'OFFER'] }))).to.include({ action: 'ack', outcome: 'applied' });
      const candidate = { name: 'Ержан Сапаров' };
      expect(await handle(event(companyId, 'e-2', 'candidate.added', 'card-1', 1, { vacancyId: 'vac-1', candidate, stage: 'NEW' }))).to.include({ action: 'ack', outcome: 'applied' });
      expect((await world().allCandidates(companyId)).map((c) => [c.id, c.stage])).to.deep.equal([['card-1', 'NEW']]);

      // Without its stage a card would land in whatever column is first when it is applied: such an event is set aside.
      expect(await handle(event(companyId, 'e-4', 'candidate.added', 'card-2', 1, { vacancyId: 'vac-1', candidate }))).to.deep.include({
        action: 'dead',
        reason: 'invalid_data',
        detail: '/data/stage: is required',
      });
      expect((await world().allCandidates(companyId)).map((c) => c.id)).to.deep.equal(['card-1']);
    });
  });
});
