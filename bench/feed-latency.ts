import { Agent, request } from 'node:http';
import type { BenchQueue } from './feed-broker.js';
import { cpuSnapshot, cpuUse, type CpuRoles, type CpuUse } from './feed-cpu.js';
import type { FeedEvent } from './feed-events.js';
import { ProgressBar } from './progress.js';
import { API } from './scenarios.js';
import { round } from './feed-throughput.js';

export interface WatchedCompany {
  readonly id: string;
  readonly key: string;
}

export interface LatencySettings {
  readonly rate: number;
  readonly seconds: number;
  /** Samples published in these first seconds are not counted. */
  readonly warmupSeconds: number;
  readonly pollMs: number;
}

/** When each applied event's transaction took its company's lock (feed_applied_events.applied_at), in epoch ms. */
export type LockTimes = (eventIds: readonly string[]) => Promise<ReadonlyMap<string, number>>;

/**
 * A sample's latency cut in two at the moment its transaction took the company's lock (the ledger's
 * `applied_at`, the transaction's clock, read from the same machine's clock as the bench's): before it, the
 * broker's delivery, the consumer's wait for a place and for its company's batch before, and the lock's own
 * wait; after it, the rest of the batch's transaction, its commit, and the poller's next pass.
 */
export interface LatencySplit {
  readonly samples: number;
  readonly toLockP50Ms: number | null;
  readonly toLockP99Ms: number | null;
  readonly afterLockP50Ms: number | null;
  readonly afterLockP99Ms: number | null;
}

export interface LatencyFigures {
  readonly rate: number;
  /** Events published per second, as achieved by the publisher. */
  readonly achievedRate: number;
  readonly published: number;
  /** Resume updates of the watched companies published after the warm-up, each with a unique marker. */
  readonly samples: number;
  readonly seen: number;
  /** Samples not seen within the wait after publishing ended. */
  readonly missing: number;
  /** How long the samples were waited for after the last event was published. */
  readonly waitedSeconds: number;
  readonly p50Ms: number | null;
  readonly p90Ms: number | null;
  readonly p99Ms: number | null;
  readonly maxMs: number | null;
  readonly pollers: number;
  readonly pollIntervalMs: number;
  /** The pollers' requests: how many, and how long each took (its own share of the resolution). */
  readonly polls: number;
  readonly pollP50Ms: number | null;
  readonly pollP99Ms: number | null;
  /** The most events waiting in the queue, sampled every 250 ms: 0 to a few, if the consumer keeps up. */
  readonly maxQueueDepth: number;
  readonly publishFailures: number;
  /** Events waiting in the queue when publishing began: 0 unless an earlier run's backlog was not drained. */
  readonly queueAtStart: number;
  /** Null when no lock times were asked for. */
  readonly split: LatencySplit | null;
  /** Who used the two cores from the first publish to the end of the wait; null when no roles were given. */
  readonly cpu: CpuUse | null;
}

/** What a run can measure beside the latency. */
export interface LatencyProbes {
  readonly lockTimes?: LockTimes;
  readonly cpuRoles?: CpuRoles;
}

const MARKER = /⟨([^⟩]+)⟩/;
/** Once the queue is empty, how long samples not yet seen are waited for. */
const SETTLE_MS = 10_000;
/** After the last event is published, how long samples are waited for at most. */
const MAX_WAIT_MS = 300_000;

/**
 * Publish-to-visible latency. The events are published at a fixed rate (a timer every few ms publishes what is
 * due by then), while one poller per watched company asks GET /candidates?since=<watermark>&limit=100 every
 * `pollMs` (following nextCursor when a pass has more pages), with the company's key, and takes the first
 * page's X-Sync-Watermark as the next `since`, as a sync client does. A sample is a resume update whose role
 * carries a unique marker; its latency is from just before its publish call to the end of the first response
 * that shows it. So each figure is late by up to one poll interval plus one request (the change may have become
 * visible just after the previous poll read), which `pollMs`, `pollP50Ms` and `pollP99Ms` bound.
 */
