import { expect } from 'chai';
import pg from 'pg';
import { COMPANY_LOCK_NAMESPACE, lockCompanyThenReadClock } from '../../adapters/persistence/postgres/company-lock.js';
import { inOwnTransaction } from '../../adapters/persistence/postgres/pg-transaction.js';
import { usePostgresTestDatabase } from '../support/postgres-test-database.js';

describe('The company lock and the clock, taken in one statement', () => {
  const database = usePostgresTestDatabase();

  for (const mode of ['read', 'append', 'write'] as const) {
    it(`reads the clock only once the ${mode} lock is granted, so that \`now\` is later than the holder's release`, async () => {
      const companyId = `lock-test-${mode}`;
      const holder = new pg.Client({ connectionString: database().businessUrl });
      await holder.connect();
      try {
        await holder.query('begin');
        await holder.query('select pg_advisory_xact_lock($1, hashtext($2))', [COMPANY_LOCK_NAMESPACE, companyId]);
        const waiting = inOwnTransaction(database().databases.business, (session) => lockCompanyThenReadClock(session, companyId, mode));
        await new Promise((resolve) => setTimeout(resolve, 200));
        const { rows } = await holder.query<{ ms: number }>('select floor(extract(epoch from clock_timestamp()) * 1000)::float8 as ms');
        await holder.query('commit');
        const now = await waiting;
        // Read before the wait, the clock would be some 200 ms earlier than the holder's last reading.
        expect(now.getTime()).to.be.at.least(rows[0]!.ms);
      } finally {
        await holder.end();
      }
    });
  }
});
