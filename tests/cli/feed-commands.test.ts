import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Connection, type Envelope, type SyncMessage } from 'rabbitmq-client';
import { feedProgress } from '../../adapters/cli/feed-progress.js';
import { runAdminCli } from '../../adapters/cli/run-admin-cli.js';
import { RabbitMqFeedAdminBroker } from '../../infrastructure/feed/feed-admin-broker.js';
import { declareFeedTopology, deleteFeedTopology, FEED_HEADERS, feedTopology } from '../../infrastructure/feed/feed-topology.js';
import { MemoryIo } from './support/memory-io.js';
import { errorOf, jsonOf, runAdmin, type AdminRun } from './support/run-admin.js';

const AMQP_URL = process.env.TEST_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const RETRY_DELAYS_MS = [1_000, 5_000];
const CLOUDEVENTS = 'application/cloudevents+json';
/** Personal data in events: never on the CLI's output. */
const PERSON = 'Aigerim Bekova';

interface DeadLetterJson {
  id: string | null;
  source: string | null;
  type: string | null;
  companyId: string | null;
  reason: string | null;
  detail: string | null;
  deadAt: string | null;
  attempts: number;
}

const event = (id: string, type: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ specversion: '1.0', id, source: 'platform', type, subject: `s-${id}`, companyid: 'company-1', entityversion: 1, data: { name: PERSON }, ...extra });

/** A letter the consumer sets aside: the event's properties and headers, with why and when in FEED_HEADERS. */
const consumerLetter = (id: string | null, deadAt: string, extra: Record<string, unknown> = {}) => ({
  envelope: {
    contentType: CLOUDEVENTS,
    ...(id === null ? {} : { messageId: id, type: 'candidate.added' }),
    headers: {
      ...(id === null ? {} : { companyid: 'company-1' }),
      [FEED_HEADERS.attempt]: 2,
      [FEED_HEADERS.deadReason]: 'invalid_event',
      [FEED_HEADERS.deadDetail]: '/data/candidate/email: must be an e-mail address',
      [FEED_HEADERS.deadAt]: deadAt,
      'x-feed-copy': 'copy-1',
      ...extra,
    },
  },
  body: id === null ? event('evt-from-body', 'vacancy.upserted', { companyid: 'company-2' }) : event(id, 'candidate.added'),
});