export async function latencyRun(
  events: readonly FeedEvent[],
  queue: BenchQueue,
  apiOrigin: string,
  watched: readonly WatchedCompany[],
  settings: LatencySettings,
  probes: LatencyProbes = {},
): Promise<LatencyFigures> {
  const watchedIds = new Set(watched.map((c) => c.id));
  /**
   * marker -> the event's id, when it was published (performance.now(), and the epoch's ms), and whether it
   * counts (after the warm-up).
   */
  const published = new Map<string, { readonly id: string; readonly at: number; readonly epochAt: number; readonly counts: boolean }>();
  /** Counted samples seen: the event's id -> when published and seen, in the epoch's ms. */
  const seenAt = new Map<string, { readonly publishedAt: number; readonly seenAt: number }>();
  const latencies: number[] = [];
  const seenMarkers = new Set<string>();
  const pollTimes: number[] = [];
  let polling = true;

  const onItem = (role: unknown, at: number) => {
    if (typeof role !== 'string') return;
    const marker = MARKER.exec(role)?.[1];
    if (marker === undefined || seenMarkers.has(marker)) return;
    const sample = published.get(marker);
    if (sample === undefined) return;
    seenMarkers.add(marker);
    if (!sample.counts) return;
    latencies.push(at - sample.at);
    seenAt.set(sample.id, { publishedAt: sample.epochAt, seenAt: sample.epochAt + (at - sample.at) });
  };
  const pollers = await Promise.all(watched.map((company) => startPoller(apiOrigin, company, settings.pollMs, onItem, pollTimes, () => polling)));

  let maxDepth = 0;
  const depthTimer = setInterval(() => {
    void queue.state().then((s) => (maxDepth = Math.max(maxDepth, s.ready)), () => undefined);
  }, 250);

  const progress = new ProgressBar('latency: publish', settings.seconds, 's');
  const total = events.length;
  let sent = 0;
  let failures = 0;
  const confirms = new Set<Promise<void>>();
  const queueAtStart = (await queue.state()).ready;
  const cpuBefore = probes.cpuRoles === undefined ? null : cpuSnapshot(probes.cpuRoles);
  const started = performance.now();
  const intervalMs = 1000 / settings.rate;
  while (sent < total) {
    const now = performance.now();
    const due = Math.min(total, Math.floor((now - started) / intervalMs) + 1);
    while (sent < due) {
      const event = events[sent++] as FeedEvent;
      if (event.marker !== undefined && watchedIds.has(event.companyId)) {
        published.set(event.marker, { id: event.id, at: performance.now(), epochAt: Date.now(), counts: performance.now() - started >= settings.warmupSeconds * 1000 });
      }
      const confirm: Promise<void> = queue.publish(event).then(
        () => undefined,
        () => void failures++,
      );
      confirms.add(confirm);
      void confirm.finally(() => confirms.delete(confirm));
    }
    progress.set(Math.floor((performance.now() - started) / 1000));
    const next = started + sent * intervalMs;
    await new Promise((done) => setTimeout(done, Math.max(1, next - performance.now())));
  }
  const publishSeconds = (performance.now() - started) / 1000;
  progress.finish();
  await Promise.all(confirms);
  const counted = [...published.entries()].filter(([, s]) => s.counts).map(([marker]) => marker);
  // Every sample is waited for while the consumer works through what is queued (a slow consumer's backlog
  // is part of the latency), then SETTLE_MS more once the queue is empty, MAX_WAIT_MS at most.
  const publishedAll = performance.now();
  let emptySince: number | null = null;
  while (counted.some((m) => !seenMarkers.has(m)) && performance.now() - publishedAll < MAX_WAIT_MS) {
    const { ready } = await queue.state();
    emptySince = ready > 0 ? null : (emptySince ?? performance.now());
    if (emptySince !== null && performance.now() - emptySince > SETTLE_MS) break;
    await new Promise((done) => setTimeout(done, 100));
  }
  const waitedSeconds = round((performance.now() - publishedAll) / 1000, 1);
  const cpu = probes.cpuRoles === undefined ? null : cpuUse(cpuBefore, cpuSnapshot(probes.cpuRoles));
  polling = false;
  clearInterval(depthTimer);
  await Promise.all(pollers.map((p) => p.done));

  const split = probes.lockTimes === undefined ? null : await splitAtLock(seenAt, probes.lockTimes);
  const sorted = [...latencies].sort((a, b) => a - b);
  const polls = [...pollTimes].sort((a, b) => a - b);
  return {
    rate: settings.rate,
    achievedRate: round(total / publishSeconds, 0),
    published: total,
    samples: counted.length,
    seen: sorted.length,
    missing: counted.length - sorted.length,
    waitedSeconds,
    p50Ms: percentile(sorted, 0.5),
    p90Ms: percentile(sorted, 0.9),
    p99Ms: percentile(sorted, 0.99),
    maxMs: sorted.length === 0 ? null : round(sorted[sorted.length - 1] as number, 1),
    pollers: watched.length,
    pollIntervalMs: settings.pollMs,
    polls: polls.length,
    pollP50Ms: percentile(polls, 0.5),
    pollP99Ms: percentile(polls, 0.99),
    maxQueueDepth: maxDepth,
    publishFailures: failures,
    queueAtStart,
    split,
    cpu,
  };
}

