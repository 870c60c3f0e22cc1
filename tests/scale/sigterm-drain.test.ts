import { once } from 'node:events';
import { request as httpRequest } from 'node:http';
import { expect } from 'chai';
import pg from 'pg';
import { COMPANY_LOCK_NAMESPACE } from '../../adapters/persistence/postgres/company-lock.js';
import { connectionRefused } from '../support/connection-refused.js';
import { aMinimalApplicationBody } from '../support/http-fixtures.js';
import { usePostgresTestDatabase } from '../support/postgres-test-database.js';
import { eventually } from '../rate-limit/support/stores.js';
import { adminOn } from './support/registry.js';
import { startServerProcess, type ServerProcess } from './support/server-process.js';

describe('SIGTERM (the real server process)', function () {
  this.timeout(90_000);
  const database = usePostgresTestDatabase();
  let server: ServerProcess | undefined;
  after(async () => server?.stop());

  it('answers the request in flight, refuses new connections meanwhile, and exits 0', async () => {
    const admin = adminOn(database());
    const companyId = await admin.company();
    const key = await admin.issueKey(companyId, { scopes: ['applications:write'] });
    const vacancyId = await admin.vacancy(companyId);
    server = await startServerProcess({ STORE: 'postgres', DATABASE_URL: database().businessUrl, RATE_LIMIT_STORE: 'memory' });

    const body = Buffer.from(JSON.stringify(aMinimalApplicationBody(vacancyId)));
    const request = httpRequest({
      host: '127.0.0.1',
      port: server.port,
      method: 'POST',
      path: '/api/integration/v1/applications',
      agent: false,
      // 100-continue: the server's interim answer tells the test that it has the request in hand.
      headers: { 'Content-Type': 'application/json', 'Content-Length': body.length, 'X-API-Key': key.key, Expect: '100-continue' },
    });
    const answered = new Promise<{ status: number; text: string }>((resolveAnswer, reject) => {
      request.once('error', reject);
      request.once('response', (response) => {
        let text = '';
        response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        response.once('end', () => resolveAnswer({ status: response.statusCode ?? 0, text }));
        response.once('error', reject);
      });
    });
    request.flushHeaders();
    await once(request, 'continue');
    request.write(body.subarray(0, 10));

    server.child.kill('SIGTERM');
    expect(await eventually(() => connectionRefused(server!.port), 10_000, 50), 'new connections are refused once draining').to.equal(true);
    expect(server.child.exitCode, 'still running: a request is in flight').to.equal(null);

    request.end(body.subarray(10));
    const response = await answered;
    expect(response.status, response.text).to.equal(201);
    expect(JSON.parse(response.text)).to.have.property('id').that.is.a('string');

    expect(await server.exited).to.deep.equal({ code: 0, signal: null });
    const messages = server.logs().map((line) => line.msg);
    expect(messages).to.include.members(['draining requests in flight, then stopping', 'stopped']);
    expect(server.logs().filter((line) => Number(line.level) >= 50), server.output()).to.deep.equal([]);
  });

  it('finishes requests whose clients hung up before the database answered, then exits 0', async () => {
    const admin = adminOn(database());
    const companyId = await admin.company();
    const key = await admin.issueKey(companyId, { scopes: ['applications:write'] });
    const vacancyId = await admin.vacancy(companyId);
    // One connection: the first application holds it while it waits, the second waits for it.
    server = await startServerProcess({ STORE: 'postgres', DATABASE_URL: database().businessUrl, RATE_LIMIT_STORE: 'memory', DB_POOL_MAX: '1' });

    // Hold the company's lock, as a long write of the platform would: the applications wait for it.
    const holder = new pg.Client({ connectionString: database().businessUrl });
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query('select pg_advisory_xact_lock($1, hashtext($2))', [COMPANY_LOCK_NAMESPACE, companyId]);
      const applications = [aMinimalApplicationBody(vacancyId), aMinimalApplicationBody(vacancyId)];
      const requests = applications.map((application) => {
        const body = JSON.stringify(application);
        const request = httpRequest({
          host: '127.0.0.1',
          port: server!.port,
          method: 'POST',
          path: '/api/integration/v1/applications',
          agent: false,
          headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), 'X-API-Key': key.key },
        });
        request.on('error', () => undefined);
        request.end(body);
        return request;
      });
      const waiting = async () => {
        const { rows } = await holder.query<{ n: number }>(`select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted and database = (select oid from pg_database where datname = current_database())`);
        return (rows[0]?.n ?? 0) > 0;
      };
      expect(await eventually(waiting, 10_000, 20), 'an application waits for the company lock').to.equal(true);
      await new Promise((resolve) => setTimeout(resolve, 300));

      for (const request of requests) request.destroy();
      server.child.kill('SIGTERM');
      expect(await eventually(() => connectionRefused(server!.port), 10_000, 50), 'new connections are refused once draining').to.equal(true);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(server.child.exitCode, 'still running: the hung-up requests have not finished').to.equal(null);

      await holder.query('commit');
      expect(await server.exited).to.deep.equal({ code: 0, signal: null });
      expect(server.logs().filter((line) => Number(line.level) >= 50), server.output()).to.deep.equal([]);
      const { rows } = await holder.query<{ external_id: string }>('select external_id from candidates where company_id = $1', [companyId]);
      expect(rows.map((row) => row.external_id).sort(), 'both applications were stored').to.deep.equal(applications.map((a) => a.externalId).sort());
    } finally {
      await holder.end();
    }
  });
});
