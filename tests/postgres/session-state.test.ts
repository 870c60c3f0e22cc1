import { expect } from 'chai';
import { jsonOf, runAdmin } from '../cli/support/run-admin.js';
import { runDatabaseName } from '../support/postgres-test-database.js';
import { onServer, postgresTestServer } from '../support/postgres-test-server.js';
import { POOLER_STARTUP_PARAMETERS, PoolerStandIn } from './support/pooler-stand-in.js';
import { startServiceOn } from './support/service-on-postgres.js';

/** Statements that leave something on the server session after their transaction. */
const SESSION_STATE: readonly [string, RegExp][] = [
  ['a session SET', /^\s*set\s+(?!local\b)/i],
  ['a session set_config', /set_config\s*\([^)]*,\s*false\s*\)/i],
  ['a session advisory lock', /pg_(try_)?advisory_lock(_shared)?\s*\(/i],
  ['LISTEN', /^\s*listen\b/i],
  ['a temporary table', /\b(temp|temporary)\s+table\b/i],
];

function sessionStateIn(statements: readonly string[]): string[] {
  return statements.flatMap((sql) =>
    sql.split(';').flatMap((part) => SESSION_STATE.filter(([, pattern]) => pattern.test(part)).map(([what]) => `${what}: ${part.trim().slice(0, 120)}`)),
  );
}

describe('Connections behind a transaction pooler: only the startup parameters it accepts, and nothing left on a session', function () {
  this.timeout(120_000);
  let relay: PoolerStandIn;
  let database: string;
  let url: string;

  before(async () => {
    const server = await postgresTestServer();
    const target = new URL(server.urlOf('postgres'));
    relay = await PoolerStandIn.start({ host: target.hostname, port: Number(target.port || 5432) });
    // Empty: the service's start migrates it through the relay as well.
    database = runDatabaseName('session');
    await onServer((client) => client.query(`create database ${database}`));
    url = relay.urlOf(server.urlOf(database));
  });
  after(async () => {
    await relay?.close();
    await onServer((client) => client.query(`drop database if exists ${database} with (force)`));
  });

  it('the service (start and migrations, the business and registry pools, the PostgreSQL rate-limit store, probes) and the admin CLI', async () => {
    const service = await startServiceOn(url, { rateLimitStore: 'postgres', dbPoolMax: 2 });
    try {
      const list = await service.api.get('/vacancies');
      expect(list.status).to.equal(200);
      const vacancyId = list.body.items[0].id as string;
      const body = { externalId: 'ext-session-1', vacancyId, source: 'career-portal', candidate: { name: 'Алишер Каримов', email: 'alisher@example.uz' } };
      expect((await service.api.post('/applications', body)).status).to.equal(201);
      expect((await service.api.post('/applications', body)).status).to.equal(200);
      for (let i = 0; i < 3; i++) expect((await service.api.get('/candidates')).status).to.equal(200);
      expect((await fetch(`${service.origin}/readyz`)).status).to.equal(200);
    } finally {
      await service.close();
    }
    const env = { STORE: 'postgres', DATABASE_URL: url };
    expect(jsonOf(await runAdmin(['migrate'], { env }))).to.deep.equal({ registry: [], business: [] });
    expect(jsonOf<{ id: string }>(await runAdmin(['company', 'create', '--name', 'ТОО «Пул»'], { env })).id).to.be.a('string');

    expect(relay.startups.length, 'connections seen').to.be.above(3);
    expect(relay.refusedParameters(), `startup parameters beyond ${POOLER_STARTUP_PARAMETERS.join(', ')}`).to.deep.equal([]);
    expect(relay.namedStatements, 'named prepared statements').to.deep.equal([]);
    expect(sessionStateIn(relay.statements)).to.deep.equal([]);
    expect(relay.statements.some((sql) => /set local statement_timeout/i.test(sql)), 'the timeouts were set per transaction').to.equal(true);
  });
});
