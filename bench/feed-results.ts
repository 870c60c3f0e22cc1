import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { LatencyFigures } from './feed-latency.js';
import type { ThroughputFigures } from './feed-throughput.js';
import { round } from './feed-throughput.js';
import { judge, type ScenarioResult } from './report.js';

/** Targets of issue 12 ("Performance"); its absolute 2,000 events/s was withdrawn (this machine cannot show one). */
export const FEED_TARGETS = { ratio: '>= 0.7', latencyP99Ms: '<= 500' } as const;

export interface FeedRound {
  readonly service: ThroughputFigures;
  readonly ceiling: ThroughputFigures | null;
  /** The ceiling's own count of outcomes by event type (applied, stale, duplicate, ...). */
  readonly ceilingOutcomes: Record<string, Record<string, number>> | null;
}

export interface FeedSummary {
  readonly eventsPerSecond: number;
  readonly ceilingEventsPerSecond: number | null;
  readonly ratio: number | null;
  /** service/ceiling of every round, in the order taken; the figures above are the median round's. */
  readonly ratiosByRound: readonly number[];
  /** The service's events/s of every round. */
  readonly eventsPerSecondByRound: readonly number[];
  readonly medianRound: number;
  readonly latencyP50Ms: number | null;
  readonly latencyP99Ms: number | null;
  readonly targets: typeof FEED_TARGETS;
  readonly met: { readonly ratio: boolean | null; readonly latencyP99Ms: boolean | null };
}

/** The round whose ratio is the median (the service's median rate when there is no ceiling). */
export function summarize(rounds: readonly FeedRound[], latency: LatencyFigures | null): FeedSummary {
  const ratioOf = (r: FeedRound) => (r.ceiling === null ? null : round(r.service.eventsPerSecond / Math.max(r.ceiling.eventsPerSecond, 1), 2));
  const key = (r: FeedRound) => ratioOf(r) ?? r.service.eventsPerSecond;
  const order = rounds.map((_, i) => i).sort((a, b) => key(rounds[a] as FeedRound) - key(rounds[b] as FeedRound));
  const medianRound = order[Math.floor(order.length / 2)] as number;
  const kept = rounds[medianRound] as FeedRound;
  const ratio = ratioOf(kept);
  const p99 = latency?.p99Ms ?? null;
  return {
    eventsPerSecond: kept.service.eventsPerSecond,
    ceilingEventsPerSecond: kept.ceiling?.eventsPerSecond ?? null,
    ratio,
    ratiosByRound: rounds.map(ratioOf).filter((r): r is number => r !== null),
    eventsPerSecondByRound: rounds.map((r) => r.service.eventsPerSecond),
    medianRound: medianRound + 1,
    latencyP50Ms: latency?.p50Ms ?? null,
    latencyP99Ms: p99,
    targets: FEED_TARGETS,
    met: {
      ratio: judge(ratio, FEED_TARGETS.ratio),
      // Missing samples count against it: a change never seen is not visible within any bound.
      latencyP99Ms: latency === null ? null : latency.missing > 0 ? false : judge(p99, FEED_TARGETS.latencyP99Ms),
    },
  };
}

/** The table's rows, in report.ts's shape (its formatTable draws them). */
export function feedRows(
  summary: FeedSummary,
  rounds: readonly FeedRound[],
  latency: LatencyFigures | null,
  sustainable: LatencyFigures | null,
  events: number,
  prefetch: number,
  ceilingLatency: LatencyFigures | null = null,
): ScenarioResult[] {
  const kept = rounds[summary.medianRound - 1] as FeedRound;
  const scenario = `${events} pre-published events, mix, prefetch ${prefetch}`;
  const rows: ScenarioResult[] = [
    {
      scenario: `${scenario} (ceiling: plain versioned SQL, the same rows)`,
      metric: 'events/s',
      ours: summary.eventsPerSecond,
      ceiling: summary.ceilingEventsPerSecond,
      ratio: summary.ratio,
      target: kept.ceiling === null ? null : FEED_TARGETS.ratio,
      met: summary.met.ratio,
      details: { service: kept.service, ceiling: kept.ceiling, ratiosByRound: summary.ratiosByRound },
    },
    {
      scenario: `${scenario}: absolute`,
      metric: 'events/s',
      ours: summary.eventsPerSecond,
      ceiling: null,
      ratio: null,
      target: null,
      met: null,
      details: { eventsPerSecondByRound: summary.eventsPerSecondByRound },
    },
  ];
  const p50p99 = (figures: LatencyFigures | null): [number, number] | undefined =>
    figures === null || figures.p50Ms === null || figures.p99Ms === null ? undefined : [figures.p50Ms, figures.p99Ms];
  const latencyRow = (figures: LatencyFigures, target: string | null, note: string, ceiling: LatencyFigures | null = null): ScenarioResult => ({
    scenario: `publish to visible in GET /candidates?since, ${figures.rate} events/s${note}, ${figures.pollers} pollers every ${figures.pollIntervalMs} ms (${figures.seen}/${figures.samples} samples)`,
    metric: 'p99 ms',
    ours: figures.p99Ms,
    // The same measure with the ceiling applying the events: what the machine allows (no ratio is a target).
    ceiling: ceiling?.p99Ms ?? null,
    ratio: null,
    target,
    met: target === null ? null : summary.met.latencyP99Ms,
    oursLatencyMs: p50p99(figures),
    ceilingLatencyMs: p50p99(ceiling),
    details: ceiling === null ? { ...figures } : { ...figures, ceiling },
  });
  if (latency !== null) rows.push(latencyRow(latency, FEED_TARGETS.latencyP99Ms, '', ceilingLatency));
  if (sustainable !== null) rows.push(latencyRow(sustainable, null, ' (half the throughput; diagnostic)'));
  return rows;
}

/** bench/results/feed-<date>.json: the feed's results beside the other benches' (which are <date>.json). */
export async function writeFeedResults(dir: string, document: Record<string, unknown>): Promise<string> {
  await mkdir(dir, { recursive: true });
  const stamp = new Date().toISOString().replace(/:/g, '-').replace(/\..+$/, '');
  const path = join(dir, `feed-${stamp}.json`);
  await writeFile(path, `${JSON.stringify(document, null, 2)}\n`);
  return path;
}
