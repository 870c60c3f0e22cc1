import type { AsyncMessage, SyncMessage } from 'rabbitmq-client';
import type { DeadLetterSummary } from '../../adapters/cli/feed-broker.js';
import { FEED_HEADERS } from './feed-topology.js';

/*
 * A dead letter as `admin feed dead list` shows it. Letters come from two places: the consumer, which sets
 * one aside with its reason in FEED_HEADERS, and the broker itself (a message redelivered past the main
 * queue's delivery limit), which records its reason in `x-death`. A body is never printed: the event's `source`
 * (which no property carries) and, when the message's properties do not tell its id, type or company, the
 * event's own `id`, `type` and `companyid` are read from it, and nothing else.
 */

/** The header that carries the event's company, so that a dead letter tells it without its body being read. */
export const COMPANY_HEADER = 'companyid';

/** What a dead letter tells of itself, from its properties and headers; of its body, only the event's attributes that name it. */
export function summarize(letter: Pick<SyncMessage, 'messageId' | 'type' | 'headers' | 'body'>): DeadLetterSummary {
  const headers = letter.headers ?? {};
  const company = text(headers[COMPANY_HEADER]);
  // The body is parsed for the event's source, which no property carries, and for what the properties do not tell
  // (a platform that sets no message id, say).
  const named = bodyAttributes(letter.body);
  const death = latestDeath(headers['x-death']);
  const feedReason = text(headers[FEED_HEADERS.deadReason]);
  const brokerReason = text(headers['x-last-death-reason']) ?? text(death?.reason) ?? text(headers['x-first-death-reason']);
  const brokerQueue = text(headers['x-last-death-queue']) ?? text(death?.queue) ?? text(headers['x-first-death-queue']);
  return {
    id: letter.messageId || (named?.id ?? null),
    source: named?.source ?? null,
    type: letter.type || (named?.type ?? null),
    companyId: company ?? named?.companyid ?? null,
    reason: feedReason ?? brokerReason,
    detail: text(headers[FEED_HEADERS.deadDetail]) ?? (feedReason === null && brokerReason !== null ? brokerDetail(brokerReason, brokerQueue) : null),
    deadAt: text(headers[FEED_HEADERS.deadAt]) ?? (typeof death?.time === 'number' ? new Date(death.time * 1000).toISOString() : null),
    // The header numbers the take from 0: one the consumer set aside was taken once more than it says (the take that
    // decided), as FEED_MAX_ATTEMPTS and the letter's detail count; one the broker set aside, as often as it says.
    attempts: (count(headers[FEED_HEADERS.attempt]) ?? 0) + (feedReason === null ? 0 : 1),
  };
}

function brokerDetail(reason: string, queue: string | null): string {
  const from = queue === null ? 'set aside by the broker' : `set aside by the broker from ${queue}`;
  const why: Readonly<Record<string, string>> = {
    delivery_limit: 'delivered more often than its delivery limit without being settled (a consumer stopped on it every time)',
    rejected: 'rejected by a consumer without being requeued',
    expired: 'its time to live ran out',
    maxlen: 'the queue was full',
  };
  return `${from}: ${why[reason] ?? reason}`;
}

/** The most recent entry of `x-death` (the broker puts it first). */
function latestDeath(value: unknown): Record<string, unknown> | null {
  const first: unknown = Array.isArray(value) ? value[0] : null;
  return first !== null && typeof first === 'object' ? (first as Record<string, unknown>) : null;
}

/** `id`, `source`, `type` and `companyid` of a body that is a JSON object; nothing else of it is ever read out. */
function bodyAttributes(body: unknown): { id: string | null; source: string | null; type: string | null; companyid: string | null } | null {
  let value: unknown = body;
  if (Buffer.isBuffer(body) || typeof body === 'string') {
    try {
      value = JSON.parse(body.toString());
    } catch {
      return null;
    }
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const event = value as Record<string, unknown>;
  return { id: text(event.id), source: text(event.source), type: text(event.type), companyid: text(event.companyid) };
}

export function byDeadAt(a: DeadLetterSummary, b: DeadLetterSummary): number {
  const time = (letter: DeadLetterSummary) => (letter.deadAt === null ? Number.NaN : Date.parse(letter.deadAt));
  const [ta, tb] = [time(a), time(b)].map((t) => (Number.isNaN(t) ? Number.POSITIVE_INFINITY : t)) as [number, number];
  if (ta !== tb) return ta < tb ? -1 : 1;
  // Same moment: any fixed order will do, as long as the same letters always come out the same.
  const [ka, kb] = [JSON.stringify(a), JSON.stringify(b)];
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

function text(value: unknown): string | null {
  if (Buffer.isBuffer(value)) return value.length === 0 ? null : value.toString('utf8');
  return typeof value === 'string' && value !== '' ? value : null;
}

function count(value: unknown): number | null {
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : null;
}

/** The company header the platform (and `admin feed publish`) sets on a message, when it is text. */
export function companyHeaderOf(message: AsyncMessage): string | undefined {
  const value: unknown = message.headers?.[COMPANY_HEADER];
  return typeof value === 'string' && value !== '' ? value : undefined;
}