describe('admin feed publish | dead list | dead replay | dead discard (against the real RabbitMQ)', function () {
  this.timeout(120_000);
  let broker: Connection;
  let queue: string;
  let dir: string;
  const topology = () => feedTopology(queue, RETRY_DELAYS_MS);
  const env = () => ({ FEED_URL: AMQP_URL, FEED_QUEUE: queue, FEED_RETRY_DELAYS_MS: RETRY_DELAYS_MS.join(',') });
  const feed = (args: readonly string[], options: { env?: Record<string, string>; input?: string } = {}): Promise<AdminRun> =>
    runAdmin(['feed', ...args], { env: { ...env(), ...options.env }, ...(options.input === undefined ? {} : { input: options.input }) });

  before(async () => {
    broker = new Connection({ url: AMQP_URL, connectionName: 'admin feed test' });
    broker.on('error', () => undefined);
    await broker.onConnect(10_000);
    dir = await mkdtemp(path.join(tmpdir(), 'feed-cli-'));
  });

  after(async () => {
    await broker?.close();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  // A queue of its own for every test, declared as the consumer declares it, and deleted after.
  beforeEach(async () => {
    queue = `test.admin-feed.${process.pid}.${randomBytes(4).toString('hex')}`;
    await declareFeedTopology(broker, topology());
  });

  afterEach(async () => {
    await deleteFeedTopology(broker, topology());
  });

  async function file(name: string, text: string): Promise<string> {
    const target = path.join(dir, `${queue}-${name}`);
    await writeFile(target, text);
    return target;
  }

  /** Every message of a queue, taken off it, in queue order. */
  async function drain(name: string): Promise<SyncMessage[]> {
    const taken: SyncMessage[] = [];
    for (let m = await broker.basicGet({ queue: name, noAck: true }); m !== undefined; m = await broker.basicGet({ queue: name, noAck: true })) taken.push(m);
    return taken;
  }

  /** The ready messages of a queue once it settles on `expected` (letters a closed channel gives back land a moment later). */
  async function countSettling(name: string, expected: number): Promise<number> {
    const deadline = Date.now() + 5_000;
    for (;;) {
      const { messageCount } = await broker.queueDeclare({ queue: name, passive: true });
      if (messageCount === expected || Date.now() > deadline) return messageCount;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async function putDead(letters: readonly { envelope: Envelope; body: string }[]): Promise<void> {
    const channel = await broker.acquire();
    try {
      await channel.confirmSelect();
      for (const { envelope, body } of letters) {
        await channel.basicPublish({ ...envelope, durable: true, exchange: topology().deadExchange, routingKey: queue }, Buffer.from(body));
      }
    } finally {
      await channel.close();
    }
  }

  /** Has the broker itself dead-letter an event: taken and given back until the main queue's delivery limit. */
  async function deadLetteredByBroker(id: string): Promise<void> {
    const channel = await broker.acquire();
    try {
      await channel.confirmSelect();
      const body = Buffer.from(event(id, 'candidate.moved'));
      await channel.basicPublish({ routingKey: queue, messageId: id, type: 'candidate.moved', contentType: CLOUDEVENTS, durable: true, headers: { companyid: 'company-1' } }, body);
      const deadCount = async () => (await broker.queueDeclare({ queue: topology().deadQueue, passive: true })).messageCount;
      const before = await deadCount();
      const deadline = Date.now() + 20_000;
      while ((await deadCount()) === before) {
        if (Date.now() > deadline) throw new Error('the broker did not dead-letter the event');
        const message = await channel.basicGet({ queue });
        if (message === undefined) await new Promise((resolve) => setTimeout(resolve, 20));
        else channel.basicNack({ deliveryTag: message.deliveryTag, requeue: true });
      }
    } finally {
      await channel.close();
    }
  }

  describe('feed publish --file EVENTS.jsonl [--url URL]', () => {
    it('publishes every line as a persistent message, in file order, with the event\'s id, type and company, and says all were confirmed', async () => {
      // Not one of the feed's types: publish does not check schemas, so that bad events can be tried on the consumer.
      const lines = [event('evt-1', 'vacancy.upserted'), event('evt-2', 'candidate.deleted', { companyid: 'company-2' }), event('evt-3', 'no.such-type')];
      const run = await feed(['publish', '--file', await file('events.jsonl', `${lines[0]}\n\n   \n${lines[1]}\r\n${lines[2]}`)]);
      expect(jsonOf(run)).to.deep.equal({ published: 3, confirmed: 3 });
      expect(run.stderr).to.equal('');
      const messages = await drain(queue);
      expect(messages.map((m) => m.messageId)).to.deep.equal(['evt-1', 'evt-2', 'evt-3']);
      expect(messages.map((m) => m.type)).to.deep.equal(['vacancy.upserted', 'candidate.deleted', 'no.such-type']);
      expect(messages.map((m) => m.headers?.companyid)).to.deep.equal(['company-1', 'company-2', 'company-1']);
      for (const [i, message] of messages.entries()) {
        expect(message.contentType).to.equal(CLOUDEVENTS);
        expect(message.durable, 'persistent').to.equal(true);
        expect(Buffer.isBuffer(message.body) && message.body.toString('utf8')).to.equal(lines[i]);
      }
    });

    it('reads standard input for --file -, and --url wins over FEED_URL', async () => {
      const run = await feed(['publish', '--file', '-', '--url', AMQP_URL], { input: `${event('evt-in', 'candidate.added')}\n`, env: { FEED_URL: 'amqp://guest:guest@127.0.0.1:1' } });
      expect(jsonOf(run)).to.deep.equal({ published: 1, confirmed: 1 });
      expect((await drain(queue)).map((m) => m.messageId)).to.deep.equal(['evt-in']);
    });

    it('refuses a file with a line that is not a JSON object, naming each bad line and not its content, and publishes nothing', async () => {
      const text = [event('evt-1', 'vacancy.upserted'), `{"id":"evt-2","data":{"name":"${PERSON}"`, '', '["an","array"]', event('evt-4', 'vacancy.deleted')].join('\n');
      const run = await feed(['publish', '--file', await file('bad.jsonl', text)]);
      const error = errorOf(run);
      expect(error).to.match(/line 2 is not valid JSON/);
      expect(error).to.match(/line 4 is not a JSON object \(it is an array\)/);
      expect(error).to.match(/nothing was published/);
      expect(error).to.not.contain(PERSON);
      expect(run.stdout).to.equal('');
      expect(await countSettling(queue, 0)).to.equal(0);
    });

    it('refuses to run without a broker, naming --url and FEED_URL, and never repeats a password', async () => {
      const events = await file('one.jsonl', event('evt-1', 'vacancy.upserted'));
      const unset = await runAdmin(['feed', 'publish', '--file', events], { env: { FEED_QUEUE: queue } });
      expect(errorOf(unset)).to.match(/--url .*FEED_URL/);
      const unreachable = await feed(['publish', '--file', events, '--url', 'amqp://guest:pa55-w0rd@127.0.0.1:1']);
      expect(errorOf(unreachable)).to.match(/^error: Cannot connect to the broker at amqp:\/\/127\.0\.0\.1:1: .*ECONNREFUSED/);
      expect(unreachable.stderr).to.not.contain('pa55-w0rd');
      const refused = await feed(['publish', '--file', events, '--url', 'amqp://guest:pa55-w0rd@127.0.0.1:5672']);
      expect(errorOf(refused)).to.match(/^error: Cannot connect to the broker at amqp:\/\/127\.0\.0\.1:5672: ACCESS_REFUSED - Login was refused .*[^.]\.$/);
      expect(refused.stderr).to.not.contain('pa55-w0rd');
      expect(errorOf(await feed(['publish', '--file', events, '--url', 'http://127.0.0.1:5672']))).to.match(/--url must be an amqp:\/\/ or amqps:\/\/ URL/);
      expect(await countSettling(queue, 0)).to.equal(0);
    });

    it('shows progress on stderr for a large file (plain lines off a terminal)', async () => {
      const lines = Array.from({ length: 1_000 }, (_, i) => event(`evt-${i}`, 'candidate.moved'));
      const run = await feed(['publish', '--file', await file('large.jsonl', lines.join('\n'))]);
      expect(jsonOf(run)).to.deep.equal({ published: 1_000, confirmed: 1_000 });
      const progress = run.stderr.trimEnd().split('\n');
      expect(progress.length).to.be.within(2, 10);
      expect(progress.at(-1)).to.match(/^events published: 1000\/1000 \(100%\), \d+\.\d s, \d+\/s$/);
      expect(await countSettling(queue, 1_000)).to.equal(1_000);
    });
  });

  describe('feed dead list', () => {
    it('lists the dead letters oldest first, with why, from properties and headers only, and leaves every one of them there', async () => {
      const started = Date.now();
      // More than a quorum queue gives back in order (it keeps returned messages in a map past 32).
      const many = Array.from({ length: 40 }, (_, i) => consumerLetter(`evt-many-${String(i).padStart(2, '0')}`, new Date(Date.UTC(2026, 0, 2, 0, 0, i)).toISOString()));
      await putDead([consumerLetter('evt-late', '2026-01-01T00:00:02.000Z'), consumerLetter(null, '2026-01-01T00:00:01.000Z'), ...many]);
      await deadLetteredByBroker('evt-by-broker');
      // The feed commands need no database: STORE=memory, refused by the other commands, changes nothing here.
      const first = await feed(['dead', 'list'], { env: { STORE: 'memory' } });
      const listed = jsonOf<DeadLetterJson[]>(first);
      expect(first.stdout).to.not.contain(PERSON);
      expect(listed).to.have.length(43);
      expect(listed[0]).to.deep.equal({
        id: 'evt-from-body',
        source: 'platform',
        type: 'vacancy.upserted',
        companyId: 'company-2',
        reason: 'invalid_event',
        detail: '/data/candidate/email: must be an e-mail address',
        deadAt: '2026-01-01T00:00:01.000Z',
        // Set aside at its take numbered 2: its third.
        attempts: 3,
      });
      expect(listed[1]).to.include({ id: 'evt-late', type: 'candidate.added', companyId: 'company-1', deadAt: '2026-01-01T00:00:02.000Z' });
      expect(listed.slice(2, 42).map((l) => l.id)).to.deep.equal(many.map((l) => l.envelope.messageId));
      const byBroker = listed[42] as DeadLetterJson;
      expect(byBroker).to.include({ id: 'evt-by-broker', type: 'candidate.moved', companyId: 'company-1', reason: 'delivery_limit', attempts: 0 });
      expect(byBroker.detail).to.equal(`set aside by the broker from ${queue}: delivered more often than its delivery limit without being settled (a consumer stopped on it every time)`);
      expect(Date.parse(byBroker.deadAt as string)).to.be.within(Math.floor(started / 1000) * 1000, Date.now());

      expect(jsonOf(await feed(['dead', 'list']))).to.deep.equal(listed);
      expect(await countSettling(topology().deadQueue, 43)).to.equal(43);
      expect(await countSettling(queue, 0)).to.equal(0);
    });

    it('prints an empty array when there are none', async () => {
      expect(jsonOf(await feed(['dead', 'list']))).to.deep.equal([]);
    });
  });

  describe('when the main queue is gone (in process: deleted after the command declared it)', () => {
    it('counts no event the broker returned as unroutable as confirmed, and keeps every letter whose replay it returned', async () => {
      await putDead([consumerLetter('evt-a', '2026-01-01T00:00:01.000Z'), consumerLetter('evt-b', '2026-01-01T00:00:02.000Z')]);
      await broker.queueDelete({ queue });
      const connection = new Connection({ url: AMQP_URL, connectionName: 'admin feed test, unroutable' });
      connection.on('error', () => undefined);
      const admin = new RabbitMqFeedAdminBroker(connection, topology());
      try {
        // Each publication is confirmed too, right after the broker returned it: the return must be counted first.
        expect(await admin.replayDead({})).to.deep.equal({ replayed: 0, failed: 2, matched: 2 });
        expect(await admin.replayDead({ id: 'evt-b' })).to.deep.equal({ replayed: 0, failed: 1, matched: 1 });
        const events = ['evt-1', 'evt-2', 'evt-3'].map((id) => ({ body: event(id, 'candidate.moved'), id, type: 'candidate.moved', companyId: 'company-1' }));
        expect(await admin.publish(events)).to.deep.equal({ published: 3, confirmed: 0 });
      } finally {
        await admin.close();
      }
      expect(await countSettling(topology().deadQueue, 2)).to.equal(2);
    });
  });

  describe('feed dead replay [--id ID]', () => {
    it('moves only the letters with --id back to the queue, as first published with attempts from 0, and keeps the others', async () => {
      const kept = consumerLetter('evt-kept', '2026-01-01T00:00:03.000Z');
      const replayed = consumerLetter('evt-fixed', '2026-01-01T00:00:01.000Z', { 'x-trace': 'abc' });
      await putDead([kept, replayed, consumerLetter(null, '2026-01-01T00:00:02.000Z')]);

      const unknown = await feed(['dead', 'replay', '--id', 'evt-unknown']);
      expect(errorOf(unknown)).to.match(/No dead letter in .*\.dead has the id "evt-unknown"; nothing was replayed/);

      expect(jsonOf(await feed(['dead', 'replay', '--id', 'evt-fixed']))).to.deep.equal({ replayed: 1 });
      const [back, ...more] = await drain(queue);
      expect(more).to.have.length(0);
      expect(back).to.include({ messageId: 'evt-fixed', type: 'candidate.added', contentType: CLOUDEVENTS, durable: true });
      // x-delivery-count is the main queue's own, added as it delivers.
      const { 'x-delivery-count': _count, ...headers } = back?.headers ?? {};
      expect(headers).to.deep.equal({ companyid: 'company-1', 'x-trace': 'abc', [FEED_HEADERS.attempt]: 0 });
      expect(Buffer.isBuffer(back?.body) && back.body.toString('utf8')).to.equal(replayed.body);

      // A letter without a message id is found by the id in its event.
      expect(jsonOf(await feed(['dead', 'replay', '--id', 'evt-from-body']))).to.deep.equal({ replayed: 1 });
      const [fromBody] = await drain(queue);
      expect(fromBody?.messageId).to.equal(undefined);
      expect(Buffer.isBuffer(fromBody?.body) && fromBody.body.toString('utf8')).to.equal(consumerLetter(null, '').body);

      expect(jsonOf<DeadLetterJson[]>(await feed(['dead', 'list'])).map((l) => l.id)).to.deep.equal(['evt-kept']);
    });

    it('tells letters of one event id from two sources apart, and replays or discards those of one source with --source', async () => {
      const fromSource = (source: string, deadAt: string) => {
        const letter = consumerLetter('evt-twin', deadAt);
        return { ...letter, body: event('evt-twin', 'candidate.added', { source }) };
      };
      await putDead([fromSource('/s1', '2026-01-01T00:00:01.000Z'), fromSource('/s2', '2026-01-01T00:00:02.000Z'), fromSource('/s3', '2026-01-01T00:00:03.000Z')]);
      expect(jsonOf<DeadLetterJson[]>(await feed(['dead', 'list'])).map((l) => [l.id, l.source])).to.deep.equal([
        ['evt-twin', '/s1'],
        ['evt-twin', '/s2'],
        ['evt-twin', '/s3'],
      ]);
      const unknown = await feed(['dead', 'replay', '--id', 'evt-twin', '--source', '/s9']);
      expect(errorOf(unknown)).to.match(/No dead letter in .*\.dead has the id "evt-twin" and the source "\/s9"; nothing was replayed/);
      expect(jsonOf(await feed(['dead', 'replay', '--id', 'evt-twin', '--source', '/s2']))).to.deep.equal({ replayed: 1 });
      const [back, ...more] = await drain(queue);
      expect(more).to.have.length(0);
      expect(Buffer.isBuffer(back?.body) && JSON.parse(back.body.toString('utf8')).source).to.equal('/s2');
      const discarded = jsonOf<{ discarded: number; letters: DeadLetterJson[] }>(await feed(['dead', 'discard', '--all', '--source', '/s3']));
      expect(discarded.letters.map((l) => [l.id, l.source])).to.deep.equal([['evt-twin', '/s3']]);
      expect(jsonOf<DeadLetterJson[]>(await feed(['dead', 'list'])).map((l) => l.source)).to.deep.equal(['/s1']);
    });

    it('moves every letter back without --id, those the broker set aside too, and leaves the dead-letter queue empty', async () => {
      await putDead([consumerLetter('evt-a', '2026-01-01T00:00:01.000Z'), consumerLetter('evt-b', '2026-01-01T00:00:02.000Z')]);
      await deadLetteredByBroker('evt-c');
      expect(jsonOf(await feed(['dead', 'replay']))).to.deep.equal({ replayed: 3 });
      const back = await drain(queue);
      expect(back.map((m) => m.messageId).sort()).to.deep.equal(['evt-a', 'evt-b', 'evt-c']);
      for (const message of back) {
        const names = Object.keys(message.headers ?? {});
        expect(names.filter((name) => /^x-(death|first-death|last-death|feed-dead)/.test(name)), String(message.messageId)).to.deep.equal([]);
        expect(message.headers?.[FEED_HEADERS.attempt]).to.equal(0);
      }
      expect(jsonOf(await feed(['dead', 'list']))).to.deep.equal([]);
      expect(await countSettling(topology().deadQueue, 0)).to.equal(0);
    });
  });

  describe('feed dead discard (--id ID | --all)', () => {
    it('refuses to run without --id or --all, or with both, and removes nothing', async () => {
      await putDead([consumerLetter('evt-a', '2026-01-01T00:00:01.000Z')]);
      for (const args of [['dead', 'discard'], ['dead', 'discard', '--id', 'evt-a', '--all']]) {
        expect(errorOf(await feed(args)), args.join(' ')).to.contain('Name the dead letters to discard: --id ID for those of one event, or --all for every one (not both).');
      }
      expect(await countSettling(topology().deadQueue, 1)).to.equal(1);
    });

    it('removes only the letters with --id, prints each as dead list shows it and never its content, and keeps the others', async () => {
      await putDead([
        consumerLetter('evt-kept', '2026-01-01T00:00:03.000Z'),
        consumerLetter('evt-poison', '2026-01-01T00:00:01.000Z'),
        consumerLetter('evt-poison', '2026-01-01T00:00:02.000Z'),
      ]);
      const listed = jsonOf<DeadLetterJson[]>(await feed(['dead', 'list']));

      const unknown = await feed(['dead', 'discard', '--id', 'evt-unknown']);
      expect(errorOf(unknown)).to.match(/No dead letter in .*\.dead has the id "evt-unknown"; nothing was discarded/);

      const run = await feed(['dead', 'discard', '--id', 'evt-poison']);
      expect(run.stdout).to.not.contain(PERSON);
      expect(jsonOf(run)).to.deep.equal({ discarded: 2, letters: listed.filter((l) => l.id === 'evt-poison') });
      expect(jsonOf<DeadLetterJson[]>(await feed(['dead', 'list'])).map((l) => l.id)).to.deep.equal(['evt-kept']);
      expect(await countSettling(queue, 0)).to.equal(0);
    });

    it('removes every letter with --all, those the broker set aside too, and sends none of them to the main queue', async () => {
      await putDead([consumerLetter('evt-a', '2026-01-01T00:00:01.000Z'), consumerLetter(null, '2026-01-01T00:00:02.000Z')]);
      await deadLetteredByBroker('evt-c');
      const discarded = jsonOf<{ discarded: number; letters: DeadLetterJson[] }>(await feed(['dead', 'discard', '--all']));
      expect(discarded.discarded).to.equal(3);
      expect(discarded.letters.map((l) => l.id)).to.deep.equal(['evt-a', 'evt-from-body', 'evt-c']);
      expect(await countSettling(topology().deadQueue, 0)).to.equal(0);
      expect(await countSettling(queue, 0)).to.equal(0);
      expect(jsonOf(await feed(['dead', 'discard', '--all']))).to.deep.equal({ discarded: 0, letters: [] });
    });
  });
});

class TerminalIo extends MemoryIo {
  override readonly errIsTerminal: boolean = true;
}

describe('admin feed progress (in process)', () => {
  it('redraws one line in place on a terminal for 1,000 items or more, ends it, and says nothing for fewer', () => {
    const io = new TerminalIo();
    const large = feedProgress(io, 'events published');
    large.start(1_000);
    for (let i = 0; i < 1_000; i++) large.advance(1);
    large.end();
    const draws = io.stderr.split('\r').filter((draw) => draw !== '');
    expect(draws.at(-1)).to.match(/^events published: 1000\/1000 \(100%\), \d+\.\d s, \d+\/s\u001b\[K\n$/);
    expect(draws.slice(0, -1).every((draw) => !draw.includes('\n'))).to.equal(true);

    const quiet = new TerminalIo();
    const small = feedProgress(quiet, 'events published');
    small.start(999);
    small.advance(999);
    small.end();
    expect(quiet.stderr).to.equal('');
  });
});

describe('admin feed --help (in process)', () => {
  const noBroker = {
    open: async () => Promise.reject(new Error('no database in this test')),
    migrate: async () => Promise.reject(new Error('no database in this test')),
    close: async () => undefined,
    feed: { url: null, open: async () => Promise.reject(new Error('no broker in this test')) },
  };

  it('describes each command and its flags, and says that publish does not check schemas', async () => {
    for (const [command, flags] of [
      [['feed', 'publish'], ['--file', '--url']],
      [['feed', 'dead', 'list'], ['--url']],
      [['feed', 'dead', 'replay'], ['--id', '--source', '--url']],
      [['feed', 'dead', 'discard'], ['--id', '--source', '--all', '--url']],
    ] as const) {
      const io = new MemoryIo();
      expect(await runAdminCli([...command, '--help'], noBroker, io)).to.equal(0);
      expect(io.stdout).to.contain(`Usage: admin ${command.join(' ')} [options]`);
      for (const flag of flags) expect(io.stdout).to.contain(flag);
      expect(io.stderr).to.equal('');
    }
    const io = new MemoryIo();
    await runAdminCli(['feed', 'publish', '--help'], noBroker, io);
    expect(io.stdout.replace(/\s+/g, ' ')).to.contain('Events are NOT checked against their schemas');
  });
});
