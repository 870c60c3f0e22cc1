import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Connection } from 'rabbitmq-client';
import { CONFIG_VARIABLES } from '../../infrastructure/config.schema.js';
import { deleteFeedTopology, feedTopology } from '../../infrastructure/feed/feed-topology.js';
import { eventsOf } from '../feed/support/platform-events.js';
import { jsonLogLines } from '../scale/support/server-process.js';
import { adminOn } from '../scale/support/registry.js';
import { usePostgresTestDatabase } from '../support/postgres-test-database.js';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from './support/otlp-receiver.js';
import { descendsFrom, leaksOf, randomHex, traceOf } from './support/span-tree.js';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const AMQP_URL = process.env.TEST_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const CONSUMER = 5;

/** `npm run feed`'s script, bin/feed.js, with only the settings given (none leaks from the test's environment). */
async function startFeed(env: Record<string, string>): Promise<{ child: ChildProcess; output: () => string; exited: Promise<number | null> }> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env };
  for (const name of CONFIG_VARIABLES) delete childEnv[name];
  const child = spawn(process.execPath, ['bin/feed.js'], { cwd: REPO_ROOT, env: { ...childEnv, LOG_LEVEL: 'info', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  const deadline = Date.now() + 180_000;
  while (!jsonLogLines(output).some((line) => line.msg === 'feed consumer started')) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the feed consumer did not start:\n${output}`);
    await new Promise((wait) => setTimeout(wait, 100));
  }
  return { child, output: () => output, exited };
}

describe('tracing of the feed consumer (the CloudEvents distributed-tracing extension)', function () {
  this.timeout(240_000);
  const database = usePostgresTestDatabase();
  const queue = `test.feed-tracing.${process.pid}.${randomBytes(4).toString('hex')}`;
  let receiver: OtlpReceiver | undefined;
  let feed: Awaited<ReturnType<typeof startFeed>> | undefined;
  let connection: Connection | undefined;
  after(async () => {
    feed?.child.kill('SIGKILL');
    await receiver?.close();
    if (connection !== undefined) {
      await deleteFeedTopology(connection, feedTopology(queue, [1000])).catch(() => undefined);
      await connection.close();
    }
  });

  it('continues the platform\'s trace (the event\'s traceparent) through the event, its batch and its statements, with no personal value', async () => {
    receiver = await startOtlpReceiver();
    const companyId = await adminOn(database()).company();
    feed = await startFeed({
      STORE: 'postgres',
      DATABASE_URL: database().businessUrl,
      REGION: 'kz',
      FEED_URL: AMQP_URL,
      FEED_QUEUE: queue,
      FEED_RETRY_DELAYS_MS: '1000',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
      OTEL_BSP_SCHEDULE_DELAY: '100',
    });
    connection = new Connection(AMQP_URL);
    const publisher = connection.createPublisher({ confirm: true });
    const events = eventsOf(companyId);
    const vacancyId = randomUUID();
    const platformTrace = randomHex(16);
    const platformSpan = randomHex(8);
    const name = `Гульнара Тестова ${randomBytes(3).toString('hex')}`;
    const summary = `Ведёт проекты ${randomBytes(3).toString('hex')}`;
    // Every event carries a span of the platform's one trace; the vacancy's deletion detaches the card and
    // writes its rendering (the name and the resume) with the values in the statement's text.
    const traced = <E extends object>(event: E) => ({ ...event, traceparent: `00-${platformTrace}-${randomHex(8)}-01` });
    const cardId = randomUUID();
    const vacancy = traced(events.vacancyUpserted(vacancyId, 1, { title: 'Аналитик данных' }));
    const added = { ...events.candidateAdded(cardId, 1, { vacancyId, name, resume: { role: 'Аналитик', summary, skills: ['SQL'] } }), traceparent: `00-${platformTrace}-${platformSpan}-01` };
    const detached = traced(events.vacancyDeleted(vacancyId, 2));
    for (const event of [vacancy, added, detached]) {
      await publisher.send({ routingKey: queue, contentType: 'application/cloudevents+json' }, Buffer.from(JSON.stringify(event)));
    }
    await publisher.close();

    const eventSpan = (spans: readonly ReceivedSpan[], type: string) => spans.find((span) => span.name === `feed event ${type}` && span.traceId === platformTrace);
    const batchOf = (spans: readonly ReceivedSpan[], event: ReceivedSpan | undefined) =>
      spans.find((span) => span.name === 'feed batch' && event !== undefined && span.links.some((link) => link.spanId === event.spanId));
    await receiver.until((spans) => {
      const batches = ['candidate.added', 'vacancy.deleted'].map((type) => batchOf(spans, eventSpan(spans, type)));
      return batches.every((batch) => batch !== undefined && spans.some((span) => span.name.startsWith('pg.query') && descendsFrom(spans, span, batch)));
    });
    const spans = traceOf(receiver.spans, platformTrace);
    const event = eventSpan(spans, 'candidate.added') as ReceivedSpan;
    expect(event.parentSpanId, 'the platform\'s span is its parent').to.equal(platformSpan);
    expect(event.kind).to.equal(CONSUMER);
    expect(event.attributes).to.include({ 'cloudevents.event_id': added.id, 'app.company.id': companyId, 'app.region': 'kz', 'app.feed.decision': 'applied' });
    const batch = batchOf(spans, event) as ReceivedSpan;
    const eventSpans = spans.filter((span) => span.name.startsWith('feed event '));
    expect(eventSpans.map((span) => span.spanId), 'the batch under its first event').to.include(batch.parentSpanId);
    expect(spans.some((span) => span.name === 'company lock' && descendsFrom(spans, span, batch)), 'the company lock under the batch').to.equal(true);
    const statements = spans.filter((span) => span.name.startsWith('pg.query'));
    expect(statements.length).to.be.greaterThan(2);
    expect(statements.every((statement) => eventSpans.some((span) => descendsFrom(spans, statement, span))), 'every statement under an event').to.equal(true);
    expect(receiver.spans.filter((span) => span.traceId !== platformTrace).map((span) => span.name), 'spans of another trace').to.deep.equal([]);
    expect(leaksOf(receiver.rawBodies, [name, summary]), 'personal values, exported').to.deep.equal([]);

    feed.child.kill('SIGTERM');
    expect(await feed.exited, feed.output()).to.equal(0);
    feed = undefined;
  });
});