async function splitAtLock(seen: ReadonlyMap<string, { readonly publishedAt: number; readonly seenAt: number }>, lockTimes: LockTimes): Promise<LatencySplit> {
  const locked = await lockTimes([...seen.keys()]);
  const toLock: number[] = [];
  const afterLock: number[] = [];
  for (const [id, { publishedAt, seenAt }] of seen) {
    const at = locked.get(id);
    if (at === undefined) continue;
    toLock.push(at - publishedAt);
    afterLock.push(seenAt - at);
  }
  toLock.sort((a, b) => a - b);
  afterLock.sort((a, b) => a - b);
  return {
    samples: toLock.length,
    toLockP50Ms: percentile(toLock, 0.5),
    toLockP99Ms: percentile(toLock, 0.99),
    afterLockP50Ms: percentile(afterLock, 0.5),
    afterLockP99Ms: percentile(afterLock, 0.99),
  };
}

/** Nearest-rank percentile of sorted values. */
function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return round(sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] as number, 1);
}

interface Answer {
  readonly status: number;
  readonly watermark: string | undefined;
  readonly body: string;
}

function get(agent: Agent, url: string, key: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { agent, headers: { 'x-api-key': key } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const watermark = response.headers['x-sync-watermark'];
        resolve({ status: response.statusCode ?? 0, watermark: typeof watermark === 'string' ? watermark : undefined, body: Buffer.concat(chunks).toString('utf8') });
      });
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/**
 * A sync client of one company polling for changes, once its first answer came; `done` resolves when it stops
 * (once `running()` turns false). Its
 * first pass starts from now (since = the present time), so the pages hold only the run's changes.
 */
async function startPoller(
  origin: string,
  company: WatchedCompany,
  pollMs: number,
  onItem: (role: unknown, at: number) => void,
  pollTimes: number[],
  running: () => boolean,
): Promise<{ readonly done: Promise<void> }> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const base = `${origin}${API}/candidates?limit=100`;
  const first = await get(agent, `${base}&since=${encodeURIComponent(new Date().toISOString())}`, company.key);
  if (first.status !== 200 || first.watermark === undefined) throw new Error(`the poller of ${company.id} was answered ${first.status}: ${first.body.slice(0, 300)}`);
  let since = first.watermark;
  const loop = async () => {
    while (running()) {
      const passStarted = performance.now();
      let cursor: string | null = null;
      let next: string | undefined;
      do {
        const requested = performance.now();
        const answer = await get(agent, `${base}&since=${encodeURIComponent(since)}${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`, company.key);
        const at = performance.now();
        pollTimes.push(at - requested);
        if (answer.status !== 200) throw new Error(`the poller of ${company.id} was answered ${answer.status}: ${answer.body.slice(0, 300)}`);
        next ??= answer.watermark;
        const page = JSON.parse(answer.body) as { items: { resume?: { role?: unknown } | null }[]; nextCursor: string | null };
        for (const item of page.items) onItem(item.resume?.role, at);
        cursor = page.nextCursor;
      } while (cursor !== null);
      if (next !== undefined) since = next;
      const wait = passStarted + pollMs - performance.now();
      if (wait > 0) await new Promise((done) => setTimeout(done, wait));
    }
    agent.destroy();
  };
  const done = loop();
  // Surfaces where the run awaits it, at the end.
  done.catch(() => undefined);
  return { done };
}
