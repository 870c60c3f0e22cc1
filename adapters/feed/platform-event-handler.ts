import { propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Link, type SpanContext, type Tracer } from '@opentelemetry/api';
import { StoreUnavailableError } from '../../application/ports/store-unavailable.error.js';
import type { ApplyPlatformEvent } from '../../application/use-cases/apply-platform-event.use-case.js';
import { BoundedBatchPlaces, CompanyBatches } from '../../application/use-cases/company-batches.js';
import { ChangeNotYetApplicableError, type PlatformEventCommand, type PlatformEventOutcome } from '../../application/use-cases/platform-change.js';
import { DomainError, NotFoundError, ValidationError } from '../../domain/shared/domain-error.js';
import { DETAIL_MAX_LENGTH, describeProblems } from './event-problems.js';
import { ATTRIBUTES } from '../telemetry/spans.js';
import { parsePlatformEvent, type EventMeta, type ParsedPlatformEvent } from './platform-event-parser.js';

export interface FeedMessage {
  readonly body: Buffer | string;
  /** times the consumer took this event before (0 first) */
  readonly attempt: number;
}

/** Events of one company applied in one transaction at most (ApplyPlatformEvent.executeAll). */
export const FEED_BATCH_MAX = 32;

export type FeedRetryReason = 'store_unavailable' | 'store_timeout' | 'not_yet_applicable' | 'unexpected_error';

/**
 * What the broker runtime does with a message. `detail` never holds personal data: JSON Pointers and rules,
 * ids, codes. `cause` is set for an unexpected error only (a bug), so that its stack can be logged; its
 * message is not fit for a header.
 */
export type FeedDecision =
  | { readonly action: 'ack'; readonly outcome: PlatformEventOutcome; readonly event: EventMeta; readonly time: Date | null }
  | { readonly action: 'retry'; readonly reason: FeedRetryReason; readonly detail: string; readonly event: Partial<EventMeta>; readonly cause?: unknown }
  | { readonly action: 'dead'; readonly reason: string; readonly detail: string; readonly event: Partial<EventMeta>; readonly cause?: unknown };

/**
 * The feed's driving adapter: a message in, the use case called, a decision out (DESIGN 4a). It holds no rule
 * of the business, only which failures may pass:
 *
 * - an event that cannot be read is dead at once, with the parser's reason;
 * - the database away is retried for as long as it takes, never dead for that alone;
 * - a change that may apply once an earlier event arrives, and an unexpected error, are retried until the
 *   event was taken `maxAttempts` times, then dead (`not_applicable`, `unexpected_error`);
 * - a missing company, a broken rule or any other refusal of the domain can never pass: dead at once.
 *
 * Events of different companies are applied side by side. Those of one company are applied one batch at a time,
 * in arrival order: every fed change takes its company's lock for its whole transaction, so events of one company
 * apply one after another whatever the consumer does; started all at once (a burst of one company's events, up to
 * the prefetch), each would hold a pooled connection while it waits for the lock: the pool runs dry, waits for a
 * connection time out (a false "database away") and the API's reads of that company queue behind them all.
 * Waiting here costs no connection. And the events of a company that queued meanwhile go together, in one
 * transaction (ApplyPlatformEvent.executeAll, group commit): under load, the transaction's fixed cost is shared.
 */
export class PlatformEventHandler {
  private readonly batches: CompanyBatches<PlatformEventCommand, PlatformEventOutcome>;
  /** Tracing on: each command's event span, which its batch's span links to. */
  private readonly eventSpans = new WeakMap<PlatformEventCommand, SpanContext>();

  constructor(
    apply: Pick<ApplyPlatformEvent, 'executeAll'>,
    private readonly options: {
      readonly maxAttempts: number;
      readonly onBatch?: (events: number) => void;
      /**
       * Batches (of all companies) applied at once at most: the database pool's size (DB_POOL_MAX), so that the
       * batches of many companies wait their turn here, holding nothing, rather than in the pool, whose wait
       * for a connection is bounded and would end as a false "database away". A company's batch is cut when it
       * gets its place, so the events its company receives while it waits go in it. Unbounded when not given.
       */
      readonly maxConcurrentBatches?: number;
      /**
       * Tracing on (OTEL_*): each event in a span continuing the platform's trace (its `traceparent`), each
       * batch in a span of its own, with the region this consumer serves.
       */
      readonly tracing?: { readonly tracer: Tracer; readonly region: string };
    },
  ) {
    if (!Number.isInteger(options.maxAttempts) || options.maxAttempts < 1) throw new RangeError('maxAttempts must be a whole number, at least 1.');
    const most = options.maxConcurrentBatches ?? Number.POSITIVE_INFINITY;
    if (!(most === Number.POSITIVE_INFINITY || (Number.isInteger(most) && most >= 1))) throw new RangeError('maxConcurrentBatches must be a whole number, at least 1.');
    this.batches = new CompanyBatches(
      async (companyId, commands) => {
        options.onBatch?.(commands.length);
        return options.tracing === undefined ? apply.executeAll(commands) : this.tracedBatch(options.tracing.tracer, companyId, commands, apply);
      },
      { concurrency: 1, maxItems: FEED_BATCH_MAX, ...(most === Number.POSITIVE_INFINITY ? {} : { places: new BoundedBatchPlaces(most) }) },
    );
  }

  async handle(message: FeedMessage): Promise<FeedDecision> {
    const startTime = this.options.tracing === undefined ? 0 : Date.now();
    const parsed = parsePlatformEvent(message.body);
    if (!parsed.ok) return { action: 'dead', reason: parsed.reason, detail: parsed.detail, event: parsed.meta };
    return this.options.tracing === undefined ? this.apply(parsed, message.attempt) : this.tracedApply(this.options.tracing, parsed, message.attempt, startTime);
  }

