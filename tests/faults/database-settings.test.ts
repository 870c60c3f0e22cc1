import { expect } from 'chai';
import { loadConfig } from '../../infrastructure/config.js';

describe('Database settings (DB_POOL_MAX, DB_*_TIMEOUT_MS)', () => {
  it('bound every wait by default, so that no request waits on the database unbounded', () => {
    const config = loadConfig({});
    expect(config.dbPoolMax).to.equal(10);
    expect(config.dbTimeouts).to.deep.equal({ statementMs: 10_000, connectMs: 3_000, acquireMs: 5_000, idleInTransactionMs: 30_000 });
  });

  it('take values from the environment; 0 turns off the statement and idle-in-transaction limits only', () => {
    const config = loadConfig({
      DB_POOL_MAX: '25', DB_STATEMENT_TIMEOUT_MS: '0', DB_CONNECT_TIMEOUT_MS: '1500', DB_ACQUIRE_TIMEOUT_MS: '2500', DB_IDLE_IN_TRANSACTION_TIMEOUT_MS: '0',
    });
    expect(config.dbPoolMax).to.equal(25);
    expect(config.dbTimeouts).to.deep.equal({ statementMs: 0, connectMs: 1_500, acquireMs: 2_500, idleInTransactionMs: 0 });
    expect(() => loadConfig({ DB_CONNECT_TIMEOUT_MS: '0' })).to.throw(/DB_CONNECT_TIMEOUT_MS must be a whole number from 100/);
    expect(() => loadConfig({ DB_ACQUIRE_TIMEOUT_MS: '5s' })).to.throw(/DB_ACQUIRE_TIMEOUT_MS/);
    expect(() => loadConfig({ DB_POOL_MAX: '0' })).to.throw(/DB_POOL_MAX/);
  });
});
