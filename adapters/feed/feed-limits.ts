import { JSON_BODY_LIMIT_BYTES, JSON_MAX_DEPTH } from '../json/json-text.js';

/**
 * Bounds of the envelope of a platform event. The data inside it takes its bounds from the domain; these are
 * the transport's own: identifiers the feed records (event ids per source, in the ledger) and copies into the
 * headers of a dead letter, so each is short and bounded.
 */
export const EVENT_ID_MAX_LENGTH = 200;
export const EVENT_SOURCE_MAX_LENGTH = 500;
export const EVENT_TYPE_MAX_LENGTH = 100;
/** Companies' ids are UUIDs the service made (36 characters); anything much longer names none. */
export const COMPANY_ID_MAX_LENGTH = 64;
/** A card's id: the service's (UUIDs) or the platform's, which are no longer than its vacancy ids. */
export const CARD_ID_MAX_LENGTH = 64;

/** An application.submitted carries a POST /applications body (at most JSON_BODY_LIMIT_BYTES) and the envelope. */
export const EVENT_MAX_BYTES = JSON_BODY_LIMIT_BYTES + 64 * 1024;
/** As for a request body: JSON.parse of a deeply nested text blocks the event loop; events need 5 levels. */
export const EVENT_MAX_DEPTH = JSON_MAX_DEPTH;

/** The queue the platform publishes to unless FEED_QUEUE names another. */
export const DEFAULT_FEED_QUEUE = 'integration.platform-events';
