import { AMQPChannelError } from 'rabbitmq-client';
import type { Logger } from 'pino';

/** How long errors of one kind are said once, the others counted: a lost connection fails every acknowledgement in flight. */
const ERROR_QUIET_MS = 10_000;

/**
 * A consumer's errors (an acknowledgement the lost connection could not carry, a setup the broker refused): the
 * first of its kind is logged, then, for ERROR_QUIET_MS, the others of that kind are only counted, and said as
 * counts in one line when the consumer is registered again or stops.
 */
export class QuietErrorLog {
  private readonly said = new Map<string, { at: number; unsaid: number }>();

  constructor(
    private readonly logger: Logger,
    private readonly context: Record<string, unknown>,
    private readonly msg: string,
  ) {}

  say(error: unknown): void {
    const { code, name } = (error ?? {}) as { code?: unknown; name?: unknown };
    const kind = String(code ?? name ?? typeof error);
    const now = Date.now();
    const said = this.said.get(kind);
    if (said !== undefined && now - said.at < ERROR_QUIET_MS) {
      said.unsaid += 1;
      return;
    }
    const before = said?.unsaid ?? 0;
    this.said.set(kind, { at: now, unsaid: 0 });
    this.logger.warn({ err: error, ...this.context, ...(before > 0 ? { moreOfThisKindNotLogged: before } : {}) }, this.msg);
  }

  /** Counts the errors that were not logged one by one, if any, in a line of their own, and starts afresh. */
  sayUnsaid(msg: string): void {
    const unsaid = [...this.said].filter(([, said]) => said.unsaid > 0).map(([kind, said]) => ({ kind, count: said.unsaid }));
    this.said.clear();
    if (unsaid.length > 0) this.logger.info({ ...this.context, errorsNotLogged: unsaid }, msg);
  }
}

/**
 * Whether a consumer error leaves the consumer unregistered until the client sets it up again: one that closed
 * its channel (rabbitmq-client's AMQPChannelError, of which a connection error is one), the broker's cancel
 * (the queue deleted), or a failed setup. An error of a message's handler or a refused acknowledgement alone
 * does not.
 */
export function unregisters(error: unknown): boolean {
  if (error instanceof AMQPChannelError) return true;
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return code === 'CANCEL_FORCED' || (typeof message === 'string' && message.startsWith('consumer setup failed'));
}
