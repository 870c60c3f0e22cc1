import type { PlatformChangeType } from '../../../application/use-cases/platform-change.js';
import * as L from '../../../domain/inbound-application/application-limits.js';
import { SINCE_DATE_TIME_PATTERN } from '../../../domain/paging/since.js';
import { RECORD_ID_PATTERN } from '../../../domain/shared/record-id.js';
import { VACANCY_ID_MAX_LENGTH } from '../../../domain/vacancy/vacancy-limits.js';
import { applicationRequestSchema } from '../../json/application-request.schema.js';
import * as F from '../feed-limits.js';
import {
  candidateAddedDataSchema,
  candidateDetachedDataSchema,
  candidateMovedDataSchema,
  candidateResumeUpdatedDataSchema,
  candidateTransferredDataSchema,
} from './candidate-data.schema.js';
import { id, type Schema } from '../../json/schema-parts.js';
import { vacancyUpsertSchema } from '../../json/vacancy-upsert.js';
import { boardColumnsSetDataSchema } from './board-data.schema.js';

/** `datacontenttype`, when given: JSON, with parameters such as a charset if the platform adds them. */
export const JSON_MEDIA_TYPE_PATTERN = '^application/json(\\s*;[^\\u0000\\uD800-\\uDFFF]*)?$';

const noData: Schema = {
  type: ['object', 'null'],
  properties: {},
  description: 'No data: absent, null or an object, whose fields are ignored.',
};

/** What one event type carries: its data, what its subject is, and whether it is versioned. */
export interface PlatformEventTypeSpec {
  /** The name of the message in the AsyncAPI document and of its schemas there. */
  readonly name: string;
  readonly summary: string;
  readonly data: Schema;
  readonly dataRequired: boolean;
  readonly subject: Schema;
  readonly versioned: boolean;
}

const vacancySubject: Schema = { ...id(VACANCY_ID_MAX_LENGTH, "The vacancy's id (letters, digits and . _ : -)."), pattern: RECORD_ID_PATTERN };
const cardSubject: Schema = { ...id(F.CARD_ID_MAX_LENGTH, "The card's id (letters, digits and . _ : -)."), pattern: RECORD_ID_PATTERN };

/** The ten event types of the feed (DESIGN 4a), in PLATFORM_CHANGE_TYPES order. */
export const PLATFORM_EVENT_TYPES: Readonly<Record<PlatformChangeType, PlatformEventTypeSpec>> = {
  'vacancy.upserted': {
    name: 'VacancyUpserted', summary: 'A vacancy was created or changed; the data is the whole vacancy.',
    data: vacancyUpsertSchema, dataRequired: true, subject: vacancySubject, versioned: true,
  },
  'vacancy.deleted': {
    name: 'VacancyDeleted',
    summary:
      'A vacancy was deleted, with its board. Each card it held is taken off it by a `candidate.detached` of that card, published with it; cards the platform does not version (applications\' cards) it takes off itself.',
    data: noData, dataRequired: false, subject: vacancySubject, versioned: true,
  },
  'board.columns-set': {
    name: 'BoardColumnsSet', summary: "The columns of a vacancy's board were renamed, added or reordered.",
    data: boardColumnsSetDataSchema, dataRequired: true, subject: vacancySubject, versioned: true,
  },
  'candidate.added': {
    name: 'CandidateAdded', summary: 'A card was made on the platform (by hand or from a job board).',
    data: candidateAddedDataSchema, dataRequired: true, subject: cardSubject, versioned: true,
  },
  'candidate.moved': {
    name: 'CandidateMoved', summary: 'A card was moved to another column of its board.',
    data: candidateMovedDataSchema, dataRequired: true, subject: cardSubject, versioned: true,
  },
  'candidate.transferred': {
    name: 'CandidateTransferred', summary: 'A card was transferred to another vacancy (a technical card is made there).',
    data: candidateTransferredDataSchema, dataRequired: true, subject: cardSubject, versioned: true,
  },
  'candidate.resume-updated': {
    name: 'CandidateResumeUpdated', summary: "A card's resume was replaced.",
    data: candidateResumeUpdatedDataSchema, dataRequired: true, subject: cardSubject, versioned: true,
  },
  'candidate.detached': {
    name: 'CandidateDetached',
    summary: 'A card was taken off a vacancy that was deleted (its own: it stays without a vacancy and a column; one it was transferred to: its technical card there goes), as the card\'s next version.',
    data: candidateDetachedDataSchema, dataRequired: true, subject: cardSubject, versioned: true,
  },
  'candidate.deleted': {
    name: 'CandidateDeleted', summary: 'A card was deleted.',
    data: noData, dataRequired: false, subject: cardSubject, versioned: true,
  },
  'application.submitted': {
    name: 'ApplicationSubmitted',
    summary: 'An application taken by another channel: the body of POST /applications, idempotent on its externalId. Its vacancy deleted here, its card is stored without a vacancy, as the deletion left the others.',
    data: applicationRequestSchema, dataRequired: true,
    subject: id(L.EXTERNAL_ID_MAX_LENGTH, 'The externalId of the application: equal to data.externalId.'),
    versioned: false,
  },
};

