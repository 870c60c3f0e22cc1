import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Connection } from 'rabbitmq-client';
import { CONFIG_VARIABLES } from '../../infrastructure/config.schema.js';
import { deleteFeedTopology, FEED_HEADERS, feedTopology } from '../../infrastructure/feed/feed-topology.js';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const AMQP_URL = process.env.TEST_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';

interface Run {
  readonly child: ChildProcess;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stdout(): string;
  stderr(): string;
  logs(): Record<string, any>[];
}

/** `node --import tsx infrastructure/feed-main.ts` with only the given settings (none leaks from the test's environment). */
function runFeed(env: Record<string, string>, args: string[] = []): Run {
  const childEnv: NodeJS.ProcessEnv = { ...process.env };
  for (const name of CONFIG_VARIABLES) delete childEnv[name];
  const child = spawn(process.execPath, ['--import', 'tsx', 'infrastructure/feed-main.ts', ...args], { cwd: REPO_ROOT, env: { ...childEnv, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => child.once('exit', (code, signal) => done({ code, signal })));
  const logs = () =>
    stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, any>);
  return { child, exited, stdout: () => stdout, stderr: () => stderr, logs };
}

async function until(what: string, condition: () => boolean | Promise<boolean>, run: Run, timeoutMs = 45_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline || run.child.exitCode !== null) throw new Error(`no ${what}:\n${run.stdout()}\n${run.stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('npm run feed (infrastructure/feed-main.ts as a process)', function () {
  it('prints its usage with --help, naming its variables, and exits 0', async () => {
    const run = runFeed({}, ['--help']);
    expect((await run.exited).code).to.equal(0);
    for (const name of ['FEED_URL', 'FEED_QUEUE', 'FEED_PREFETCH', 'FEED_MAX_HELD_BYTES', 'FEED_MAX_ATTEMPTS', 'FEED_RETRY_DELAYS_MS', 'FEED_TOMBSTONE_DAYS', 'METRICS_PORT', 'SIGTERM']) {
      expect(run.stdout()).to.contain(name);
    }
    expect(run.stdout()).to.contain('9465');
  });

  it('exits 1 on an argument it does not take, saying that its settings are environment variables', async () => {
    const run = runFeed({ STORE: 'memory', FEED_URL: AMQP_URL }, ['--queue', 'other']);
    expect((await run.exited).code).to.equal(1);
    expect(run.stderr()).to.match(/^integration-feed: cannot start: npm run feed takes no arguments but --help \(npm run feed -- --help\); its settings are environment variables\. Got 2 arguments \(options "--queue"; values not shown\)\./);
  });

  it('exits 1 naming FEED_URL when it is unset', async () => {
    const run = runFeed({ STORE: 'memory' });
    expect((await run.exited).code).to.equal(1);
    expect(run.stderr()).to.match(/^integration-feed: cannot start: FEED_URL is not set/);
  });

  it('exits 1 naming each invalid setting, without the password of FEED_URL', async () => {
    const run = runFeed({ STORE: 'memory', FEED_URL: 'http://feed:S3cret-pw@mq:5672', FEED_PREFETCH: '0', FEED_RETRY_DELAYS_MS: '500,100' });
    expect((await run.exited).code).to.equal(1);
    const stderr = run.stderr();
    expect(stderr).to.contain('FEED_URL must be an amqp:// or amqps:// URL');
    expect(stderr).to.contain('FEED_PREFETCH must be a whole number from 1 to 1000; got "0".');
    expect(stderr).to.contain('FEED_RETRY_DELAYS_MS must be');
    expect(stderr).not.to.contain('S3cret-pw');
  });

  it('consumes (a poison message is dead-lettered), serves its metrics, and on SIGTERM stops and exits 0', async () => {
    const queue = `test.feed.${process.pid}.${randomBytes(4).toString('hex')}`;
    const topology = feedTopology(queue, [50, 100]);
    const connection = new Connection(AMQP_URL);
    connection.on('error', () => undefined);
    const run = runFeed({ STORE: 'memory', LOG_LEVEL: 'info', FEED_URL: AMQP_URL, FEED_QUEUE: queue, FEED_RETRY_DELAYS_MS: '50,100', FEED_PREFETCH: '5', METRICS: 'on', METRICS_PORT: '0' });
    try {
      await until('"feed consumer started"', () => run.logs().some((line) => line.msg === 'feed consumer started'), run);
      const started = run.logs().find((line) => line.msg === 'feed consumer started') as Record<string, any>;
      expect(started).to.include({ queue, prefetch: 5, maxHeldBytes: 1024 ** 3, deadLetterQueue: `${queue}.dead` });
      // Beside its metrics, the probes of an orchestrator: the process answers, and it consumes.
      const origin = new URL(started.metrics as string).origin;
      const health = await fetch(`${origin}/healthz`);
      expect([health.status, await health.json()]).to.deep.equal([200, { status: 'ok' }]);
      const ready = await fetch(`${origin}/readyz`);
      expect([ready.status, await ready.json()]).to.deep.equal([200, { status: 'ready' }]);
      expect((await fetch(`${origin}/other`)).status).to.equal(404);
      const publisher = connection.createPublisher({ confirm: true });
      await publisher.send({ routingKey: queue, contentType: 'application/cloudevents+json', messageId: 'poison-1' }, Buffer.from('{"not": "an event"'));
      await publisher.close();
      await until('the dead letter', async () => (await connection.queueDeclare({ queue: `${queue}.dead`, passive: true })).messageCount === 1, run, 15_000);
      const dead = await connection.basicGet({ queue: `${queue}.dead`, noAck: true });
      expect(dead?.messageId).to.equal('poison-1');
      expect(dead?.headers?.[FEED_HEADERS.deadReason]).to.be.a('string').and.not.equal('');
      const metrics = await (await fetch(`${started.metrics as string}`)).text();
      expect(metrics).to.match(/^feed_consuming\{region="kz"\} 1$/m);
      expect(metrics).to.match(/^feed_events_total\{type="other",outcome="dead_lettered",region="kz"\} 1$/m);
      // A readable event (of a company this store does not know) is handed to the use case, in a batch of one.
      const event = { specversion: '1.0', id: 'e-1', source: '/platform/kz', type: 'vacancy.deleted', subject: 'vac-1', companyid: 'no-such-company', entityversion: 1 };
      const second = connection.createPublisher({ confirm: true });
      await second.send({ routingKey: queue, contentType: 'application/cloudevents+json', messageId: 'e-1' }, Buffer.from(JSON.stringify(event)));
      await second.close();
      const scrape = async () => (await fetch(`${started.metrics as string}`)).text();
      await until('the batch counted', async () => /^feed_batch_events_count\{region="kz"\} 1$/m.test(await scrape()), run, 15_000);
      expect(await scrape()).to.match(/^feed_batch_events_bucket\{le="1",region="kz"\} 1$/m);
      run.child.kill('SIGTERM');
      const ended = await run.exited;
      expect(ended, run.stderr()).to.deep.equal({ code: 0, signal: null });
      expect(run.logs().map((line) => line.msg)).to.include.members(['feed consumer stopping: finishing the messages in flight', 'stopped']);
    } finally {
      if (run.child.exitCode === null) run.child.kill('SIGKILL');
      await deleteFeedTopology(connection, topology);
      await connection.close();
    }
  });
});
