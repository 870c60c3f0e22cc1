import { expect } from 'chai';
import fc from 'fast-check';
import { listedCandidates } from '../../adapters/persistence/postgres/candidate-list-query.js';
import { TIMESTAMP_PARAM, timestampParams } from '../../adapters/persistence/postgres/sql-values.js';
import { executeInlined, type PgSession } from '../../adapters/persistence/postgres/pg-statements.js';
import { inOwnTransaction } from '../../adapters/persistence/postgres/pg-transaction.js';
import { listedVacancies } from '../../adapters/persistence/postgres/vacancy-list-query.js';
import { aManualCard, aVacancy, nextId } from '../support/builders.js';
import { usePostgresTestDatabase } from '../support/postgres-test-database.js';
import { answerOf, hookStatements } from '../support/statement-hook.js';
import { primaryStatements } from '../../adapters/persistence/postgres/replicas/list-page-reads.js';

/** The range of PostgreSQL's timestamptz that a JS Date reaches: 4713-11-24 BC to the end of Date's range. */
const EARLIEST = Date.parse('-004713-11-24T00:00:00.000Z');
const LATEST = 8.64e15;

/** Instants where a product of milliseconds in float8 would be off by microseconds: late in year 9999. */
const END_OF_9999 = ['9999-12-31T23:59:59.997Z', '9999-12-31T23:59:59.998Z', '9999-12-31T23:59:59.999Z'].map((text) => new Date(text));
const START_OF_0001 = ['0001-01-01T00:00:00.000Z', '0001-01-01T00:00:00.001Z'].map((text) => new Date(text));

describe('Instants a request chooses (since, a cursor position), as PostgreSQL receives them', () => {
  const database = usePostgresTestDatabase();
  const db = () => database().databases.business;

  it('reach PostgreSQL exactly, to the microsecond, from 4713 BC to the end of the JS Date range, in any session time zone', async () => {
    const instants = fc.oneof(
      fc.double({ min: EARLIEST, max: LATEST, noNaN: true }).map(Math.floor),
      fc.tuple(fc.constantFrom(EARLIEST, LATEST, 0, Date.parse('0000-01-01T00:00:00Z'), Date.parse('+010000-01-01T00:00:00Z'), ...END_OF_9999.map(Number)), fc.integer({ min: -5, max: 5 }))
        .map(([t, d]) => Math.min(LATEST, Math.max(EARLIEST, t + d))),
    );
    const zones = fc.constantFrom('UTC', 'Asia/Almaty', 'America/St_Johns', 'Pacific/Kiritimati');
    await fc.assert(
      fc.asyncProperty(instants, zones, async (t, zone) => {
        const rows = await inOwnTransaction(db(), async (tx) => {
          await executeInlined(tx, `set local time zone '${zone}'`);
          return executeInlined<{ ms: string }>(tx, `select (extract(epoch from ${TIMESTAMP_PARAM}) * 1000)::text as ms`, timestampParams(new Date(t)));
        });
        // Numeric text: a whole number of milliseconds, with no microseconds left over.
        expect(rows[0]?.ms, String(t)).to.match(/^-?\d+(\.0+)?$/);
        expect(BigInt(rows[0]!.ms.split('.')[0]!), new Date(t).toISOString()).to.equal(BigInt(t));
      }),
      { seed: 20_260_505, numRuns: 200 },
    );
  });

  it('keep the list of vacancies exact at the ends of the calendar: since at a record leaves it out, a millisecond earlier takes it in', async () => {
    const { vacancies } = database().adapters();
    const companyId = nextId('co');
    const stamped = [...START_OF_0001, ...END_OF_9999];
    for (const now of stamped) await vacancies.insert(aVacancy({ companyId, now }));
    const listSince = async (since: Date) => (await vacancies.list({ companyId, since, status: 'all', after: null, limit: 10 })).map((v) => v.updatedAt.getTime());
    for (const [index, now] of stamped.entries()) {
      expect(await listSince(now), `since ${now.toISOString()}`).to.deep.equal(stamped.slice(index + 1).map(Number));
      expect(await listSince(new Date(now.getTime() - 1)), `since ${now.toISOString()} - 1 ms`).to.deep.equal(stamped.slice(index).map(Number));
    }
    const all = await vacancies.list({ companyId, since: null, status: 'all', after: null, limit: 10 });
    for (const [index, vacancy] of all.entries()) {
      const after = await vacancies.list({ companyId, since: null, status: 'all', after: { modifiedAt: vacancy.updatedAt, id: vacancy.id }, limit: 10 });
      expect(after.map((v) => v.id), `after ${vacancy.updatedAt.toISOString()}`).to.deep.equal(all.slice(index + 1).map((v) => v.id));
    }
  });

  it('keep the list of candidates exact at the end of year 9999', async () => {
    const { vacancies, candidates } = database().adapters();
    const companyId = nextId('co');
    const vacancy = aVacancy({ companyId });
    await vacancies.insert(vacancy);
    for (const now of END_OF_9999) await candidates.insert(aManualCard({ companyId, vacancyId: vacancy.id, now }));
    for (const [index, now] of END_OF_9999.entries()) {
      for (const vacancyId of [null, vacancy.id]) {
        const listed = await candidates.list({ companyId, since: now, vacancyId, after: null, limit: 10 });
        expect(listed.map((c) => c.updatedAt.getTime()), `since ${now.toISOString()}`).to.deep.equal(END_OF_9999.slice(index + 1).map(Number));
      }
    }
  });

  it('are constants the sync indexes serve: the condition is an index condition, not a filter over the rows', async () => {
    const since = new Date('9999-12-31T23:59:59.999Z');
    const after = { modifiedAt: new Date('0000-06-01T00:00:00.000Z'), id: 'x' };
    const queries = [
      capture(database().businessUrl, (tx) => listedVacancies(primaryStatements(tx), { companyId: 'c', since, status: 'all', after, limit: 10 })),
      capture(database().businessUrl, (tx) => listedVacancies(primaryStatements(tx), { companyId: 'c', since, status: 'open', after: null, limit: 10 })),
      capture(database().businessUrl, (tx) => listedCandidates(primaryStatements(tx), { companyId: 'c', since, vacancyId: null, after, limit: 10 })),
      capture(database().businessUrl, (tx) => listedCandidates(primaryStatements(tx), { companyId: 'c', since: null, vacancyId: 'v', after, limit: 10 })),
    ];
    for (const { sql, params } of await Promise.all(queries)) {
      const plan = await inOwnTransaction(db(), async (tx) => {
        await executeInlined(tx, 'set local enable_seqscan = off');
        const rows = await executeInlined<{ 'QUERY PLAN': string }>(tx, `explain ${sql}`, params);
        return rows.map((row) => row['QUERY PLAN']).join('\n');
      });
      expect(plan, plan).to.match(/Index Cond: .*'[^']+'::timestamp with time zone/);
      expect(plan, plan).not.to.match(/Filter: .*(updated_at|modified_at)/);
      expect(plan, plan).not.to.match(/interval/);
    }
  });
});

/** The SQL a list query sends (values inlined), without running it. */
async function capture(url: string, run: (session: PgSession) => Promise<unknown>): Promise<{ sql: string; params: unknown[] }> {
  let sent: string | undefined;
  const recorder = hookStatements(url, (text) => {
    sent ??= text;
    return Promise.resolve(answerOf([]));
  });
  await run(recorder).finally(() => recorder.close());
  if (sent === undefined) throw new Error('the list query sent nothing');
  return { sql: sent, params: [] };
}