const eventText = (maxLength: number, description: string): Schema => id(maxLength, description);

/**
 * The attributes every CloudEvent has, whatever its type: checked first, so that an event of a type this
 * service does not know yet is told apart from one that is no CloudEvent.
 */
export const cloudEventCoreSchema: Schema = {
  type: 'object',
  required: ['specversion', 'id', 'source', 'type'],
  properties: {
    specversion: { type: 'string', const: '1.0', description: 'CloudEvents 1.0.' },
    id: eventText(F.EVENT_ID_MAX_LENGTH, 'Unique per source: an event published again keeps its id, and is applied once.'),
    source: {
      ...eventText(F.EVENT_SOURCE_MAX_LENGTH, 'The publisher, as a URI reference (/platform/recruiting).'),
      format: 'uri-reference',
    },
    type: eventText(F.EVENT_TYPE_MAX_LENGTH, 'What happened.'),
  },
};

/**
 * The structured CloudEvent of one type (CloudEvents 1.0, JSON format), with the extension attributes
 * `companyid` and `entityversion`. `data` is the type's data schema, or a reference to it (the AsyncAPI
 * document names the data schemas once). Attributes not listed are ignored.
 */
export function platformEventSchema(type: PlatformChangeType, data: Schema): Schema {
  const spec = PLATFORM_EVENT_TYPES[type];
  const core = cloudEventCoreSchema.properties as Record<string, Schema>;
  return {
    type: 'object',
    required: ['specversion', 'id', 'source', 'type', 'subject', 'companyid', ...(spec.versioned ? ['entityversion'] : []), ...(spec.dataRequired ? ['data'] : [])],
    properties: {
      ...core,
      type: { type: 'string', const: type, description: spec.summary },
      time: {
        type: 'string',
        format: 'date-time',
        pattern: SINCE_DATE_TIME_PATTERN,
        description:
          "When the change was made on the platform (RFC 3339, with a time zone). Measures the delay only: versions alone decide how an event applies; the service stamps its own time.",
      },
      subject: spec.subject,
      datacontenttype: { type: 'string', pattern: JSON_MEDIA_TYPE_PATTERN, description: 'application/json when given.' },
      companyid: eventText(F.COMPANY_ID_MAX_LENGTH, 'The company the change belongs to.'),
      entityversion: {
        type: 'integer',
        minimum: 1,
        maximum: Number.MAX_SAFE_INTEGER,
        description: spec.versioned
          ? 'The version of the entity after the change; the platform increases it at every change. An event not newer than what is stored changes nothing, but for a vacancy.deleted that comes after the vacancy was made again (its summary says what it does).'
          : 'Not used: applications are settled by their externalId.',
      },
      data,
    },
  };
}
