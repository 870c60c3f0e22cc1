import { expect } from 'chai';
import { stablePort } from '../support/stable-port.js';
import { DatabaseProbe } from '../../adapters/persistence/postgres/database-probe.js';
import { usePostgresTestDatabase } from '../support/postgres-test-database.js';

describe('DatabaseProbe (readiness\'s own connection)', () => {
  const database = usePostgresTestDatabase();

  it('answers true while the database answers, false where nothing listens, and false once closed', async () => {
    const probe = new DatabaseProbe(database().businessUrl, { connectTimeoutMs: 2_000 });
    expect(await probe.answers()).to.equal(true);
    expect(await probe.answers(), 'again, on its kept connection').to.equal(true);
    await probe.close();
    expect(await probe.answers(), 'closed').to.equal(false);
    const nowhere = new URL(database().businessUrl);
    nowhere.port = String(await stablePort());
    const unreachable = new DatabaseProbe(nowhere.toString(), { connectTimeoutMs: 2_000 });
    expect(await unreachable.answers()).to.equal(false);
    await unreachable.close();
  });

  it('reaches the database as the pools do, ignoring the URL\'s query (sslmode, host), which the pools ignore too', async () => {
    const url = new URL(database().businessUrl);
    url.searchParams.set('sslmode', 'require');
    url.searchParams.set('host', '/nonexistent-socket-dir');
    const probe = new DatabaseProbe(url.toString(), { connectTimeoutMs: 2_000 });
    try {
      expect(await probe.answers()).to.equal(true);
    } finally {
      await probe.close();
    }
  });
});
