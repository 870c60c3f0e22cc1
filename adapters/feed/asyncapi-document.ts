import { PLATFORM_CHANGE_TYPES } from '../../application/use-cases/platform-change.js';
import { PLATFORM_EVENT_EXAMPLES } from './asyncapi-examples.js';
import { DEFAULT_FEED_QUEUE } from './feed-limits.js';
import { PLATFORM_EVENT_TYPES, platformEventSchema } from './schemas/platform-event.schema.js';

/** Structured CloudEvents (JSON format); the consumer reads the body whatever the message's content type says. */
const CONTENT_TYPE = 'application/cloudevents+json';
const CHANNEL = 'platformEvents';
const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const DESCRIPTION = [
  'The platform where recruiters work publishes every change it makes to RabbitMQ; the feed consumer of the integration API',
  '(`npm run feed`) applies each through the same use cases as the API and the admin CLI, so integrators see it in',
  '`GET /vacancies` and `GET /candidates` within a second.',
  '',
  'Every message is a CloudEvents 1.0 event in the structured JSON format, with two extension attributes: `companyid`,',
  'the company, and `entityversion`, a whole number the platform increases at every change of the entity (the `subject`).',
  'Attributes and fields not listed are ignored. Strings may hold no U+0000 and no unpaired surrogate; lengths count',
  'Unicode code points.',
  '',
  '- **Exactly once in effect.** An event is acknowledged only after its effect has committed, with its `id` recorded per',
  '  `source` in the same transaction: an event delivered or published again changes nothing.',
  '- **One merge rule: order does not matter.** Every event changes exactly one entity (its `subject`). Per entity, each',
  '  aspect (for a card: its person and resume, its stage, its vacancy, each transfer; for a vacancy: its fields, its',
  '  board; for both: its existence) holds the value of the highest `entityversion` that set it. Existence is decided',
  '  by the highest version among the entity\'s creating and deleting events; a deletion\'s tombstone keeps its version',
  '  (for FEED_TOMBSTONE_DAYS, 7), and every event at or below it is of an earlier life. So the state is a function of',
  '  the set of events delivered, whatever their order, repetition, or the consumers that applied them.',
  '- **What a change does to other entities comes as their own events**, as change data capture publishes every row an',
  '  operation touches: deleting a vacancy publishes, for each card it takes off, that card\'s `candidate.detached` with',
  '  the card\'s next version. An `application.submitted` is settled by its `externalId` instead, as `POST /applications`',
  '  is; the cards of applications, which the platform does not version, a `vacancy.deleted` takes off itself.',
  '- **Nothing lost, nothing stuck.** An event that can never apply (not JSON, against its schema, of an unknown type or',
  '  company, or breaking a rule of the service) goes to the dead-letter queue `<queue>.dead` with its reason in the',
  '  header `x-feed-dead-reason`: `invalid_json`, `invalid_event`, `unknown_type`, `invalid_data`, `unknown_company`,',
  '  `rule_violated`, `not_applicable` (it waited for an earlier event that never came), `unexpected_error` or the code',
  '  of another refusal. A failure that may pass (the database away) is retried with a growing delay, never dropped.',
].join('\n');

export interface AsyncApiSettings {
  /** The queue the platform publishes to (FEED_QUEUE). */
  readonly queue?: string;
}

/**
 * The AsyncAPI 3.0 document of the platform feed, built from the very schemas that validate its events: one
 * message per event type, whose payload is the envelope with that type's data, and an example of each.
 */
export function buildAsyncApiDocument(settings: AsyncApiSettings = {}) {
  const queue = settings.queue ?? DEFAULT_FEED_QUEUE;
  const specs = PLATFORM_CHANGE_TYPES.map((type) => ({ type, ...PLATFORM_EVENT_TYPES[type] }));
  return {
    asyncapi: '3.0.0',
    info: { title: 'Platform feed of the hiring platform integration API', version: '1.0.0', description: DESCRIPTION },
    defaultContentType: CONTENT_TYPE,
    channels: {
      [CHANNEL]: {
        address: queue,
        title: 'Platform events',
        description: `The durable quorum queue of the feed (FEED_QUEUE, default ${DEFAULT_FEED_QUEUE}). Publish to the default exchange with the queue's name as routing key, persistent, with publisher confirms.`,
        messages: Object.fromEntries(specs.map(({ name }) => [name, { $ref: `#/components/messages/${name}` }])),
        bindings: { amqp: { is: 'queue', queue: { name: queue, durable: true, exclusive: false, autoDelete: false, vhost: '/' }, bindingVersion: '0.3.0' } },
      },
    },
    operations: {
      receivePlatformEvents: {
        action: 'receive',
        channel: { $ref: `#/channels/${CHANNEL}` },
        title: 'Apply platform events',
        summary: 'The feed consumer takes each event, applies it once in effect and acknowledges it after commit.',
        messages: specs.map(({ name }) => ({ $ref: `#/channels/${CHANNEL}/messages/${name}` })),
        bindings: { amqp: { ack: true, bindingVersion: '0.3.0' } },
      },
    },
    components: {
      messages: Object.fromEntries(
        specs.map(({ type, name, summary }) => [
          name,
          {
            name: type,
            title: type,
            summary,
            contentType: CONTENT_TYPE,
            payload: schemaRef(`${name}Event`),
            examples: [{ name: type, summary: `A ${type} event.`, payload: PLATFORM_EVENT_EXAMPLES[type] }],
          },
        ]),
      ),
      schemas: Object.fromEntries(
        specs.flatMap(({ type, name, data }) => [
          [`${name}Event`, platformEventSchema(type, schemaRef(`${name}Data`))],
          [`${name}Data`, data],
        ]),
      ),
    },
  };
}
