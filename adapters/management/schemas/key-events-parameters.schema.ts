import { KEY_EVENTS_LIMIT_DEFAULT, KEY_EVENTS_LIMIT_MAX, KEY_EVENTS_LIMIT_MIN } from '../../../domain/service-key/key-event.js';

/**
 * The query parameters of GET /companies/{companyId}/key-events, as OpenAPI parameter objects; the query
 * reader (key-events-query.ts) checks the same constants. A query string carries text, so it is read by hand
 * rather than by ajv, which would have to coerce types.
 */
export const eventsLimitParameter = {
  name: 'limit',
  in: 'query',
  required: false,
  description: 'Page size: a base-10 integer. It may change from page to page. Given at most once, like every parameter.',
  schema: { type: 'integer', minimum: KEY_EVENTS_LIMIT_MIN, maximum: KEY_EVENTS_LIMIT_MAX, default: KEY_EVENTS_LIMIT_DEFAULT },
  example: 20,
} as const;

export const eventsCursorParameter = {
  name: 'cursor',
  in: 'query',
  required: false,
  description: 'nextCursor of the previous page, unchanged; otherwise 400 invalid_cursor. An empty value means the first page.',
  schema: { type: 'string' },
  example: 'eyJ2IjoyLCJpIjoiMDE5YTk4YzAtNWUwMC03MDAwLThhMDAtMDAwMDAwMDAwMDA3IiwiZiI6IjJ6dXZoaHFiYmJhYmcifQ',
} as const;

export const KEY_EVENTS_PARAMETERS = [eventsLimitParameter, eventsCursorParameter] as const;
