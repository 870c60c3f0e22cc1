import { expect } from 'chai';
import pg from 'pg';
import { REGISTRY_MIGRATIONS } from '../../adapters/persistence/postgres/migrations/migration-sets.js';
import { MIGRATION_LOCK_NAMESPACE } from '../../infrastructure/database/migrate-databases.js';
import { stablePort } from '../support/stable-port.js';
import { createThrowawayDatabaseUrl } from '../support/postgres-test-database.js';
import { runAdmin } from './support/run-admin.js';

describe('admin CLI without its database (processes)', function () {
  this.timeout(60_000);

  it('says on one line that it cannot open the database, where it looked (never the password) and why, and exits 1', async () => {
    const port = await stablePort();
    for (const args of [['key', 'list', '--company', 'x'], ['company', 'create', '--name', 'x'], ['migrate']]) {
      const run = await runAdmin(args, { env: { DATABASE_URL: `postgresql://postgres:s3cret-pw@127.0.0.1:${port}/crm`, DB_CONNECT_TIMEOUT_MS: '2000' } });
      expect(run.status, args.join(' ')).to.equal(1);
      expect(run.stdout).to.equal('');
      expect(run.stderr.trimEnd().split('\n'), `${args.join(' ')}: ${run.stderr}`).to.have.length(1);
      expect(run.stderr).to.match(new RegExp(`^error: Cannot open the database \\(DATABASE_URL postgresql://127\\.0\\.0\\.1:${port}/crm\\): .*ECONNREFUSED`));
      expect(run.stderr).to.not.contain('s3cret-pw');
    }
  });
});

describe('admin migrate when a migration fails (processes)', function () {
  this.timeout(60_000);
  let database: { url: string; drop: () => Promise<void> } | undefined;
  after(async () => {
    await database?.drop();
  });

  it('says on one line that it cannot apply the migrations, where (never the password) and why, not that it cannot open the database', async () => {
    database = await createThrowawayDatabaseUrl();
    // A history table the migrator cannot read: the database opens, the migrations fail.
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      await client.query('drop table mikro_orm_migrations_business');
      await client.query('create table mikro_orm_migrations_business (unexpected int)');
    } finally {
      await client.end();
    }
    const run = await runAdmin(['migrate'], { env: { DATABASE_URL: database.url } });
    expect(run.status, run.stderr).to.equal(1);
    expect(run.stdout).to.equal('');
    expect(run.stderr.trimEnd().split('\n'), run.stderr).to.have.length(1);
    expect(run.stderr, run.stderr).to.match(/^error: Cannot apply the migrations \(DATABASE_URL postgres(ql)?:\/\/[^ ]+\): .*column "id" does not exist/);
    const password = decodeURIComponent(new URL(database.url).password);
    if (password !== '') expect(run.stderr).to.not.contain(password);
  });

  it('says that it cannot apply the migrations, not that it cannot open the database, when a migration\'s statement times out', async () => {
    const timedOut = await createThrowawayDatabaseUrl();
    const holder = new pg.Client({ connectionString: timedOut.url });
    await holder.connect();
    try {
      // The database opens; the migrator's first statement, waiting for the migration lock held here, times out.
      const name = decodeURIComponent(new URL(timedOut.url).pathname.slice(1));
      await holder.query(`alter database "${name}" set statement_timeout = '300ms'`);
      await holder.query('begin');
      await holder.query('set local statement_timeout = 0');
      await holder.query('select pg_advisory_xact_lock($1, hashtext($2))', [MIGRATION_LOCK_NAMESPACE, REGISTRY_MIGRATIONS.tableName]);
      const run = await runAdmin(['migrate'], { env: { DATABASE_URL: timedOut.url } });
      expect(run.status, run.stderr).to.equal(1);
      expect(run.stderr.trimEnd().split('\n'), run.stderr).to.have.length(1);
      expect(run.stderr, run.stderr).to.match(/^error: Cannot apply the migrations \(DATABASE_URL postgres(ql)?:\/\/[^ ]+\): .*statement timeout/);
    } finally {
      await holder.end();
      await timedOut.drop();
    }
  });

  it('says that it cannot open the database when the database refuses the login', async () => {
    const url = new URL((database ??= await createThrowawayDatabaseUrl()).url);
    url.username = 'no_such_role_here';
    url.password = 's3cret-pw';
    const run = await runAdmin(['migrate'], { env: { DATABASE_URL: url.toString() } });
    expect(run.status, run.stderr).to.equal(1);
    expect(run.stderr.trimEnd().split('\n'), run.stderr).to.have.length(1);
    expect(run.stderr, run.stderr).to.match(/^error: Cannot open the database \(DATABASE_URL postgres(ql)?:\/\/[^ ]+\): .*no_such_role_here/);
    expect(run.stderr).to.not.contain('s3cret-pw');
  });
});
