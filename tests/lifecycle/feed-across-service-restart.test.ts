import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { Connection } from 'rabbitmq-client';
import { readState } from '../../infrastructure/database/embedded-postgres-files.js';
import { declareFeedTopology, deleteFeedTopology, feedTopology } from '../../infrastructure/feed/feed-topology.js';
import { jsonOf, runAdmin } from '../cli/support/run-admin.js';
import { startFeedProcess, type FeedProcess } from '../feed/support/feed-process.js';
import { AMQP_URL, eventually, FAST_RETRIES, requireBroker } from '../feed/support/feed-world.js';
import { eventsOf, type PlatformEvent } from '../feed/support/platform-events.js';
import { startServerProcess, type ServerProcess } from '../scale/support/server-process.js';

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

async function postmasterPid(dataDir: string): Promise<number> {
  return Number((await readFile(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').catch(() => '')).split('\n')[0]);
}

/** Client connections to the embedded server other than this probe's own. */
async function otherConnections(dataDir: string): Promise<number> {
  const state = await readState(dataDir);
  const client = new pg.Client({ connectionString: `postgresql://postgres:${encodeURIComponent(state?.password ?? '')}@127.0.0.1:${state?.port}/postgres` });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>("select count(*)::int as n from pg_stat_activity where backend_type = 'client backend' and pid <> pg_backend_pid()");
    return rows[0]?.n ?? 0;
  } finally {
    await client.end();
  }
}

/**
 * `npm start` and `npm run feed` on the default embedded PostgreSQL (no DATABASE_URL, one DATA_DIR): the service
 * is restarted while the consumer runs, and the database with it. The consumer, paused meanwhile, must find the
 * database again by itself: it knows only the address it opened at its start.
 */
describe('a feed consumer on the embedded PostgreSQL, across a restart of the service', function () {
  this.timeout(240_000);
  let dataDir: string;
  let service: ServerProcess | undefined;
  let consumer: FeedProcess | undefined;
  let connection: Connection | undefined;
  const topology = feedTopology(`test.feed.restart.${process.pid}.${randomBytes(4).toString('hex')}`, FAST_RETRIES.split(',').map(Number));

  before(async () => {
    await requireBroker();
    dataDir = await mkdtemp(join(tmpdir(), 'integration-api-feed-restart-'));
    await chmod(dataDir, 0o755); // the postgres user (we may be root) must be able to enter it
    connection = new Connection({ url: AMQP_URL, connectionName: 'feed restart test' });
    connection.on('error', () => undefined);
    await declareFeedTopology(connection, topology);
  });

  after(async () => {
    await consumer?.stop();
    await service?.stop();
    const pid = await postmasterPid(dataDir);
    if (pid > 0) {
      try {
        process.kill(pid, 'SIGINT');
        await sleep(2_000);
      } catch {
        // gone already
      }
    }
    if (connection !== undefined) {
      await deleteFeedTopology(connection, topology).catch(() => undefined);
      await connection.close();
    }
    await rm(dataDir, { recursive: true, force: true });
  });

  it('resumes by itself once the restarted service has the database up again, at the address it knew', async () => {
    const env = { STORE: 'postgres', DATA_DIR: dataDir };
    service = await startServerProcess(env, 120_000);
    const company = jsonOf<{ id: string }>(await runAdmin(['company', 'create', '--name', 'Restarts'], { env }));
    const { key } = jsonOf<{ key: string }>(await runAdmin(['key', 'issue', '--company', company.id, '--scopes', 'vacancies:read'], { env }));
    consumer = await startFeedProcess({ ...env, FEED_URL: AMQP_URL, FEED_QUEUE: topology.queue, FEED_RETRY_DELAYS_MS: FAST_RETRIES });
    const publisher = (connection as Connection).createPublisher({ confirm: true });
    const publish = (event: PlatformEvent) =>
      publisher.send({ routingKey: topology.queue, messageId: event.id, contentType: 'application/cloudevents+json', durable: true }, Buffer.from(JSON.stringify(event)));
    const vacancyIds = async (origin: ServerProcess) => {
      const response = await fetch(`${origin.apiUrl}/vacancies?status=all`, { headers: { 'X-API-Key': key } });
      return response.status === 200 ? ((await response.json()) as { items: { id: string }[] }).items.map((v) => v.id) : [];
    };
    const e = eventsOf(company.id);
    try {
      await publish(e.vacancyUpserted('before-restart', 1));
      await eventually(() => vacancyIds(service as ServerProcess), (ids) => ids.includes('before-restart'), 30_000, 'the first event applied');

      // The service stops the database only when nobody else is connected, and the consumer's readiness check
      // keeps a connection: so the database is stopped here as an operator or a crash would (a fast shutdown),
      // once the service has gone, and the restarted service must start it again on the port it kept.
      expect(await otherConnections(dataDir), 'the consumer is connected').to.be.above(0);
      const firstPostmaster = await postmasterPid(dataDir);
      await service.stop();
      service = undefined;
      if ((await postmasterPid(dataDir)) > 0) process.kill(firstPostmaster, 'SIGINT');
      await eventually(() => postmasterPid(dataDir), (pid) => pid === 0, 30_000, 'the database stopped');

      await publish(e.vacancyUpserted('during-restart', 1));
      await eventually(async () => consumer?.logs() ?? [], (lines) => lines.some((l) => /paus/i.test(String(l.msg))), 30_000, 'the consumer pausing');
      service = await startServerProcess(env, 120_000);
      expect(await postmasterPid(dataDir)).to.be.above(0).and.not.equal(firstPostmaster);

      const ids = await eventually(() => vacancyIds(service as ServerProcess), (found) => found.includes('during-restart'), 60_000, 'the event of the restart applied');
      expect(ids).to.include('before-restart');
      expect(consumer.logs().some((l) => /resum/i.test(String(l.msg)))).to.equal(true);
      expect(consumer.child.exitCode, 'the consumer kept running').to.equal(null);
    } finally {
      await publisher.close();
    }
  });
});
