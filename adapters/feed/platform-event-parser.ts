import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { PLATFORM_CHANGE_TYPES, type PlatformChangeType, type PlatformEventCommand } from '../../application/use-cases/platform-change.js';
import { parseSince } from '../../domain/paging/since.js';
import { isStorableText } from '../json/storable-text.js';
import { describeProblems, problemsOfSchemaErrors, type EventProblem } from './event-problems.js';
import * as F from './feed-limits.js';
import { readEventJson } from './event-json.js';
import { platformChangeOf } from './platform-change-of.js';
import { cloudEventCoreSchema, PLATFORM_EVENT_TYPES, platformEventSchema } from './schemas/platform-event.schema.js';

/** What names an event in logs, metrics and the headers of a dead letter: identifiers only, no personal data. */
export interface EventMeta {
  readonly id: string;
  readonly type: string;
  readonly companyId: string;
  readonly source: string;
}

/** W3C trace context as the event carries it; read as it was sent, since validation drops attributes it does not list. */
export type TraceContextAttributes = { traceparent?: string; tracestate?: string };

/** Why an event can never apply, as far as reading it tells. */
export type PlatformEventFault = 'invalid_json' | 'invalid_event' | 'unknown_type' | 'invalid_data';

export type ParsedPlatformEvent =
  | {
      readonly ok: true;
      readonly command: PlatformEventCommand;
      readonly meta: EventMeta;
      readonly time: Date | null;
      /** The CloudEvents distributed-tracing extension: the platform's `traceparent` and `tracestate`, when sent. */
      readonly traceContext: TraceContextAttributes;
    }
  | {
      readonly ok: false;
      readonly reason: PlatformEventFault;
      /** JSON Pointers into the event and the rule each breaks; never a value. */
      readonly detail: string;
      /** Those of the event's identifiers that could be read. */
      readonly meta: Partial<EventMeta>;
    };

// ajv-formats is CommonJS; under NodeNext its function is the default export's `default`.
const addFormats = addFormatsModule.default;

// As the API reads a body: every problem at once, unknown fields dropped (never stored), no coercion.
const ajv = new Ajv({ allErrors: true, removeAdditional: 'all', useDefaults: true, coerceTypes: false, allowUnionTypes: true, strict: true, verbose: true });
addFormats(ajv, ['date', 'date-time', 'uri-reference']);

const validateCore = ajv.compile(cloudEventCoreSchema);
const validators = Object.fromEntries(
  PLATFORM_CHANGE_TYPES.map((type) => [type, ajv.compile(platformEventSchema(type, PLATFORM_EVENT_TYPES[type].data))]),
) as Record<PlatformChangeType, ValidateFunction>;

type Fields = Record<string, unknown>;

/**
 * Reads one message of the feed: a structured CloudEvent (JSON) of one of the ten types, checked against the
 * schemas the AsyncAPI document publishes, into the command of ApplyPlatformEvent. The CloudEvents attributes
 * every event has are checked first; then the type; then the type's own schema. A fault in the envelope is
 * `invalid_event` (reported with those of its data, if any); one in the data only, `invalid_data`.
 */
export function parsePlatformEvent(body: Buffer | string): ParsedPlatformEvent {
  const read = readEventJson(body);
  if (!read.ok) return failure(read.reason, [read.problem], {});
  const event = read.value;
  if (!isFields(event)) return failure('invalid_event', [{ pointer: '', message: 'must be a JSON object' }], {});
  const meta = metaOf(event);
  const traceContext = traceContextOf(event);
  // Checked on a copy: dropping unknown attributes is for the type's own schema, which lists them all.
  const core = Object.fromEntries(['specversion', 'id', 'source', 'type'].filter((key) => Object.hasOwn(event, key)).map((key) => [key, event[key]]));
  const coreValid = validateCore(core);
  const type = typeof event.type === 'string' && isPlatformChangeType(event.type) ? event.type : null;
  if (type === null) {
    return coreValid
      ? failure('unknown_type', [{ pointer: '/type', message: `must be one of ${PLATFORM_CHANGE_TYPES.join(', ')}` }], meta)
      : failure('invalid_event', problemsOfSchemaErrors(validateCore.errors ?? []), meta);
  }
  // Of a type it knows, the type's schema tells every problem at once, those of the attributes above too.
  const validate = validators[type];
  const problems = validate(event) ? [] : problemsOfSchemaErrors(validate.errors ?? []);
  if (type === 'application.submitted') problems.push(...subjectProblems(event));
  if (problems.length > 0) return failure(problems.some(isEnvelopeProblem) ? 'invalid_event' : 'invalid_data', problems, meta);
  const change = platformChangeOf(type, event.data);
  if ('problems' in change) return failure('invalid_data', change.problems.map(({ pointer, message }) => ({ pointer: `/data${pointer}`, message })), meta);
  const time = eventTimeOf(event.time);
  return {
    ok: true,
    command: {
      source: event.source as string,
      eventId: event.id as string,
      companyId: event.companyid as string,
      subject: event.subject as string,
      // Applications are settled by their externalId: an entityversion, if sent, is not used.
      version: typeof event.entityversion === 'number' ? event.entityversion : 0,
      change,
    },
    meta: meta as EventMeta,
    time,
    traceContext,
  };
}