  private async apply(parsed: ParsedPlatformEvent & { ok: true }, attempt: number): Promise<FeedDecision> {
    try {
      const { command } = parsed;
      const outcome = await this.batches.submit(command.companyId, command);
      return { action: 'ack', outcome, event: parsed.meta, time: parsed.time };
    } catch (error) {
      return this.onFailure(error, attempt, parsed.meta);
    }
  }

  /** The event's span: a child of the platform's span when the event carries its `traceparent`, else a new trace. */
  private tracedApply(tracing: { readonly tracer: Tracer; readonly region: string }, parsed: ParsedPlatformEvent & { ok: true }, attempt: number, startTime: number): Promise<FeedDecision> {
    const { meta } = parsed;
    const parent = propagation.extract(ROOT_CONTEXT, parsed.traceContext);
    const attributes = {
      'messaging.system': 'rabbitmq',
      'messaging.operation.type': 'process',
      'cloudevents.event_id': meta.id,
      'cloudevents.event_type': meta.type,
      'app.feed.attempt': attempt,
      [ATTRIBUTES.companyId]: meta.companyId,
      [ATTRIBUTES.region]: tracing.region,
    };
    return tracing.tracer.startActiveSpan(`feed event ${meta.type}`, { kind: SpanKind.CONSUMER, startTime, attributes }, parent, async (span) => {
      this.eventSpans.set(parsed.command, span.spanContext());
      try {
        const decision = await this.apply(parsed, attempt);
        span.setAttribute('app.feed.decision', decision.action === 'ack' ? decision.outcome : `${decision.action}:${decision.reason}`);
        if (decision.action !== 'ack') span.setStatus({ code: SpanStatusCode.ERROR, message: decision.reason });
        return decision;
      } finally {
        span.end();
      }
    });
  }

  /** A batch's span: under its first event's span (so in that event's trace), linked to every event's. */
  private tracedBatch(tracer: Tracer, companyId: string, commands: readonly PlatformEventCommand[], apply: Pick<ApplyPlatformEvent, 'executeAll'>) {
    const links: Link[] = [];
    for (const command of commands) {
      const context = this.eventSpans.get(command);
      if (context !== undefined) links.push({ context });
    }
    const parent = links[0] === undefined ? ROOT_CONTEXT : trace.setSpanContext(ROOT_CONTEXT, links[0].context);
    const attributes = { [ATTRIBUTES.companyId]: companyId, 'messaging.batch.message_count': commands.length };
    return tracer.startActiveSpan('feed batch', { attributes, links }, parent, async (span) => {
      try {
        return await apply.executeAll(commands);
      } catch (error) {
        span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.name : typeof error });
        throw error;
      } finally {
        span.end();
      }
    });
  }

  private onFailure(error: unknown, attempt: number, event: EventMeta): FeedDecision {
    const lastAttempt = attempt + 1 >= this.options.maxAttempts;
    if (error instanceof StoreUnavailableError) {
      // A statement or lock timeout of this event's work (another session held its company's lock, say): the
      // database answers, so the consumer goes on with other events, and this one is retried later.
      return error.workOnly
        ? { action: 'retry', reason: 'store_timeout', detail: `The database ended the event's work (${error.reason}: ${workEndedBy(error.reason)}).`, event }
        : { action: 'retry', reason: 'store_unavailable', detail: `The database cannot be reached (${error.reason}).`, event };
    }
    if (error instanceof ChangeNotYetApplicableError) {
      const detail = clip(error.message);
      return lastAttempt
        ? { action: 'dead', reason: 'not_applicable', detail: clip(`Still not applicable after ${attempt + 1} attempts: ${error.message}`), event }
        : { action: 'retry', reason: 'not_yet_applicable', detail, event };
    }
    if (error instanceof NotFoundError && error.resource === 'company') {
      return { action: 'dead', reason: 'unknown_company', detail: clip(error.message), event };
    }
    if (error instanceof ValidationError) {
      // Pointers into the use case's input, each with the rule it breaks: bounds, ids and column names, never a
      // person's data (the domain's rules quote no such value).
      const problems = describeProblems(error.problems, DETAIL_MAX_LENGTH - error.message.length - 1);
      return { action: 'dead', reason: 'rule_violated', detail: `${error.message} ${problems}`, event };
    }
    // Domain errors name ids only (DESIGN 3, Personal data).
    if (error instanceof DomainError) return { action: 'dead', reason: error.code, detail: clip(error.message), event };
    const detail = `An unexpected ${error instanceof Error ? error.name : typeof error} stopped the event (attempt ${attempt + 1} of ${this.options.maxAttempts}).`;
    return lastAttempt
      ? { action: 'dead', reason: 'unexpected_error', detail, event, cause: error }
      : { action: 'retry', reason: 'unexpected_error', detail, event, cause: error };
  }
}

/**
 * What ended an event's work while the database answered (StoreUnavailableError.workOnly), in words, by its
 * SQLSTATE: a timeout, or a prepared statement its connection could no longer use (the connection is discarded,
 * the retry gets another).
 */
function workEndedBy(reason: string): string {
  switch (reason) {
    case '57014':
      return 'a statement or lock timeout, DB_STATEMENT_TIMEOUT_MS';
    case '25P03':
      return 'an idle-in-transaction timeout, DB_IDLE_IN_TRANSACTION_TIMEOUT_MS';
    case '26000':
    case '0A000':
      return 'a prepared statement its connection could no longer use';
    default:
      return 'its work only, the database answers';
  }
}

function clip(text: string): string {
  return text.length <= DETAIL_MAX_LENGTH ? text : `${text.slice(0, DETAIL_MAX_LENGTH - 1)}…`;
}
