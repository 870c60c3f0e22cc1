import { REDIS_URL, redisAnswers } from './stores.js';

/** How this project's machines and CI start Redis (.ci/run does it when nothing answers). */
export const START_REDIS =
  'redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci.log';

/**
 * For a Redis suite's before hook: fails it, naming what to start, when nothing answers PING at REDIS_URL.
 * A suite that skipped itself instead would pass in a run that never tested Redis.
 */
export async function requireRedis(url: string = REDIS_URL): Promise<void> {
  if (await redisAnswers(url)) return;
  throw new Error(
    `Nothing answers PING at ${url}, which the Redis suites need. Start Redis: ${START_REDIS} ` +
      '(apt-get install -y redis-server when it is missing; .ci/run does both), or set REDIS_URL to a Redis that answers.',
  );
}
