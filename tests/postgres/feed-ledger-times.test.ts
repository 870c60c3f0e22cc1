import { expect } from 'chai';
import pg from 'pg';
import { MikroOrmFeedLedger } from '../../adapters/persistence/postgres/mikro-orm-feed-ledger.js';
import { openDatabases, type Databases } from '../../infrastructure/database/open-databases.js';
import { nextId, T0 } from '../support/builders.js';
import { usePostgresTestDatabase } from '../support/postgres-test-database.js';

/**
 * The platform's times the feed ledger keeps (a deletion's, a revived vacancy's floor) are read back exactly
 * whatever the database session's DateStyle and TimeZone, which a timestamptz's text follows: in German or
 * day-first style a day and a month swap, and before about 1900 a zone's local mean time prints an offset with
 * seconds that Date cannot parse.
 */
describe('FeedLedger on PostgreSQL: times read back exactly in any session DateStyle and TimeZone', () => {
  const database = usePostgresTestDatabase();
  let opened: Databases | undefined;

  after(async () => {
    await opened?.close();
  });

  it('reads a deletion\'s time and a revived floor\'s time as they were written, by versionsOf and by the claims', async () => {
    const url = database().businessUrl;
    const name = decodeURIComponent(new URL(url).pathname.slice(1));
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query(`alter database "${name}" set datestyle = 'SQL, DMY'`);
      await admin.query(`alter database "${name}" set timezone = 'Europe/Berlin'`);
    } finally {
      await admin.end();
    }
    // New sessions take the database's settings.
    opened = await openDatabases({ databaseUrl: url, keysDatabaseUrl: null, dataDir: 'var/unused', poolMax: 2 });
    const ledger = new MikroOrmFeedLedger(opened.business);
    const companyId = nextId('co');
    const deleted = { companyId, kind: 'vacancy' as const, id: nextId('vac') };
    const revived = { companyId, kind: 'vacancy' as const, id: nextId('vac') };
    const march5 = new Date('2026-03-05T10:00:00.123Z');
    const yearOne = new Date('0001-01-01T00:00:00.000Z');
    await ledger.recordDeletion(deleted, 2, T0, march5);
    await ledger.recordVersions(revived, ['revived-after'], 4, T0, yearOne);
    expect((await ledger.versionsOf(deleted)).deletedTime?.toISOString()).to.equal(march5.toISOString());
    expect((await ledger.versionsOf(revived)).times.get('revived-after')?.toISOString()).to.equal(yearOne.toISOString());
    const [claimed] = await ledger.claimEvents([{ source: 'urn:test', eventId: nextId('ev'), companyId, entity: deleted, vacancyId: revived.id }], T0);
    expect(claimed?.versions.deletedTime?.toISOString()).to.equal(march5.toISOString());
    expect(claimed?.vacancy?.times.get('revived-after')?.toISOString()).to.equal(yearOne.toISOString());
  });
});
