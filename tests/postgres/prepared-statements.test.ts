import { expect } from 'chai';
import { tmpdir } from 'node:os';
import pg from 'pg';
import { pino } from 'pino';
import type { ApplyPlatformEvent } from '../../application/use-cases/apply-platform-event.use-case.js';
import { usePostgresTestDatabase } from '../support/postgres-test-database.js';

/**
 * DB_PREPARED_STATEMENTS (ADR 22): on, the unit of work's statements of a fixed text are prepared once per
 * connection and executed again by name, each planned for its values; off (the default, ADR 15), nothing stays prepared on a connection.
 * A pool of one connection puts every statement, and the look at pg_prepared_statements after them, on one
 * session. The figures come from the server, not from our own bookkeeping.
 */
describe('Prepared statements on and off (PostgreSQL)', function () {
  this.timeout(60_000);
  const database = usePostgresTestDatabase();

  const vacancy = (title: string) => ({
    title, status: 'open' as const, city: null, officeAddress: null, experience: null, workFormats: [], salaryFrom: null, salaryTo: null,
    salaryCurrency: null, salaryGross: null, employmentForm: null, workSchedule: [], skills: [], languages: [], professionalRoles: [],
    description: null, positionsCount: null, sourceUrl: null, publishedAt: null, recruiter: null, sourceRef: null,
  });

  interface Prepared {
    readonly name: string;
    readonly statement: string;
    readonly executions: number;
    readonly genericPlans: number;
  }

  interface OneConnection {
    readonly url: string;
    readonly companyId: string;
    readonly apply: Pick<ApplyPlatformEvent, 'execute'>;
    /** A statement in autocommit on the pool's one connection: the session the units of work ran on. */
    readonly query: <T>(sql: string) => Promise<T[]>;
  }

  /** The service's container on a pool of one connection, with the setting given, and a company of its own. */
  async function onOneConnection<T>(preparedStatements: boolean, companyName: string, work: (context: OneConnection) => Promise<T>): Promise<T> {
    const [{ buildContainer, disposeContainer }, { resolve }, { USE_CASES }, { POSTGRES_DATABASES }, { withSession }, { executeInlined }] = await Promise.all([
      import('../../infrastructure/container/build-container.js'),
      import('../../infrastructure/container/typed-binding.js'),
      import('../../infrastructure/container/use-case.tokens.js'),
      import('../../infrastructure/container/infrastructure.tokens.js'),
      import('../../adapters/persistence/postgres/transaction-scope.js'),
      import('../../adapters/persistence/postgres/pg-statements.js'),
    ]);
    const url = database().businessUrl;
    const container = await buildContainer({
      profile: 'postgres',
      logger: pino({ level: 'silent' }),
      config: {
        databaseUrl: url, keysDatabaseUrl: url, dataDir: tmpdir(), dbPoolMax: 1, dbPreparedStatements: preparedStatements,
        dbTimeouts: { statementMs: 10_000, connectMs: 3_000, acquireMs: 5_000, idleInTransactionMs: 30_000 },
      },
    });
    try {
      const { id: companyId } = await resolve(container, USE_CASES.createCompany).execute({ name: companyName });
      const db = resolve(container, POSTGRES_DATABASES).business;
      return await work({
        url,
        companyId,
        apply: resolve(container, USE_CASES.applyPlatformEvent),
        query: <R>(sql: string) => withSession(db, (session) => executeInlined<R>(session, sql)),
      });
    } finally {
      await disposeContainer(container);
    }
  }

  /** Seven versions of one vacancy through the feed's use case; what the session holds prepared after them. */
  function sevenVersions(preparedStatements: boolean): Promise<{ companyId: string; prepared: Prepared[] }> {
    return onOneConnection(preparedStatements, 'ТОО «Подготовка»', async ({ companyId, apply, query }) => {
      for (let version = 1; version <= 7; version++) {
        const outcome = await apply.execute({
          source: '/platform/test', eventId: `e${version}`, companyId, subject: 'vac-1', version, change: { type: 'vacancy.upserted', vacancy: vacancy(`Версия ${version}`) },
        });
        expect(outcome).to.equal('applied');
      }
      const rows = await query<{ name: string; statement: string; executions: number; generic_plans: number }>(
        'select name, statement, (generic_plans + custom_plans)::int as executions, generic_plans::int as generic_plans from pg_prepared_statements order by name',
      );
      return { companyId, prepared: rows.map((r) => ({ name: r.name, statement: r.statement, executions: r.executions, genericPlans: r.generic_plans })) };
    });
  }

  async function titleOf(companyId: string): Promise<string> {
    const client = new pg.Client({ connectionString: database().businessUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ title: string }>('select title from vacancies where company_id = $1 and id = $2', [companyId, 'vac-1']);
      return rows[0]?.title ?? '(none)';
    } finally {
      await client.end();
    }
  }

  it('on: each statement of the feed\'s path is prepared once on the connection and executed again by name', async () => {
    const { companyId, prepared } = await sevenVersions(true);
    expect(prepared.length).to.be.greaterThan(0);
    for (const statement of prepared) expect(statement.name).to.match(/^ia_[0-9a-f]{24}$/);
    const one = (start: string) => {
      const found = prepared.filter((p) => p.statement.trimStart().startsWith(start));
      expect(found, `one prepared statement starting "${start}"`).to.have.length(1);
      return found[0] as Prepared;
    };
    // The first version inserts the vacancy; the six after it read and update it.
    expect(one('insert into vacancies').executions).to.equal(1);
    expect(one('update vacancies set').executions).to.equal(6);
    expect(one('select company_id, id, title').executions).to.equal(7);
    // The ledger's claim of each event (a batch of one: the statement of one claim), a statement of a fixed text.
    expect(one('with claim as').executions).to.equal(7);
    // Each execution planned for its values (plan_cache_mode = force_custom_plan in every transaction): past five
    // PostgreSQL's default would switch this read to a generic plan (it did, before), one that a table small at
    // the time would freeze as a sequential scan.
    for (const statement of prepared) expect(statement.genericPlans, statement.statement.slice(0, 40)).to.equal(0);
    expect(await titleOf(companyId)).to.equal('Версия 7');
  });

  // The pools of the persistence contract have no timeouts: the plan setting must not depend on them.
  for (const preparedStatements of [true, false]) {
    it(`${preparedStatements ? 'on' : 'off'}, without timeouts: a unit of work's transaction plans with ${preparedStatements ? 'force_custom_plan' : "the server's default"}`, async () => {
      const [{ createPostgresTestDatabase }, { withSession }, { executeInlined }] = await Promise.all([
        import('../support/postgres-test-database.js'),
        import('../../adapters/persistence/postgres/transaction-scope.js'),
        import('../../adapters/persistence/postgres/pg-statements.js'),
      ]);
      const opened = await createPostgresTestDatabase({ preparedStatements });
      try {
        const { unitOfWork } = opened.adapters();
        const mode = await unitOfWork.run('co-plans', 'write', () =>
          withSession(opened.databases.business, (session) => executeInlined<{ mode: string }>(session, "select current_setting('plan_cache_mode') as mode")),
        );
        expect(mode[0]?.mode).to.equal(preparedStatements ? 'force_custom_plan' : 'auto');
      } finally {
        await opened.drop();
      }
    });
  }

  /**
   * A connection whose prepared statements the server can no longer run (after `spoil`) fails one unit of work as
   * "retry" (StoreUnavailableError, work only) and is replaced: on a pool of one connection, the next unit of work
   * goes through, its statements prepared anew. Without the replacement every later one would fail alike.
   */
  function spoiledThenRetried(spoil: (context: { readonly url: string; readonly autocommit: (sql: string) => Promise<void> }) => Promise<void>): Promise<{ first: unknown; second: string }> {
    return onOneConnection(true, 'ТОО «Миграция»', async ({ url, companyId, apply, query }) => {
      const version = (n: number) =>
        apply.execute({ source: '/platform/test', eventId: `s${n}`, companyId, subject: 'vac-s', version: n, change: { type: 'vacancy.upserted', vacancy: vacancy(`Версия ${n}`) } });
      // The vacancy's read and update prepared on the pool's one connection.
      expect(await version(1)).to.equal('applied');
      expect(await version(2)).to.equal('applied');
      await spoil({ url, autocommit: (sql) => query(sql).then(() => undefined) });
      const first = await version(3).then((outcome) => outcome, (error: unknown) => error);
      const second = await version(3);
      return { first, second };
    });
  }

  it('on: after a migration changed the type of a column a prepared statement returns, one unit of work fails as "retry" and the connection is replaced', async () => {
    const { StoreUnavailableError } = await import('../../application/ports/store-unavailable.error.js');
    const { first, second } = await spoiledThenRetried(async ({ url }) => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query('alter table vacancies alter column title type varchar(1000)');
      } finally {
        await client.end();
      }
    });
    try {
      expect(first).to.be.instanceOf(StoreUnavailableError);
      expect(first).to.include({ reason: '0A000', workOnly: true });
      expect(second).to.equal('applied');
    } finally {
      const client = new pg.Client({ connectionString: database().businessUrl });
      await client.connect();
      await client.query('alter table vacancies alter column title type text').finally(() => client.end());
    }
  });

  it('on: after the session lost its prepared statements (DEALLOCATE ALL behind the driver), one unit of work fails as "retry" and the connection is replaced', async () => {
    const { StoreUnavailableError } = await import('../../application/ports/store-unavailable.error.js');
    const { first, second } = await spoiledThenRetried(({ autocommit }) => autocommit('deallocate all'));
    expect(first).to.be.instanceOf(StoreUnavailableError);
    expect(first).to.include({ reason: '26000', workOnly: true });
    expect(second).to.equal('applied');
  });

  it('off (the default): nothing stays prepared on the connection, and the effect is the same', async () => {
    const { companyId, prepared } = await sevenVersions(false);
    expect(prepared).to.deep.equal([]);
    expect(await titleOf(companyId)).to.equal('Версия 7');
  });
});
