import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { send, syncAll, type SyncFigures } from './http-get.js';
import { measure, round, type LoadFigures } from './load.js';
import type { ServerProcess } from './server-process.js';

export const API = '/api/integration/v1';

/** A server under load and what its requests carry. */
export interface Target {
  readonly server: ServerProcess;
  readonly headers: Record<string, string>;
}

export interface Settings {
  readonly connections: number;
  readonly durationS: number;
  readonly warmupS: number;
  readonly syncLimit: number;
  readonly candidates: number;
}

export function listLoad(target: Target, path: string, settings: Settings, extraHeaders: Record<string, string> = {}): Promise<LoadFigures> {
  return measure({
    title: `${target.server.name} GET ${path}${extraHeaders['accept-encoding'] ? ` (${extraHeaders['accept-encoding']})` : ''}`,
    url: `${target.server.origin}${API}${path}`,
    connections: settings.connections,
    durationS: settings.durationS,
    warmupS: settings.warmupS,
    headers: { ...target.headers, ...extraHeaders },
  });
}

export interface SyncResult extends SyncFigures {
  readonly peakRssMb: number;
  readonly rssBeforeMb: number;
}

/** One client pages through every listed candidate; the server's resident memory is watched meanwhile. */
export async function fullSync(target: Target, settings: Settings): Promise<SyncResult> {
  const rssBeforeMb = target.server.rssMb();
  target.server.resetPeak();
  const figures = await syncAll(`${target.server.origin}${API}`, target.headers, settings.syncLimit, settings.candidates);
  return { ...figures, peakRssMb: round(target.server.peakMb(), 1), rssBeforeMb: round(rssBeforeMb, 1) };
}

export interface IdSyncResult extends SyncFigures {
  /** Seconds of every pass, in the order taken; the figures above are those of the median pass. */
  readonly secondsByRound: readonly number[];
}

/**
 * One client's identifier-only pass (fields=id) over every listed candidate, as a sync's deletion pass reads it:
 * its bytes and time go next to the full pass's (issue 45: at most 5 % of the bytes, a tenth of the time). A pass
 * lasts a few seconds, which the shared machine's load swings by a third, so it is taken `rounds` times, one after
 * the other, and the median pass kept (the throughput runs alternate servers instead, rounds.ts); the full pass,
 * ten times as long, is taken once. The first pass, right after the full one, is the slowest: the JSON keeps it.
 */
export async function idSync(target: Target, settings: Settings, rounds: number): Promise<IdSyncResult> {
  const passes: SyncFigures[] = [];
  for (let i = 0; i < rounds; i++) {
    passes.push(await syncAll(`${target.server.origin}${API}`, target.headers, settings.syncLimit, settings.candidates, 0.99, 'fields=id'));
  }
  const median = [...passes].sort((a, b) => a.seconds - b.seconds)[Math.floor(passes.length / 2)];
  if (median === undefined) throw new Error('idSync: no pass taken');
  return { ...median, secondsByRound: passes.map((pass) => round(pass.seconds, 2)) };
}

export interface DepthResult {
  readonly firstPage: LoadFigures;
  readonly deepPage: LoadFigures;
  /** p50 of the deep page over p50 of the first. */
  readonly ratio: number;
}

/** The latency of one page near the end of the list against the first page, one request at a time. */
export async function pageDepth(target: Target, deepCursor: string, settings: Settings): Promise<DepthResult> {
  const durationS = Math.max(2, Math.ceil(settings.durationS / 2));
  const one = (title: string, path: string) =>
    measure({ title: `${target.server.name} ${title}`, url: `${target.server.origin}${API}${path}`, connections: 1, durationS, warmupS: Math.min(1, settings.warmupS), headers: target.headers });
  const firstPage = await one('first page', '/candidates?limit=100');
  const deepPage = await one('deep page', `/candidates?limit=100&cursor=${encodeURIComponent(deepCursor)}`);
  return { firstPage, deepPage, ratio: round(deepPage.p50Ms / Math.max(firstPage.p50Ms, 0.001), 2) };
}

export function postLoad(target: Target, settings: Settings, title: string, bodies: { body?: () => string; bodies?: readonly string[] }): Promise<LoadFigures> {
  return measure({
    title: `${target.server.name} POST /applications ${title}`,
    url: `${target.server.origin}${API}/applications`,
    connections: settings.connections,
    durationS: settings.durationS,
    warmupS: settings.warmupS,
    method: 'POST',
    headers: target.headers,
    ...bodies,
  });
}

export interface EncodedSize {
  readonly encoding: string;
  readonly bytes: number;
  /** Whether the decoded body is the identity body's JSON (apart from nothing: the page is the same). */
  readonly sameJson: boolean;
}

/** Body sizes of one page in each encoding, checked to decode to the same JSON. */
export async function encodedSizes(target: Target, path: string): Promise<EncodedSize[]> {
  const url = `${target.server.origin}${API}${path}`;
  const identity = await send(url, { headers: target.headers });
  const plain = JSON.stringify(JSON.parse(identity.bytes.toString('utf8')));
  const sizes: EncodedSize[] = [{ encoding: 'identity', bytes: identity.bytes.length, sameJson: true }];
  for (const [encoding, decode] of [['br', brotliDecompressSync], ['gzip', gunzipSync]] as const) {
    const answer = await send(url, { headers: { ...target.headers, 'accept-encoding': encoding } });
    const decoded = answer.headers['content-encoding'] === encoding ? decode(answer.bytes) : answer.bytes;
    sizes.push({ encoding, bytes: answer.bytes.length, sameJson: JSON.stringify(JSON.parse(decoded.toString('utf8'))) === plain });
  }
  return sizes;
}
