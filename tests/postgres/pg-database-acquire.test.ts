import { expect } from 'chai';
import { ACQUIRE_TIMEOUT_MESSAGE, PgDatabase } from '../../adapters/persistence/postgres/pg-database.js';
import { executeInlined } from '../../adapters/persistence/postgres/pg-statements.js';
import { translateStoreError } from '../../adapters/persistence/postgres/store-errors.js';
import { rejectionOf } from '../support/catching.js';
import { usePostgresTestDatabase } from '../support/postgres-test-database.js';

describe('PgDatabase: waiting for a connection of a full pool (DB_ACQUIRE_TIMEOUT_MS)', () => {
  const database = usePostgresTestDatabase();

  it('gives up the wait as a store outage, and gives back to the pool a connection granted after it', async () => {
    // The acquire bound far below pg's own connect bound, which also bounds its queue: the wait ends by ours.
    const db = new PgDatabase({ url: database().businessUrl, poolMax: 1, timeouts: { statementMs: 0, connectMs: 10_000, acquireMs: 200, idleInTransactionMs: 0 } });
    try {
      const held = await db.connect();
      const error = await rejectionOf(db.connect());
      expect((error as Error).message).to.equal(ACQUIRE_TIMEOUT_MESSAGE);
      expect(translateStoreError(error)).to.include({ name: 'StoreUnavailableError', reason: 'pool_timeout' });
      db.release(held);
      // The late grant went straight back: the pool's one connection serves the next statement.
      const rows = await executeInlined<{ one: number }>({ db, transaction: undefined }, 'select ?::int as one', [1]);
      expect(rows).to.deep.equal([{ one: 1 }]);
      expect(db.stats()).to.include({ total: 1, waiting: 0 });
    } finally {
      await db.close();
    }
  });
});
