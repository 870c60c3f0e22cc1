import { expect } from 'chai';
import pg from 'pg';
import { aVacancyInput } from '../support/builders.js';
import { startReplicaCluster, type ReplicaCluster } from '../postgres/support/replica-cluster.js';
import { startServiceOn, type ServiceOnPostgres } from '../postgres/support/service-on-postgres.js';
import { startPgBouncer, type RunningPgBouncer } from './support/pgbouncer.js';

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

describe('List pages on a streaming replica behind PgBouncer in transaction pooling (ADR 26)', function () {
  this.timeout(120_000);
  let cluster: ReplicaCluster;
  let bouncer: RunningPgBouncer;
  let service: ServiceOnPostgres;
  const pages = (copy: string) => service.replicaReads?.pages.get(copy) ?? 0;

  before(async () => {
    cluster = await startReplicaCluster();
    // One server connection: every page's message meets the same session whichever client sent it.
    bouncer = await startPgBouncer({ serverUrl: cluster.replicaUrl, defaultPoolSize: 1 });
    service = await startServiceOn(cluster.primaryUrl, { databaseReplicaUrls: [bouncer.urlOf('postgres')], dbReplicaWaitMs: 200 });
  });
  after(async () => {
    await service?.close();
    await bouncer?.stop();
    await cluster?.stop();
  });

  it('reads the pages on the replica through the pooler, complete, with nothing refused or left on its connection', async () => {
    const ids = await service.upsertVacancies([aVacancyInput({ title: 'Кассир' }), aVacancyInput({ title: 'Повар' })]);
    await cluster.caughtUp();
    let served = false;
    for (let attempt = 0; attempt < 300 && !served; attempt++) {
      const before = pages('replica-1');
      const answers = await Promise.all(Array.from({ length: 8 }, () => service.api.get('/vacancies?limit=100')));
      for (const answer of answers) {
        expect(answer.status, answer.text.slice(0, 300)).to.equal(200);
        expect((answer.body.items as { id: string }[]).map((item) => item.id)).to.include.members(ids);
      }
      served = pages('replica-1') >= before + 8;
      if (!served) await sleep(100);
    }
    expect(served, 'pages read on the replica through the pooler').to.equal(true);
    expect(await bouncer.refusedStartupParameters()).to.deep.equal([]);
    // SET LOCAL ended with each page's implicit transaction: the pooler's one server connection has the server's default.
    const client = new pg.Client({ connectionString: bouncer.urlOf('postgres') });
    await client.connect();
    try {
      expect((await client.query<{ statement_timeout: string }>('show statement_timeout')).rows[0]?.statement_timeout).to.equal('0');
    } finally {
      await client.end();
    }
  });
});
