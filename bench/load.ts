import autocannon from 'autocannon';
import { ProgressBar } from './progress.js';

export interface LoadFigures {
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly requests: number;
  /** Answers that were not 2xx, and connection errors and timeouts: a run with any is suspect. */
  readonly non2xx: number;
  readonly errors: number;
  /** Bytes read per answer, headers included. */
  readonly bytesPerResponse: number;
}

export interface LoadSpec {
  readonly title: string;
  readonly url: string;
  readonly connections: number;
  readonly durationS: number;
  readonly warmupS: number;
  readonly method?: 'GET' | 'POST';
  readonly headers?: Record<string, string>;
  /** A new body for every request (POST with new externalIds). */
  readonly body?: () => string;
  /** Fixed bodies, sent in turn (POST duplicates). */
  readonly bodies?: readonly string[];
}

/** A warm-up run (JIT, pools, caches), then the measured one, both with the same settings. */
export async function measure(spec: LoadSpec): Promise<LoadFigures> {
  if (spec.warmupS > 0) await run(spec, spec.warmupS, `${spec.title} (warm-up)`);
  const result = await run(spec, spec.durationS, spec.title);
  const total = result.requests.total;
  return {
    requestsPerSecond: round(total / spec.durationS, 1),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    bytesPerResponse: total === 0 ? 0 : Math.round(result.throughput.total / total),
  };
}

function run(spec: LoadSpec, durationS: number, title: string): Promise<autocannon.Result> {
  const headers = { ...spec.headers, ...(spec.method === 'POST' ? { 'content-type': 'application/json' } : {}) };
  let next = 0;
  const request: autocannon.Request = {
    method: spec.method ?? 'GET',
    headers,
    ...(spec.body !== undefined
      ? { setupRequest: (req: autocannon.Request) => ({ ...req, body: (spec.body as () => string)() }) }
      : spec.bodies !== undefined
        ? { setupRequest: (req: autocannon.Request) => ({ ...req, body: (spec.bodies as readonly string[])[next++ % (spec.bodies as readonly string[]).length] }) }
        : {}),
  };
  const progress = new ProgressBar(title, durationS, 's');
  const started = Date.now();
  const ticker = setInterval(() => progress.set(Math.min(durationS, Math.round((Date.now() - started) / 1000))), 1000);
  return new Promise((resolve, reject) => {
    autocannon({ url: spec.url, connections: spec.connections, duration: durationS, requests: [request], timeout: 30 }, (error, result) => {
      clearInterval(ticker);
      if (error) return reject(error);
      progress.finish(`${round(result.requests.total / durationS, 1)} req/s`);
      resolve(result);
    });
  });
}

export function round(value: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
