import { expect } from 'chai';
import { ApiClient } from '../support/api-client.js';
import { createThrowawayDatabaseUrl } from '../support/postgres-test-database.js';
import { startServiceOn, type ServiceOnPostgres } from '../postgres/support/service-on-postgres.js';
import { throughPort } from './support/freezing-relay.js';
import { PausingRelay } from './support/pausing-relay.js';

/** The service's defaults: a request waits up to the statement bound plus the client's margin, 12 s. */
const TIMEOUTS = { statementMs: 10_000, connectMs: 5_000, acquireMs: 5_000, idleInTransactionMs: 30_000 };

describe('GET /readyz behind a pooler that pauses (a PgBouncer PAUSE, as a TCP relay)', function () {
  this.timeout(90_000);
  let database: { url: string; drop: () => Promise<void> };
  let relay: PausingRelay;
  let service: ServiceOnPostgres;

  before(async () => {
    database = await createThrowawayDatabaseUrl();
    const target = new URL(database.url);
    relay = await PausingRelay.start({ host: target.hostname, port: Number(target.port || 5432) });
    service = await startServiceOn(throughPort(database.url, relay.port), { dbPoolMax: 4, dbTimeouts: TIMEOUTS, rateLimitStore: 'memory' });
  });

  after(async () => {
    relay?.resume();
    await service?.close();
    await relay?.close();
    await database?.drop();
  });

  it('says 503 not_ready well before a request would give up, asks the databases once for probes at once, and is ready again after', async () => {
    const probe = new ApiClient(service.origin);
    expect((await probe.get('/readyz')).status).to.equal(200);
    relay.pause();
    const started = Date.now();
    // More probes at once than the pool has connections: they share one question to the databases.
    const answers = await Promise.all(Array.from({ length: 12 }, () => probe.get('/readyz')));
    const took = Date.now() - started;
    expect(answers.map((a) => a.status)).to.deep.equal(Array.from({ length: 12 }, () => 503));
    expect(answers[0]?.body).to.include({ code: 'not_ready' });
    expect(took, 'answered before the bound of a request (the statement bound, 10 s)').to.be.below(TIMEOUTS.statementMs);
    // One question (the business database and the key registry are one database here, asked on one or two connections).
    expect(relay.waiting, 'connections waiting on a question').to.be.within(1, 2);
    relay.resume();
    // The one question still held is answered now: nothing of the pool is left waiting.
    expect((await probe.get('/readyz')).status).to.equal(200);
    expect((await service.api.get('/vacancies')).status).to.equal(200);
  });
});
