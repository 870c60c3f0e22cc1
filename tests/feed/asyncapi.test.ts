import { DiagnosticSeverity, Parser, type AsyncAPIDocumentInterface, type Diagnostic } from '@asyncapi/parser';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { expect } from 'chai';
import { buildAsyncApiDocument } from '../../adapters/feed/asyncapi-document.js';
import { parsePlatformEvent } from '../../adapters/feed/platform-event-parser.js';
import { PLATFORM_CHANGE_TYPES } from '../../application/use-cases/platform-change.js';
import { asyncApiJson, committedAsyncApiJson } from '../../scripts/generate-asyncapi.js';

type Json = Record<string, unknown>;

const addFormats = addFormatsModule.default;

interface PublishedMessage {
  readonly type: string;
  readonly examples: readonly Json[];
  /** The message's payload schema as the document publishes it, references resolved by the parser. */
  readonly validate: ValidateFunction;
}

async function parseDocument(document: string | object): Promise<{ document: AsyncAPIDocumentInterface | undefined; errors: Diagnostic[] }> {
  const { document: parsed, diagnostics } = await new Parser().parse(document as never);
  return { document: parsed, errors: diagnostics.filter((d) => d.severity === DiagnosticSeverity.Error) };
}

/** A copy of an example with changes: a value of undefined removes the attribute. */
function variant(example: Json, changes: Json): string {
  const copy: Json = structuredClone({ ...example, ...changes });
  for (const [key, value] of Object.entries(changes)) if (value === undefined) delete copy[key];
  return JSON.stringify(copy);
}

describe('the AsyncAPI document of the platform feed (docs/asyncapi.json)', () => {
  let committed: string | null;
  let published: PublishedMessage[];

  before(async () => {
    committed = await committedAsyncApiJson();
    const { document, errors } = await parseDocument(committed ?? '{}');
    expect(errors.map((e) => `${e.path.join('.')}: ${e.message}`)).to.deep.equal([]);
    // The parser adds its own x-parser-* keys to schemas: this validator checks the payloads, not the keywords.
    const ajv = new Ajv({ strict: false, allErrors: true, allowUnionTypes: true });
    addFormats(ajv, ['date', 'date-time', 'uri-reference']);
    published = (document?.allMessages().all() ?? []).map((message) => ({
      type: String(message.name()),
      examples: message.examples().all().map((example) => example.payload() as Json),
      validate: ajv.compile(message.payload()?.json() as object),
    }));
  });

  it('is what npm run generate:asyncapi writes from the code now', () => {
    expect(committed, 'docs/asyncapi.json is stale: run npm run generate:asyncapi').to.equal(asyncApiJson());
  });

  it('parses with @asyncapi/parser, which does report a broken document', async () => {
    const broken = JSON.parse(asyncApiJson()) as { channels: { platformEvents: { bindings: { amqp: { queue: Json } } } } };
    broken.channels.platformEvents.bindings.amqp.queue.durable = 'yes';
    expect((await parseDocument(broken)).errors).to.not.deep.equal([]);
  });

  it('receives one message per event type on the queue integration.platform-events, each with an example', async () => {
    const { document } = await parseDocument(committed ?? '{}');
    expect(document?.channels().all().map((c) => c.address())).to.deep.equal(['integration.platform-events']);
    expect(document?.operations().all().map((o) => o.action())).to.deep.equal(['receive']);
    expect(published.map((m) => m.type)).to.deep.equal([...PLATFORM_CHANGE_TYPES]);
    for (const message of published) expect(message.examples, message.type).to.have.length(1);
  });

  it('names another queue when the code is given one', () => {
    expect(buildAsyncApiDocument({ queue: 'feed.test' }).channels.platformEvents.address).to.equal('feed.test');
  });

  it('has examples that the feed reads into the command of their type, and that the published payloads take', () => {
    for (const { type, examples, validate } of published) {
      for (const example of examples) {
        const parsed = parsePlatformEvent(JSON.stringify(example));
        expect(parsed.ok ? parsed.command.change.type : `${parsed.reason}: ${parsed.detail}`, type).to.equal(type);
        expect(validate(example), `${type}: ${JSON.stringify(validate.errors)}`).to.equal(true);
      }
    }
  });

  it('has payload schemas that refuse, as the feed does, broken variants of the examples', () => {
    for (const { type, examples, validate } of published) {
      const example = examples[0] as Json;
      const broken: [string, Json][] = [
        ['invalid_event', { id: undefined }],
        ['invalid_event', { specversion: '0.3' }],
        ['invalid_event', { companyid: 42 }],
        ['invalid_event', { time: 'yesterday' }],
        ['unknown_type', { type: `${type}.v2` }],
      ];
      if (type === 'application.submitted') broken.push(['invalid_event', { subject: 'another-external-id' }], ['invalid_data', { data: { externalId: example.subject } }]);
      else broken.push(['invalid_event', { entityversion: 0 }], ['invalid_event', { entityversion: undefined }]);
      if (example.data !== undefined) broken.push(['invalid_data', { data: 'not an object' }]);
      // Where the platform placed a card may not be left to the order of delivery.
      if (type === 'candidate.added') broken.push(['invalid_data', { data: { ...(example.data as Json), stage: undefined } }], ['invalid_data', { data: { ...(example.data as Json), stage: null } }]);
      for (const [reason, changes] of broken) {
        const text = variant(example, changes);
        const parsed = parsePlatformEvent(text);
        expect(parsed.ok ? 'ok' : parsed.reason, `${type} with ${JSON.stringify(changes)}`).to.equal(reason);
        // The subject of an application equals its externalId: a rule across fields, the feed's alone.
        if (changes.subject === undefined) expect(validate(JSON.parse(text)), `${type} with ${JSON.stringify(changes)}`).to.equal(false);
      }
    }
  });
});