/** The first instant of year 0001 and of year 10000 (UTC): the years a time written as ISO 8601 text holds. */
const FIRST_TIME_MS = Date.parse('0001-01-01T00:00:00.000Z');
const PAST_LAST_TIME_MS = Date.parse('+010000-01-01T00:00:00.000Z');

/**
 * An event's `time` as the feed uses it (the delay from it to the commit, a metric; never how an event applies):
 * null when absent, or outside years 0001..9999 once in UTC. The schema takes any four-digit year with any
 * offset ("0000-06-01T00:00:00Z", "9999-12-31T23:30:00-01:00"), which PostgreSQL refuses to store; such a
 * time says nothing true of when the change was made, and is treated as none rather than failing the event.
 */
export function eventTimeOf(value: unknown): Date | null {
  if (typeof value !== 'string') return null;
  const time = parseSince(value) ?? null;
  if (time === null) return null;
  const ms = time.getTime();
  return ms >= FIRST_TIME_MS && ms < PAST_LAST_TIME_MS ? time : null;
}

/** An application's subject is its externalId, so that the two can never name different applications. */
function subjectProblems(event: Fields): EventProblem[] {
  const { subject, data } = event;
  if (typeof subject !== 'string' || !isFields(data) || typeof data.externalId !== 'string') return [];
  return subject === data.externalId ? [] : [{ pointer: '/subject', message: 'must equal /data/externalId' }];
}

function isEnvelopeProblem(problem: EventProblem): boolean {
  return problem.pointer !== '/data' && !problem.pointer.startsWith('/data/');
}

const META_FIELDS = [
  { key: 'id', attribute: 'id', max: F.EVENT_ID_MAX_LENGTH },
  { key: 'type', attribute: 'type', max: F.EVENT_TYPE_MAX_LENGTH },
  { key: 'companyId', attribute: 'companyid', max: F.COMPANY_ID_MAX_LENGTH },
  { key: 'source', attribute: 'source', max: F.EVENT_SOURCE_MAX_LENGTH },
] as const;

/** The identifiers an event gives that are fit for a log line or a header: strings within their bounds. */
function metaOf(event: Fields): Partial<EventMeta> {
  const meta: { -readonly [K in keyof EventMeta]?: string } = {};
  for (const { key, attribute, max } of META_FIELDS) {
    const value = event[attribute];
    if (typeof value === 'string' && value.length > 0 && value.length <= max && isStorableText(value)) meta[key] = value;
  }
  return meta;
}

/** The W3C header's bounds: a `tracestate` holds at most 512 characters; the propagator checks the rest. */
const TRACE_CONTEXT_MAX_LENGTH = 512;

function traceContextOf(event: Fields): TraceContextAttributes {
  const context: TraceContextAttributes = {};
  for (const key of ['traceparent', 'tracestate'] as const) {
    const value = event[key];
    if (typeof value === 'string' && value.length <= TRACE_CONTEXT_MAX_LENGTH) context[key] = value;
  }
  return context;
}

function failure(reason: PlatformEventFault, problems: readonly EventProblem[], meta: Partial<EventMeta>): ParsedPlatformEvent {
  return { ok: false, reason, detail: describeProblems(problems), meta };
}

function isFields(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isPlatformChangeType(type: string): type is PlatformChangeType {
  return (PLATFORM_CHANGE_TYPES as readonly string[]).includes(type);
}
