import { connect } from 'node:net';
import { pino, type Logger } from 'pino';
import type { RateLimitStoreKind } from '../../../infrastructure/config.js';
import { openSharedRateLimitStore, type RateLimitStore } from '../../../infrastructure/rate-limit-store.js';

export const REDIS_URL = process.env.REDIS_URL?.trim() || 'redis://127.0.0.1:6379';

/** Whether a Redis answers PING at the URL's host and port (no password support needed here). */
export function redisAnswers(url: string = REDIS_URL, timeoutMs = 1_000): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((answer) => {
    const socket = connect(Number(port || 6379), hostname);
    const done = (ok: boolean) => {
      socket.destroy();
      answer(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => done(data.toString().startsWith('+PONG')));
  });
}

/** A logger whose lines the test reads. */
export function capturedLogger(): { logger: Logger; lines: () => Record<string, unknown>[] } {
  const raw: string[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void raw.push(line) });
  return { logger, lines: () => raw.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

/** One instance's view of a shared store: its limiter and what it logged. */
export interface StoreInstance {
  readonly store: RateLimitStore;
  readonly logs: () => Record<string, unknown>[];
  /** The messages of its log lines at `level` (pino's number: 30 info, 40 warn). */
  messages(level: number): string[];
}

export async function openInstance(kind: Exclude<RateLimitStoreKind, 'memory'>, url: string, budget: { points: number; windowS: number }): Promise<StoreInstance> {
  const { logger, lines } = capturedLogger();
  const store = await openSharedRateLimitStore(
    { rateLimitStore: kind, rateLimitPoints: budget.points, rateLimitWindowS: budget.windowS, redisUrl: kind === 'redis' ? url : 'redis://unused' },
    { databaseUrl: kind === 'postgres' ? url : null, logger },
  );
  return {
    store,
    logs: lines,
    messages: (level) => lines().filter((line) => line.level === level).map((line) => String(line.msg)),
  };
}

/** The URL with its host and port replaced, to reach the store through a proxy. */
export function viaPort(url: string, port: number): string {
  const parsed = new URL(url);
  parsed.hostname = '127.0.0.1';
  parsed.port = String(port);
  return parsed.toString();
}

export function targetOf(url: string, defaultPort: number): { host: string; port: number } {
  const parsed = new URL(url);
  return { host: parsed.hostname, port: Number(parsed.port || defaultPort) };
}

export const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** Retries `probe` until it returns true, for at most `withinMs`; false when it never did. */
export async function eventually(probe: () => Promise<boolean>, withinMs: number, everyMs = 100): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    if (await probe()) return true;
    if (Date.now() > deadline) return false;
    await sleep(everyMs);
  }
}
