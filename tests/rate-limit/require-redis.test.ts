import { expect } from 'chai';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { requireRedis } from './support/require-redis.js';
import { REDIS_URL } from './support/stores.js';

describe('the Redis suites without a Redis', () => {
  let closed: Server;
  let silentUrl: string;

  before(async () => {
    // A port that was free a moment ago: nothing listens there.
    closed = createServer();
    await new Promise<void>((ready) => closed.listen(0, '127.0.0.1', ready));
    silentUrl = `redis://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise<void>((done) => closed.close(() => done()));
  });

  it('fail, naming the address and the command that starts Redis, instead of skipping', async () => {
    const error = await requireRedis(silentUrl).then(
      () => null,
      (failure: unknown) => failure as Error,
    );
    expect(error, 'requireRedis resolved with nothing listening').to.be.instanceOf(Error);
    expect(error!.message).to.include(`Nothing answers PING at ${silentUrl}`);
    expect(error!.message).to.include('redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379');
    expect(error!.message).to.include('apt-get install -y redis-server');
  });

  it('pass on the machine\'s Redis, which .ci/run starts when it does not answer', async () => {
    await requireRedis(REDIS_URL);
  });
});
