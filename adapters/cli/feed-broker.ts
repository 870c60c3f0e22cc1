/**
 * What the `feed` commands need of the platform feed's broker (DESIGN 4a). The CLI adapter never talks to
 * the broker's client library itself (STYLE: the broker is infrastructure): the composition root hands it
 * a FeedAccess, and infrastructure/feed/feed-admin-broker.ts implements it.
 */
export interface FeedAccess {
  /** FEED_URL, when set: the broker used when a command is given no --url. */
  readonly url: string | null;
  /** Connects to the broker at `url` and declares the feed's topology (idempotent); the caller closes it. */
  open(url: string): Promise<FeedBroker>;
}

/** One event as the platform publishes it: a line of the events file, sent byte for byte. */
export interface OutgoingFeedEvent {
  /** The event's JSON text, as it was written. */
  readonly body: string;
  /** Its `id`, `type` and `companyid` attributes, when they are strings (carried in the message's properties). */
  readonly id: string | null;
  readonly type: string | null;
  readonly companyId: string | null;
}

/** Told as a long operation goes on, for a progress line. */
export interface FeedProgress {
  /** How many items the operation will go through (known once it has begun). */
  start(total: number): void;
  advance(count: number): void;
}

export interface PublishOutcome {
  readonly published: number;
  /** Acknowledged by the broker and routed to the queue. */
  readonly confirmed: number;
}

/** A dead letter as an operator sees it: where it came from and why it was set aside, never its content. */
export interface DeadLetterSummary {
  readonly id: string | null;
  /** The event's `source` attribute, read from its body: an event id is unique only within its source. */
  readonly source: string | null;
  readonly type: string | null;
  readonly companyId: string | null;
  /** A stable code (`invalid_event`, ...), or the broker's own reason (`delivery_limit`). */
  readonly reason: string | null;
  readonly detail: string | null;
  /** When it was set aside (RFC 3339). */
  readonly deadAt: string | null;
  /**
   * How many times the consumer took it, the take that set it aside included (FEED_MAX_ATTEMPTS counts them; a take
   * while the database was away is not one); for a letter the broker set aside, the takes the consumer had
   * finished before (its redeliveries to a consumer that stopped on it are not counted).
   */
  readonly attempts: number;
}

/** Which dead letters a command takes: those with this event id and/or source; all of them when neither is given. */
export interface DeadLetterSelection {
  readonly id?: string;
  readonly source?: string;
}

/** Whether a letter is one of those selected. */
export function isSelected(letter: Pick<DeadLetterSummary, 'id' | 'source'>, selection: DeadLetterSelection): boolean {
  return (selection.id === undefined || letter.id === selection.id) && (selection.source === undefined || letter.source === selection.source);
}

export interface ReplayOutcome {
  readonly replayed: number;
  /** Letters with the requested id that the broker did not take back (they stay dead). */
  readonly failed: number;
  /** Letters selected (all of them when no id or source was given). */
  readonly matched: number;
}

export interface FeedBroker {
  /** The main queue (FEED_QUEUE); the dead letters are in `<queue>.dead`. */
  readonly queue: string;
  /** Publishes every event to the main queue, in order, each confirmed by the broker. */
  publish(events: readonly OutgoingFeedEvent[], progress?: FeedProgress): Promise<PublishOutcome>;
  /** The dead letters, in the order they were set aside, without taking any of them off the queue. */
  listDead(): Promise<DeadLetterSummary[]>;
  /** Moves the dead letters selected back to the main queue as fresh deliveries. */
  replayDead(selection: DeadLetterSelection, progress?: FeedProgress): Promise<ReplayOutcome>;
  /**
   * Removes the dead letters selected for good, and tells which, in the order they were set aside: for an event
   * that can never apply and should not, once an operator has seen why.
   */
  discardDead(selection: DeadLetterSelection, progress?: FeedProgress): Promise<DeadLetterSummary[]>;
  close(): Promise<void>;
}
