import { expect } from 'chai';
import fc from 'fast-check';
import { executeInlined } from '../../adapters/persistence/postgres/pg-statements.js';
import { inOwnTransaction } from '../../adapters/persistence/postgres/pg-transaction.js';
import { TIMESTAMP_PARAM, epochMs, timestampParams } from '../../adapters/persistence/postgres/sql-values.js';
import { usePostgresTestDatabase } from '../support/postgres-test-database.js';

/** The range of PostgreSQL's timestamptz that a JS Date reaches: 4713-11-24 BC to the end of Date's range. */
const EARLIEST = Date.parse('-004713-11-24T00:00:00.000Z');
const LATEST = 8.64e15;
/** Where epochMs changes how it computes (sql-values.ts), and where float8 microseconds since 1970 stop being exact. */
const EDGES = ['1800-01-01T00:00:00.000Z', '2200-01-01T00:00:00.000Z', '1685-01-01T00:00:00.000Z', '2255-06-01T00:00:00.000Z'].map(Date.parse);

describe('Stored instants read as epoch milliseconds (epochMs, PostgreSQL)', () => {
  const database = usePostgresTestDatabase();

  /** epochMs over instants as a column holds them (a timestamptz built exactly, TIMESTAMP_PARAM), in a session zone. */
  async function readBack(instants: readonly number[], zone: string): Promise<(number | null)[]> {
    const selects = instants.map((_, i) => `select ${i} as n, ${epochMs('t')} as ms from (select ${TIMESTAMP_PARAM} as t) as stored`);
    return inOwnTransaction(database().databases.business, async (tx) => {
      await executeInlined(tx, `set local time zone '${zone}'`);
      const rows = await executeInlined<{ n: number; ms: number | null }>(tx, `${selects.join(' union all ')} order by n`, instants.flatMap((t) => timestampParams(new Date(t))));
      return rows.map((row) => row.ms);
    });
  }

  it('gives every whole millisecond exactly, in the years read fast and beyond them, in any session time zone', async () => {
    const instant = fc.oneof(
      // `|| 0`: a drawn -0 stays -0 through Math.floor, and PostgreSQL answers 0.
      fc.double({ min: EARLIEST, max: LATEST, noNaN: true }).map((t) => Math.floor(t) || 0),
      // Now's years, where the service's own stamps (a card's, a vacancy's updatedAt) fall.
      fc.integer({ min: Date.parse('2000-01-01T00:00:00Z'), max: Date.parse('2100-01-01T00:00:00Z') }),
      fc.tuple(fc.constantFrom(EARLIEST, LATEST, 0, ...EDGES), fc.integer({ min: -3, max: 3 })).map(([t, d]) => Math.min(LATEST, Math.max(EARLIEST, t + d))),
    );
    const zones = fc.constantFrom('UTC', 'Asia/Almaty', 'America/St_Johns');
    await fc.assert(
      fc.asyncProperty(fc.array(instant, { minLength: 1, maxLength: 200 }), zones, async (instants, zone) => {
        expect(await readBack(instants, zone)).to.deep.equal(instants);
      }),
      { seed: 20_261_202, numRuns: 60 },
    );
  });

  it('is exact far from now, where float8 seconds would miss the millisecond', async () => {
    // Late in the range a float8 of microseconds is a multiple of 1024: rounded, a few of these would be off by one.
    const late = Array.from({ length: 400 }, (_, i) => LATEST - 86_400_000 * 365 * i - 7 * i);
    expect(await readBack(late, 'UTC')).to.deep.equal(late);
  });

  it('keeps a null null', async () => {
    const rows = await executeInlined<{ ms: number | null }>({ db: database().databases.business, transaction: undefined }, `select ${epochMs('null::timestamptz')} as ms`);
    expect(rows).to.deep.equal([{ ms: null }]);
  });
});
